import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { MESSAGES } from "../../../../shared/messages";
import { toast } from "../../../components/ui/use-toast";
import { useUser } from "../../auth/api/get-user";
import { invalidateMemoryLists } from "../api/get-memories";
import { claimMemories } from "./claim-memories";
import { releaseClaim, reserveClaim } from "./claim-reservations";
import { celebrate } from "./confetti";
import { onMemoryFailed, onMemorySaved, onSaveToAccountRequested } from "./memory-saved-events";

// Only needed after an anonymous recording: loaded then, not with the first page.
// Only needed just after logging in: asks the server and offers what there is to add.
const AttachOffer = lazy(() =>
  import("../components/attach-recordings-dialog").then((m) => ({ default: m.AttachOffer })),
);
const SaveAccountDialog = lazy(() =>
  import("../../auth/components/save-account-dialog").then((m) => ({
    default: m.SaveAccountDialog,
  })),
);

/**
 * After a memory is saved: the 'Memory saved!' toast, confetti, fresh lists, and, when it was
 * recorded logged out, the save-account dialog whose new account then claims the memory (also
 * opened from the home page's unclaimed recordings). After any log in or sign up, the offer to
 * add the rest of this browser's unclaimed recordings (AttachOffer).
 */
export function MemorySavedEffects() {
  const queryClient = useQueryClient();
  const [toClaim, setToClaimState] = useState<string | null>(null);
  const current = useRef<string | null>(null);
  // The memory the dialog is for is left out of the offer made when its account logs in.
  const setToClaim = useCallback((id: string | null) => {
    if (current.current !== null && current.current !== id) releaseClaim(current.current);
    if (id !== null) reserveClaim(id);
    current.current = id;
    setToClaimState(id);
  }, []);

  useEffect(() => onSaveToAccountRequested(setToClaim), [setToClaim]);

  // Logging in or signing up here (top bar, save-account dialog, watch view: any dialog) offers to
  // add what this browser recorded without an account; the visitor cookie stays, so claims work.
  const { data: user } = useUser();
  const wasUser = useRef(user);
  const [offerTo, setOfferTo] = useState<string | null>(null);
  useEffect(() => {
    if (wasUser.current === null && user) setOfferTo(user.id);
    wasUser.current = user;
  }, [user]);

  // A failed memory appears in the lists with its Retry button.
  useEffect(() => onMemoryFailed(() => void invalidateMemoryLists(queryClient)), [queryClient]);

  useEffect(
    () =>
      onMemorySaved((memory) => {
        toast({ title: MESSAGES.memorySaved });
        void celebrate().catch(() => undefined);
        void invalidateMemoryLists(queryClient);
        if (memory.user_id === null) setToClaim(memory.id);
      }),
    [queryClient, setToClaim],
  );

  const claim = async (memoryId: string) => {
    // Still reserved until the claim is answered; the dialog closes now.
    current.current = null;
    setToClaimState(null);
    try {
      const { claimed } = await claimMemories(queryClient, [memoryId]);
      if (claimed.length === 1) {
        toast({ title: MESSAGES.accountSaved });
      } else {
        toast({
          title: MESSAGES.accountCreated,
          description: MESSAGES.accountCreatedClaimFailed,
          variant: "destructive",
        });
      }
    } finally {
      releaseClaim(memoryId);
    }
  };

  return (
    <>
      {toClaim === null ? null : (
        <Suspense fallback={null}>
          <SaveAccountDialog
            open
            onOpenChange={(open) => {
              if (!open) setToClaim(null);
            }}
            onRegistered={() => {
              void claim(toClaim);
            }}
          />
        </Suspense>
      )}
      {user && offerTo === user.id ? (
        <Suspense fallback={null}>
          <AttachOffer onDone={() => setOfferTo(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
