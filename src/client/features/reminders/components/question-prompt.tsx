import { Lightbulb, Mic, RefreshCw } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useSearchParams } from "wouter";
import {
  ENGLISH_QUESTIONS,
  isKnownQuestion,
  questionInPageLanguage,
} from "../../../../shared/questions";
import { REMINDER_MESSAGES } from "../../../../shared/reminder-messages";
import { Button } from "../../../components/ui/button";
import { useUser } from "../../auth/api/get-user";
import { onMemorySaved } from "../../memories/processing/memory-saved-events";
import { useCurrentQuestion, useNextQuestion, useReminders } from "../api/reminders";

export interface HomeQuestion {
  /** The question shown now (null while none is). */
  question: string | null;
  /**
   * The question the next recording answers, for the recorder to keep on the memory: only one
   * chosen, by opening a reminder mail's link or pressing 'Answer this question'; else null.
   */
  chosen: string | null;
  /** Presses (or lets go of) 'Answer this question'. */
  toggleAnswer: () => void;
  skip: () => void;
  skipping: boolean;
}

/**
 * The question to answer above the home page's recorder. A reminder mail's link names its
 * question (`/?question=...`); it is shown when it is one the product asks (a built-in question or
 * one of the user's special days), so a crafted link cannot put words on the page. Otherwise a
 * logged-in user sees their rotation's question (skipping moves it on for good); a visitor walks
 * the built-in list from a random place. The home page holds it, so the recorder has the question
 * in the same render as the prompt, without a second render to be told of it.
 */
export function useHomeQuestion(): HomeQuestion {
  const { data: user } = useUser();
  const loggedIn = Boolean(user);
  const [params, setParams] = useSearchParams();
  const linked = params.get("question");
  const current = useCurrentQuestion(loggedIn);
  const next = useNextQuestion();
  const builtInLink = linked !== null && isKnownQuestion(linked);
  // Only a link that is not a built-in question needs the special days to be checked against.
  const reminders = useReminders(loggedIn && linked !== null && !builtInLink);
  const [visitorIndex, setVisitorIndex] = useState(() =>
    Math.floor(Math.random() * ENGLISH_QUESTIONS.length),
  );

  const fromLink = useMemo(() => {
    if (linked === null) return null;
    if (builtInLink) return linked;
    const labels = reminders.data?.specialDays.map((day) => day.label) ?? [];
    return isKnownQuestion(linked, labels) ? linked : null;
  }, [linked, builtInLink, reminders.data]);

  const question =
    fromLink ??
    (loggedIn ? (current.data?.question ?? null) : (ENGLISH_QUESTIONS[visitorIndex] ?? null));
  // A question pressed to answer; another question shown (skipped, or the rotation moved on)
  // is not chosen until pressed in turn. A mail's link chose its question already.
  const [pressed, setPressed] = useState<string | null>(null);
  const chosen =
    question !== null && (fromLink === question || pressed === question) ? question : null;
  const toggleAnswer = () => setPressed(chosen === null ? question : null);

  // Answering the rotation's question moves the rotation on, as skipping does.
  const position = current.data?.position;
  const rotationQuestion = current.data?.question;
  const { mutate: moveOn } = next;
  useEffect(
    () =>
      onMemorySaved((memory) => {
        if (position !== undefined && memory.question && memory.question === rotationQuestion) {
          moveOn(position);
        }
      }),
    [position, rotationQuestion, moveOn],
  );

  const skip = () => {
    if (fromLink) {
      // Leave the mail's question; the rotation's own question comes back.
      setParams((previous) => {
        const updated = new URLSearchParams(previous);
        updated.delete("question");
        return updated;
      });
      if (!loggedIn) setVisitorIndex((index) => (index + 1) % ENGLISH_QUESTIONS.length);
      setPressed(null);
      return;
    }
    if (loggedIn) {
      if (position !== undefined) next.mutate(position);
    } else {
      setVisitorIndex((index) => (index + 1) % ENGLISH_QUESTIONS.length);
    }
  };

  return { question, chosen, toggleAnswer, skip, skipping: next.isPending };
}

/**
 * The question above the recorder, with buttons to answer it (only then does the recording keep
 * it) and to skip it; nothing while there is none.
 */
export function QuestionPrompt({ question, chosen, toggleAnswer, skip, skipping }: HomeQuestion) {
  if (!question) return null;

  return (
    <section
      aria-labelledby="question-prompt-heading"
      className="mx-auto max-w-2xl rounded-lg border border-brand-100 bg-white p-4 shadow-sm"
      data-testid="question-prompt"
    >
      <h2
        id="question-prompt-heading"
        className="flex items-center gap-2 text-sm font-semibold text-brand-800"
      >
        <Lightbulb className="h-4 w-4" aria-hidden="true" />
        {REMINDER_MESSAGES.questionHeading}
      </h2>
      <p className="mt-2 text-lg font-medium text-slate-900" data-testid="question-text">
        {questionInPageLanguage(question)}
      </p>
      <p role="status" className="min-h-5 text-sm text-brand-800">
        {chosen ? REMINDER_MESSAGES.answeringQuestion : null}
      </p>
      <div className="mt-1 flex flex-wrap gap-2">
        <Button
          type="button"
          variant={chosen ? "primary" : "outline"}
          className="min-h-11"
          aria-pressed={chosen !== null}
          onClick={toggleAnswer}
        >
          <Mic className="me-2 h-4 w-4" aria-hidden="true" />
          {REMINDER_MESSAGES.answerQuestion}
        </Button>
        <Button
          type="button"
          variant="ghost"
          className="min-h-11"
          onClick={skip}
          disabled={skipping}
        >
          <RefreshCw className="me-2 h-4 w-4" aria-hidden="true" />
          {REMINDER_MESSAGES.skipQuestion}
        </Button>
      </div>
    </section>
  );
}
