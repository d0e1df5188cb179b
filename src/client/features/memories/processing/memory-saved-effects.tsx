import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { MESSAGES } from "../../../../shared/messages";
import { toast } from "../../../components/ui/use-toast";
import { isMemoryListKey } from "../api/memory-keys";
import { celebrate } from "./confetti";
import { onMemorySaved } from "./memory-saved-events";

/** After a memory is saved: the 'Memory saved!' toast, confetti and fresh lists. */
export function MemorySavedEffects() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onMemorySaved(() => {
        toast({ title: MESSAGES.memorySaved });
        void celebrate().catch(() => undefined);
        void queryClient.invalidateQueries({ predicate: (q) => isMemoryListKey(q.queryKey) });
      }),
    [queryClient],
  );
  return null;
}
