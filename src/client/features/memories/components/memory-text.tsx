import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { useLocation } from "wouter";
import { MESSAGES } from "../../../../shared/messages";
import { questionInPageLanguage } from "../../../../shared/questions";
import type { Memory } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { hasInAppPrevious } from "../../../lib/in-app-history";

// The parts of a memory's page its preview draws too (memory-preview.tsx): one markup for both, so
// the page arriving over its preview moves nothing.

/**
 * Back to the app's screen the reader came from; when this page was the first (a QR code, a mail),
 * to `fallback` (the owner's memories, else home). Never out of the app.
 */
export function BackButton({ fallback = "/" }: { fallback?: string }) {
  const [, navigate] = useLocation();
  return (
    <Button
      variant="ghost"
      className="min-h-11"
      onClick={() => (hasInAppPrevious() ? window.history.back() : navigate(fallback))}
    >
      <ArrowLeft className="h-4 w-4 rtl:-scale-x-100" aria-hidden="true" />
      {MESSAGES.back}
    </Button>
  );
}

/** The memory's title, and the question it answers. */
export function MemoryHeading({ memory }: { memory: Pick<Memory, "title" | "question"> }) {
  return (
    <>
      <h1 className="text-2xl font-bold text-balance" dir="auto">
        {memory.title || MESSAGES.untitledMemory}
      </h1>
      {memory.question ? (
        <p className="text-slate-700" data-testid="memory-question">
          <span className="font-medium text-slate-900">{MESSAGES.answering} </span>
          {questionInPageLanguage(memory.question)}
        </p>
      ) : null}
    </>
  );
}

/**
 * The memory's words: its transcript and summary. The page passes `transcript` to follow it while
 * it plays (the same words, laid out the same).
 */
export function MemoryTextCards({
  memory,
  transcript,
}: {
  memory: Pick<Memory, "transcript" | "summary">;
  transcript?: ReactNode;
}) {
  return (
    <>
      <Card className="space-y-2">
        <h2 className="text-lg font-semibold">{MESSAGES.transcript}</h2>
        {transcript ?? (
          <p className="whitespace-pre-wrap" data-testid="transcript" dir="auto">
            {memory.transcript}
          </p>
        )}
      </Card>
      <Card className="space-y-2">
        <h2 className="text-lg font-semibold">{MESSAGES.summary}</h2>
        <p className="whitespace-pre-wrap" dir="auto">
          {memory.summary}
        </p>
      </Card>
    </>
  );
}
