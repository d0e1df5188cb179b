import { currentLanguage } from "../../../../shared/i18n/languages";
import { relativeNewsBodySchema, SHARE_MESSAGES } from "../../../../shared/share-links";
import { Button } from "../../../components/ui/button";
import { TextField } from "../../../components/ui/text-field";
import { errorMessage } from "../../../lib/api-client";
import { useForm } from "../../../lib/use-form";
import { useSubscribeNews } from "../api/subscribe-news";

const emailOnly = relativeNewsBodySchema.pick({ email: true });

/**
 * On the shared view: a relative leaves an email to be mailed when new memories are saved
 * (ADR 0044). The browser's share link says whose memories; the mail can stop them in one click.
 * The mails are written in the language this page speaks.
 */
export function RelativeNewsForm({ username }: { username: string }) {
  const subscribe = useSubscribeNews();
  const form = useForm(emailOnly, { email: "" }, ({ email }) =>
    subscribe.mutate({ username, email, language: currentLanguage() }),
  );
  return (
    <section
      aria-labelledby="relative-news-title"
      data-testid="relative-news"
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 text-slate-800"
    >
      <h2 id="relative-news-title" className="text-lg font-semibold text-slate-900">
        {SHARE_MESSAGES.newsTitle}
      </h2>
      {subscribe.isSuccess ? (
        <p role="status">{SHARE_MESSAGES.newsSubscribed}</p>
      ) : (
        <form className="grid gap-3" onSubmit={form.onSubmit} noValidate>
          <p className="text-sm text-slate-700">{SHARE_MESSAGES.newsDescription}</p>
          <TextField
            label={SHARE_MESSAGES.newsEmailField}
            type="email"
            autoComplete="email"
            {...form.field("email")}
          />
          <div>
            <Button type="submit" disabled={subscribe.isPending}>
              {subscribe.isPending ? SHARE_MESSAGES.newsSubscribing : SHARE_MESSAGES.newsSubscribe}
            </Button>
          </div>
          {subscribe.isError ? (
            <p role="alert" className="text-sm text-red-700">
              {SHARE_MESSAGES.newsFailed}: {errorMessage(subscribe.error)}
            </p>
          ) : null}
        </form>
      )}
    </section>
  );
}
