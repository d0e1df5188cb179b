import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { MESSAGES } from "../../../../shared/messages";
import type { Memory } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { toast, toastError } from "../../../components/ui/use-toast";

import { invalidateMemoryLists } from "../../memories/api/get-memories";
import { memoryKeys } from "../../memories/api/memory-keys";
import {
  acceptProposedTranscript,
  dismissProposedTranscript,
  transcriptQueryOptions,
} from "../api/transcript";

/**
 * The owner's edited transcript and the new transcription made beside it, next to each other: they
 * keep theirs or take the new one, with its times (ADR 0045).
 */
export function TranscriptProposal({ memory, proposed }: { memory: Memory; proposed: string }) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);

  const choose = async (take: boolean) => {
    setPending(true);
    try {
      if (take) {
        const updated = await acceptProposedTranscript(memory.id);
        queryClient.setQueryData(memoryKeys.detail(memory.id), updated);
        await invalidateMemoryLists(queryClient);
        toast({ title: MESSAGES.memoryUpdated });
      } else {
        await dismissProposedTranscript(memory.id);
      }
      await queryClient.invalidateQueries({ queryKey: transcriptQueryOptions(memory.id).queryKey });
    } catch (error) {
      toastError(MESSAGES.proposalFailed, error);
    } finally {
      setPending(false);
    }
  };

  return (
    <section
      className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-3"
      aria-labelledby="transcript-proposal"
      data-testid="transcript-proposal"
    >
      <h2 id="transcript-proposal" className="font-medium text-amber-950">
        {MESSAGES.proposalHeading}
      </h2>
      <div className="grid gap-3 sm:grid-cols-2">
        {[
          { label: MESSAGES.yourTranscript, text: memory.transcript },
          { label: MESSAGES.newTranscription, text: proposed },
        ].map(({ label, text }) => (
          <figure key={label} className="space-y-1 rounded border border-amber-200 bg-white p-3">
            <figcaption className="text-sm font-medium text-stone-700">{label}</figcaption>
            <p className="whitespace-pre-wrap text-stone-900">{text}</p>
          </figure>
        ))}
      </div>
      <div className="flex flex-wrap gap-3">
        <Button
          variant="outline"
          size="sm"
          className="min-h-11"
          disabled={pending}
          onClick={() => void choose(false)}
        >
          {MESSAGES.keepMine}
        </Button>
        <Button
          size="sm"
          className="min-h-11"
          title={MESSAGES.useNewTranscriptionHint}
          disabled={pending || memory.status === "processing"}
          onClick={() => void choose(true)}
        >
          {MESSAGES.useNewTranscription}
        </Button>
      </div>
    </section>
  );
}
