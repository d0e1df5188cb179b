import { useMutation, useQueryClient } from "@tanstack/react-query";
import { RECORDING_LINK_MESSAGES } from "../../../../shared/journals";
import type { RecordingPage } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { chooseQuestionMail, recordingPageKeys } from "../api/recording-page";

/**
 * On a storyteller's link page: whether the weekly question comes by mail, and one button to stop
 * it (or ask for it again). Nothing shows when no mail comes (ADR 0064).
 */
export function QuestionMailChoice({
  token,
  state,
}: {
  token: string;
  state: RecordingPage["questionMail"];
}) {
  const queryClient = useQueryClient();
  const choose = useMutation({
    mutationFn: (stopped: boolean) => chooseQuestionMail(token, stopped),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recordingPageKeys.all }),
  });
  if (state === null) return null;
  const stopped = state === "stopped";
  return (
    <section className="space-y-2 text-center" data-testid="question-mail-choice">
      <p className="text-lg text-slate-700" aria-live="polite">
        {stopped ? RECORDING_LINK_MESSAGES.mailStopped : RECORDING_LINK_MESSAGES.mailOn}
      </p>
      <Button
        variant="outline"
        className="min-h-11"
        disabled={choose.isPending}
        onClick={() => choose.mutate(!stopped)}
      >
        {stopped ? RECORDING_LINK_MESSAGES.mailResume : RECORDING_LINK_MESSAGES.mailStop}
      </Button>
    </section>
  );
}
