import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { attachOfferDescription, MESSAGES, recordingsAdded } from "../../../../shared/messages";
import { type UnclaimedMemory, unclaimedMemoriesSchema } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../../../components/ui/dialog";
import { toast } from "../../../components/ui/use-toast";
import { getJson } from "../../../lib/api-client";
import { formatRecordedAt } from "../../../lib/format-date";
import { UNCLAIMED_URL } from "../api/memory-keys";
import { claimMemories } from "../processing/claim-memories";
import { isClaimReserved } from "../processing/claim-reservations";

/**
 * Just after logging in: asks what this browser recorded without an account and can still claim,
 * and offers it, leaving out a memory a save-account dialog is claiming. Nothing to offer: done.
 */
export function AttachOffer({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient();
  const [memories, setMemories] = useState<UnclaimedMemory[] | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once, when logged in
  useEffect(() => {
    // Asked directly, not through the query cache: a list refresh after a claim cancels queries.
    void getJson(UNCLAIMED_URL, unclaimedMemoriesSchema)
      .then(({ items }) => {
        const offered = items.filter((memory) => !isClaimReserved(memory.id));
        if (offered.length > 0) setMemories(offered);
        else onDone();
      })
      .catch(() => onDone());
  }, []);
  if (!memories) return null;
  return <AttachRecordingsDialog memories={memories} queryClient={queryClient} onDone={onDone} />;
}

/** The offer after logging in: add this browser's unclaimed recordings to the account, or not now. */
export function AttachRecordingsDialog({
  memories,
  queryClient,
  onDone,
}: {
  memories: UnclaimedMemory[];
  queryClient: QueryClient;
  onDone: () => void;
}) {
  const [pending, setPending] = useState(false);
  const attach = async () => {
    setPending(true);
    const { claimed, failures } = await claimMemories(
      queryClient,
      memories.map((memory) => memory.id),
    );
    if (claimed.length > 0) toast({ title: recordingsAdded(claimed.length) });
    if (failures.length > 0) {
      toast({
        title: MESSAGES.claimFailed,
        description: failures[0],
        variant: "destructive",
      });
    }
    onDone();
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !pending) onDone();
      }}
    >
      <DialogContent>
        <DialogTitle>{MESSAGES.attachOfferTitle}</DialogTitle>
        <DialogDescription>{attachOfferDescription(memories.length)}</DialogDescription>
        <ul className="mt-4 space-y-1 text-sm text-slate-800">
          {memories.map((memory) => (
            <li key={memory.id}>
              <span className="font-medium">{memory.title || MESSAGES.untitledMemory}</span>
              <span className="text-slate-700"> · {formatRecordedAt(memory.recordedAt)}</span>
            </li>
          ))}
        </ul>
        <div className="mt-6 flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={onDone} disabled={pending}>
            {MESSAGES.notNow}
          </Button>
          <Button onClick={() => void attach()} disabled={pending}>
            {MESSAGES.addToMyAccount}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
