import { useMutation } from "@tanstack/react-query";
import { useSearchParams } from "wouter";
import { ERROR_MESSAGES } from "../../../../shared/messages";
import { REMINDER_MESSAGES } from "../../../../shared/reminder-messages";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { errorMessage } from "../../../lib/api-client";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { unsubscribe } from "../api/reminders";

/**
 * /unsubscribe?u=...&t=...: the link at the foot of every reminder mail. It asks for one click
 * rather than unsubscribing on opening, since mail scanners open links; mail programs use the
 * List-Unsubscribe header's POST instead (RFC 8058). No login is needed: the link is signed.
 */
export function UnsubscribePage() {
  useDocumentTitle(REMINDER_MESSAGES.unsubscribeTitle);
  const [params] = useSearchParams();
  const userId = params.get("u");
  const token = params.get("t");
  const run = useMutation({
    mutationFn: () => unsubscribe(userId ?? "", token ?? ""),
  });
  const valid = Boolean(userId && token);
  return (
    <Card className="mx-auto max-w-md space-y-4 text-center">
      <h1 className="text-xl font-bold">{REMINDER_MESSAGES.unsubscribeTitle}</h1>
      {!valid ? (
        <p className="text-red-700">{ERROR_MESSAGES["reminders.unsubscribe_invalid"]}</p>
      ) : run.isSuccess ? (
        <p role="status" className="text-slate-800">
          {REMINDER_MESSAGES.unsubscribeDone}
        </p>
      ) : (
        <>
          <p className="text-slate-700">{REMINDER_MESSAGES.unsubscribeExplain}</p>
          <Button type="button" onClick={() => run.mutate()} disabled={run.isPending}>
            {REMINDER_MESSAGES.unsubscribeButton}
          </Button>
          {run.isError ? (
            <p role="alert" className="text-red-700">
              {errorMessage(run.error)}
            </p>
          ) : null}
        </>
      )}
    </Card>
  );
}
