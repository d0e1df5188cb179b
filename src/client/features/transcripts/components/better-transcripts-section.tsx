import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Sparkles } from "lucide-react";
import {
  betterTranscriptsLabel,
  MESSAGES,
  transcribingAgainLabel,
} from "../../../../shared/messages";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { toastError } from "../../../components/ui/use-toast";

import { invalidateMemoryLists } from "../../memories/api/get-memories";
import { retranscribableQueryOptions, retranscribeAll } from "../api/transcript";

/**
 * The Account page's offer to transcribe again, at once, every memory the offline fallback made
 * (not the ones whose transcript the owner edited); shown only when there are some.
 */
export function BetterTranscriptsSection() {
  const queryClient = useQueryClient();
  const status = useQuery(retranscribableQueryOptions());
  const count = status.data?.count;
  const all = useMutation({
    mutationFn: retranscribeAll,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: retranscribableQueryOptions().queryKey });
      await invalidateMemoryLists(queryClient);
    },
    onError: (error) => toastError(MESSAGES.transcribeAgainFailed, error),
  });
  if (status.data?.speechModelMissing && all.data === undefined) {
    return (
      <Card>
        <section aria-labelledby="account-speech-model" className="space-y-2">
          <h2 id="account-speech-model" className="text-lg font-semibold text-slate-900">
            {MESSAGES.speechModelMissingTitle}
          </h2>
          <p className="text-sm text-slate-700">{MESSAGES.speechModelMissing}</p>
        </section>
      </Card>
    );
  }
  if (!count && all.data === undefined) return null;
  return (
    <Card>
      <section aria-labelledby="account-better-transcripts" className="space-y-4">
        <h2 id="account-better-transcripts" className="text-lg font-semibold text-slate-900">
          {MESSAGES.betterTranscriptAvailable}
        </h2>
        {count ? (
          <>
            <p className="text-sm text-slate-700">{betterTranscriptsLabel(count)}</p>
            <Button disabled={all.isPending} onClick={() => all.mutate()}>
              <Sparkles className="h-4 w-4" aria-hidden="true" />
              {MESSAGES.transcribeAllAgain}
            </Button>
          </>
        ) : null}
        <p role="status" className="text-sm text-slate-800">
          {all.data !== undefined ? transcribingAgainLabel(all.data) : ""}
        </p>
      </section>
    </Card>
  );
}
