import { ArrowLeft } from "lucide-react";
import { useLocation } from "wouter";
import { MESSAGES } from "../../../../shared/messages";
import type { Memory } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";

// The parts of a memory's page its preview draws too (memory-preview.tsx): one markup for both, so
// the page arriving over its preview moves nothing.

/** Back to where the reader came from, or home when the page was opened first. */
export function BackButton() {
  const [, navigate] = useLocation();
  return (
    <Button
      variant="ghost"
      onClick={() => (window.history.length > 1 ? window.history.back() : navigate("/"))}
    >
      <ArrowLeft className="h-4 w-4" aria-hidden="true" />
      Back
    </Button>
  );
}

/** The memory's title, and the question it answers. */
export function MemoryHeading({ memory }: { memory: Pick<Memory, "title" | "question"> }) {
  return (
    <>
      <h1 className="text-2xl font-bold text-balance">{memory.title || MESSAGES.untitledMemory}</h1>
      {memory.question ? (
        <p className="text-slate-700" data-testid="memory-question">
          <span className="font-medium text-slate-900">Answering: </span>
          {memory.question}
        </p>
      ) : null}
    </>
  );
}

/** The memory's words: its transcript and summary. */
export function MemoryTextCards({ memory }: { memory: Pick<Memory, "transcript" | "summary"> }) {
  return (
    <>
      <Card className="space-y-2">
        <h2 className="text-lg font-semibold">Transcript</h2>
        <p className="whitespace-pre-wrap">{memory.transcript}</p>
      </Card>
      <Card className="space-y-2">
        <h2 className="text-lg font-semibold">Summary</h2>
        <p className="whitespace-pre-wrap">{memory.summary}</p>
      </Card>
    </>
  );
}
