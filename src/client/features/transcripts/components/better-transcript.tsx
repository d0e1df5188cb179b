import { useQueryClient } from "@tanstack/react-query";
import { Sparkles } from "lucide-react";
import { MESSAGES } from "../../../../shared/messages";
import type { Memory } from "../../../../shared/schemas";
import { FALLBACK_ENGINE } from "../../../../shared/transcript";
import { Button } from "../../../components/ui/button";
import { useRegenerate } from "../../memories/processing/use-regenerate";
import { retranscribeMemory, transcriptQueryOptions, useTranscript } from "../api/transcript";
import { TranscriptProposal } from "./transcript-proposal";

/**
 * The owner's offer on a memory the offline fallback transcribed, once a better engine is there:
 * "A better transcription is available" and Transcribe again, which runs the processing again from
 * transcription with the same progress notices. A transcript the owner edited stays: the new one
 * is then shown beside it for them to choose (ADR 0045).
 */
export function BetterTranscript({ memory }: { memory: Memory }) {
  const queryClient = useQueryClient();
  const transcript = useTranscript(memory.id);
  const { regenerate, notice, pending } = useRegenerate(
    memory.id,
    retranscribeMemory,
    MESSAGES.transcribeAgainFailed,
  );
  const proposal = transcript.data?.proposal;
  if (proposal && !pending)
    return <TranscriptProposal memory={memory} proposed={proposal.transcript} />;
  // Made by the rough fallback while no speech model is there: a calm word of what will come.
  const data = transcript.data;
  if (data && data.engine === FALLBACK_ENGINE && !data.edited && !data.retranscribe && !pending) {
    return (
      <p
        className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700"
        data-testid="rough-transcript-note"
      >
        {MESSAGES.roughTranscriptNote}
      </p>
    );
  }
  // Mounted while it runs, so its notices stay on screen.
  if (!transcript.data?.retranscribe && !pending) return null;
  const run = async () => {
    await regenerate();
    await queryClient.invalidateQueries({ queryKey: transcriptQueryOptions(memory.id).queryKey });
  };
  return (
    <div
      className="flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 p-3"
      data-testid="better-transcript"
    >
      <p className="font-medium text-amber-950">{MESSAGES.betterTranscriptAvailable}</p>
      <Button
        variant="outline"
        size="sm"
        className="min-h-11"
        title={
          transcript.data?.edited ? MESSAGES.transcribeBesideHint : MESSAGES.transcribeAgainHint
        }
        disabled={pending || memory.status === "processing"}
        onClick={() => void run()}
      >
        <Sparkles className={pending ? "h-4 w-4 animate-pulse" : "h-4 w-4"} aria-hidden="true" />
        {MESSAGES.transcribeAgain}
      </Button>
      <p role="status" className="text-sm text-stone-700">
        {notice}
      </p>
    </div>
  );
}
