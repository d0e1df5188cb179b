import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import type { UnclaimedMemories, UnclaimedMemory, User } from "../../../../shared/schemas";
import { apiRequest } from "../../../lib/api-client";
import { useUser } from "../../auth/api/get-user";
import { UNCLAIMED_URL } from "../api/memory-keys";
import { isClaimReserved } from "../processing/claim-memories";

// Only needed when someone logs in where they recorded without an account.
const AttachRecordingsDialog = lazy(() =>
  import("./attach-recordings-dialog").then((m) => ({ default: m.AttachRecordingsDialog })),
);

/**
 * Whenever this browser logs in or signs up (top bar, save-account dialog, watch view: any dialog),
 * offers to add what it recorded without an account and can still claim. The visitor cookie stays
 * across logging in, so the claim works; a memory a save-account dialog is claiming is left out.
 */
export function UnclaimedOffer() {
  const queryClient = useQueryClient();
  const { data: user } = useUser();
  const previous = useRef<User | null | undefined>(user);
  const latest = useRef(user);
  latest.current = user;
  const [offer, setOffer] = useState<UnclaimedMemory[] | null>(null);

  useEffect(() => {
    const was = previous.current;
    previous.current = user;
    if (was !== null || !user) return;
    // Asked directly, not through the query cache: a list refresh after a claim cancels queries.
    void apiRequest("GET", UNCLAIMED_URL)
      .then((res) => res.json() as Promise<UnclaimedMemories>)
      .then(({ items }) => {
        const offered = items.filter((memory) => !isClaimReserved(memory.id));
        if (offered.length > 0 && latest.current?.id === user.id) setOffer(offered);
      })
      .catch(() => undefined);
  }, [user]);

  if (!offer || !user) return null;
  return (
    <Suspense fallback={null}>
      <AttachRecordingsDialog
        memories={offer}
        queryClient={queryClient}
        onDone={() => setOffer(null)}
      />
    </Suspense>
  );
}
