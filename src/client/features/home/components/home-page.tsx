import { lazy, Suspense, useState } from "react";
import { MESSAGES } from "../../../../shared/messages";
import { Card } from "../../../components/ui/card";
import { useAfterFirstPaint } from "../../../lib/after-paint";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { HomeMemories } from "../../memories/components/home-memories";
import { PendingRecordings } from "../../recorder/components/pending-recordings";
import { Recorder } from "../../recorder/components/recorder";
import { QuestionPrompt } from "../../reminders/components/question-prompt";

// What this browser recorded without an account: loaded after the first paint, not with it.
const UnclaimedRecordings = lazy(() =>
  import("../../memories/components/unclaimed-recordings").then((m) => ({
    default: m.UnclaimedRecordings,
  })),
);

export function HomePage() {
  useDocumentTitle();
  // The question shown above the recorder is kept on the memory recorded while it is shown.
  const [question, setQuestion] = useState<string | null>(null);
  return (
    <div className="space-y-8">
      <h1 className="text-center text-3xl font-bold text-balance text-brand-800">
        {MESSAGES.homeHeader}
      </h1>
      <div className="space-y-3">
        {/* The question paints with the page (the server embeds a logged-in user's). Its room is
            still kept (the longest built-in question: two lines on a wide screen, three on a phone)
            for when it must be asked (a page from the offline cache, a login on this page, a
            special day's link), so the record button never jumps down under a thumb. */}
        <div className="min-h-[198px] sm:min-h-[170px]" data-testid="question-slot">
          <QuestionPrompt onQuestion={setQuestion} />
        </div>
        <Card className="mx-auto max-w-2xl" data-testid="record-card">
          <Recorder kind="memory" variant="card" meta={question ? { question } : undefined} />
        </Card>
      </div>
      <PendingRecordings />
      <UnclaimedRecordingsAfterPaint />
      <HomeMemories />
    </div>
  );
}

/**
 * What this browser recorded without an account, once the first screen is painted. Waiting is this
 * component's own state: held by the page, the paint rendered the whole home page again, the
 * recorder and the question included (ADR 0032).
 */
function UnclaimedRecordingsAfterPaint() {
  const painted = useAfterFirstPaint();
  if (!painted) return null;
  return (
    <Suspense fallback={null}>
      <UnclaimedRecordings />
    </Suspense>
  );
}
