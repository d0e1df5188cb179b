import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatDate } from "../../../shared/dates";
import { formatMessage } from "../../../shared/i18n/format";
import { FAMILY_QUESTION_MESSAGES, RECORDING_LINK_MESSAGES } from "../../../shared/journals";
import { questionInPageLanguage } from "../../../shared/questions";
import type { LinkStory } from "../../../shared/schemas";
import { AudioPlayer } from "../../components/audio-player";
import { NotFound } from "../../components/not-found";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { PageLoading } from "../../components/ui/page-loading";
import { StartFromPhoto } from "../../features/photos/components/start-from-photo";
import { Recorder } from "../../features/recorder/components/recorder";
import {
  LINK_RECORDING_KIND,
  type LinkRecordingMeta,
} from "../../features/recording-link/api/link-finisher";
import {
  recordingPageKeys,
  useRecordingPage,
} from "../../features/recording-link/api/recording-page";
import { LinkLanguage } from "../../features/recording-link/components/link-language";
import { LinkStoryReplies } from "../../features/recording-link/components/link-story-replies";
import { QuestionMailChoice } from "../../features/recording-link/components/question-mail-choice";
import { ApiError, errorMessage } from "../../lib/api-client";
import { useDocumentTitle } from "../../lib/use-document-title";

/**
 * Where a storyteller's personal recording link lands (ADR 0060), made for a grandparent: the
 * journal's name, a greeting, this week's question in large type, one large button, and their own
 * stories to listen to, in their language (the journal's until they choose one here). Nothing else
 * of the journal is here, and the link opens nothing else.
 */
export function RecordingLinkPage({ token }: { token: string }) {
  const [page, setPage] = useState(1);
  // The weekly mail's button opens the page with its question (`?q=`).
  const [asked] = useState(() => new URLSearchParams(window.location.search).get("q") ?? undefined);
  const { data, error, isPending } = useRecordingPage(token, page, asked);
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState<LinkStory | null>(null);
  // "Start from a photo": kept with the recording, and added to the story it becomes.
  const [photo, setPhoto] = useState<Blob | null>(null);
  useDocumentTitle(
    data ? formatMessage(RECORDING_LINK_MESSAGES.hello, { name: data.name }) : undefined,
  );

  if (isPending) return <PageLoading />;
  if (error || !data) {
    if (error instanceof ApiError && error.status === 404) return <NotFound />;
    return (
      <p role="alert" className="mx-auto max-w-xl py-16 text-center text-lg text-red-800">
        {errorMessage(error)}
      </p>
    );
  }

  const meta: LinkRecordingMeta = {
    token,
    question: data.question,
    ...(photo ? { photo } : {}),
  };
  const stories = data.stories;
  const pages = Math.max(1, Math.ceil(stories.total / stories.pageSize));

  return (
    <main className="mx-auto max-w-2xl space-y-8 px-4 py-8" data-testid="recording-link-page">
      <header className="space-y-2 text-center">
        <p className="text-lg text-slate-700">{data.journalName}</p>
        <h1 className="text-4xl font-bold text-balance text-brand-800">
          {formatMessage(RECORDING_LINK_MESSAGES.hello, { name: data.name })}
        </h1>
      </header>
      <section aria-labelledby="week-question" className="space-y-3 text-center">
        <h2 id="week-question" className="text-lg font-semibold text-brand-800">
          {data.askedBy
            ? formatMessage(FAMILY_QUESTION_MESSAGES.asks, { name: data.askedBy })
            : RECORDING_LINK_MESSAGES.questionHeading}
        </h2>
        <p
          className="text-3xl leading-snug font-medium text-balance text-slate-900"
          data-testid="link-question"
        >
          {questionInPageLanguage(data.question)}
        </p>
      </section>
      <Card className="text-lg" data-testid="record-card">
        <StartFromPhoto photo={photo} onPhoto={setPhoto} throughLink />
        <Recorder
          kind={LINK_RECORDING_KIND}
          meta={meta}
          variant="card"
          startLabel={RECORDING_LINK_MESSAGES.record}
          question={data.question}
          beforeStart={() => {
            setSaved(null);
            return true;
          }}
          onSaved={(result) => {
            setSaved(result as LinkStory);
            setPhoto(null);
            void queryClient.invalidateQueries({ queryKey: recordingPageKeys.all });
          }}
        />
      </Card>
      {saved ? (
        <section
          role="status"
          className="space-y-2 rounded-lg border border-emerald-200 bg-emerald-50 p-6 text-center"
          data-testid="link-thank-you"
        >
          <p className="text-3xl font-bold text-emerald-900">{RECORDING_LINK_MESSAGES.thankYou}</p>
          <p className="text-xl text-slate-900">
            {saved.status === "saved" && saved.title
              ? formatMessage(RECORDING_LINK_MESSAGES.savedTitle, { title: saved.title })
              : RECORDING_LINK_MESSAGES.savedUntitled}
          </p>
        </section>
      ) : null}
      <section aria-labelledby="your-stories" className="space-y-4">
        <h2 id="your-stories" className="text-2xl font-semibold text-slate-900">
          {RECORDING_LINK_MESSAGES.yourStories}
        </h2>
        {stories.items.length === 0 ? (
          <p className="text-lg text-slate-700">{RECORDING_LINK_MESSAGES.noStories}</p>
        ) : (
          <ul className="space-y-4">
            {stories.items.map((story) => (
              <li
                key={story.id}
                className="space-y-2 rounded-lg border border-slate-200 bg-white p-4"
              >
                <h3 className="text-xl font-medium text-slate-900" dir="auto">
                  {story.title}
                </h3>
                <AudioPlayer
                  src={story.audioUrl}
                  label={story.title}
                  caption={formatDate(story.recordedAt, "date")}
                  durationHint={story.duration}
                />
                <LinkStoryReplies token={token} story={story} />
              </li>
            ))}
          </ul>
        )}
        {page < pages ? (
          <Button variant="secondary" size="lg" onClick={() => setPage(page + 1)}>
            {RECORDING_LINK_MESSAGES.moreStories}
          </Button>
        ) : null}
      </section>
      <QuestionMailChoice token={token} state={data.questionMail} />
      <LinkLanguage token={token} language={data.language} />
    </main>
  );
}
