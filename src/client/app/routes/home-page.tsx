import { useState } from "react";
import { MESSAGES } from "../../../shared/messages";
import { Card } from "../../components/ui/card";
import { useCan } from "../../features/auth/api/use-can";
import { useOpenJournal } from "../../features/journals/open-journal";
import { HomeMemories } from "../../features/memories/components/home-memories";
import { UnclaimedRecordings } from "../../features/memories/components/unclaimed-recordings";
import { StartFromPhoto } from "../../features/photos/components/start-from-photo";
import { PendingRecordings } from "../../features/recorder/components/pending-recordings";
import { Recorder } from "../../features/recorder/components/recorder";
import {
  QuestionPrompt,
  useHomeQuestion,
} from "../../features/reminders/components/question-prompt";
import { WeeklyReminderOfferAfterSave } from "../../features/reminders/components/weekly-reminder-offer-after-save";
import { useDocumentTitle } from "../../lib/use-document-title";

export function HomePage() {
  useDocumentTitle();
  // The question above the recorder is kept on the memory only when chosen (a mail's link, or
  // 'Answer this question' pressed).
  const prompt = useHomeQuestion();
  const question = prompt.chosen;
  // "Start from a photo": kept with the recording, and so on the memory it becomes.
  const [photo, setPhoto] = useState<Blob | null>(null);
  // Saved in the journal open when it was recorded, even if another is opened meanwhile.
  const { journal } = useOpenJournal();
  const may = useCan();
  const meta =
    question || photo || journal
      ? {
          ...(question ? { question } : {}),
          ...(photo ? { photo } : {}),
          ...(journal ? { journalId: journal.id } : {}),
        }
      : undefined;
  // A relative listens and answers; the question, the recorder and the reminder offer are for
  // those who record. Anyone else (logged out too) finds them where they always were.
  const records = !journal || may("journal.record", journal);
  return (
    <div className="space-y-8">
      <h1 className="text-center text-3xl font-bold text-balance text-brand-800">
        {MESSAGES.homeHeader}
      </h1>
      {records ? (
        <div className="space-y-3">
          {/* The question paints with the page (the server embeds a logged-in user's). Its room is
              still kept (the longest built-in question: two lines on a wide screen, three on a
              phone, and its two buttons: in a row on a wide screen, one under the other on a
              phone) for when it must be asked (a page from the offline cache, a login on this
              page, a special day's link), so the record button never jumps down under a thumb. */}
          <div className="min-h-[270px] sm:min-h-[200px]" data-testid="question-slot">
            <QuestionPrompt {...prompt} />
          </div>
          <Card className="mx-auto max-w-2xl" data-testid="record-card">
            <StartFromPhoto photo={photo} onPhoto={setPhoto} />
            <Recorder kind="memory" variant="card" meta={meta} question={question} />
          </Card>
          <WeeklyReminderOfferAfterSave />
        </div>
      ) : null}
      <PendingRecordings />
      <UnclaimedRecordings />
      <HomeMemories />
    </div>
  );
}
