import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState } from "react";
import { MESSAGES } from "../../../../shared/messages";
import { toast } from "../../../components/ui/use-toast";
import { invalidateMemoryLists } from "../api/get-memories";
import { celebrate } from "./confetti";
import { onMemoryFailed, onMemorySaved } from "./memory-saved-events";
import { claimMemory } from "./processing-api";

// Only needed after an anonymous recording: loaded then, not with the first page.
const SaveAccountDialog = lazy(() =>
  import("../../auth/components/save-account-dialog").then((m) => ({
    default: m.SaveAccountDialog,
  })),
);

/**
 * After a memory is saved: the 'Memory saved!' toast, confetti, fresh lists, and, when it was
 * recorded logged out, the save-account dialog whose new account then claims the memory.
 */
export function MemorySavedEffects() {
  const queryClient = useQueryClient();
  const [toClaim, setToClaim] = useState<string | null>(null);

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
    [queryClient],
  );

  const claim = async (memoryId: string) => {
    setToClaim(null);
    try {
      await claimMemory(memoryId);
      toast({ title: MESSAGES.accountSaved });
    } catch {
      toast({
        title: MESSAGES.accountCreated,
        description: MESSAGES.accountCreatedClaimFailed,
        variant: "destructive",
      });
    }
    await invalidateMemoryLists(queryClient);
  };

  if (toClaim === null) return null;
  return (
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
  );
}
