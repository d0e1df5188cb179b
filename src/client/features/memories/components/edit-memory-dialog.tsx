import { type FormEvent, useState } from "react";
import { MESSAGES } from "../../../../shared/messages";
import { questionInPageLanguage } from "../../../../shared/questions";
import type { Memory } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogContent, DialogTitle } from "../../../components/ui/dialog";
import { Input, Textarea } from "../../../components/ui/input";
import { toast, toastError } from "../../../components/ui/use-toast";

import { useUpdateMemory } from "../api/update-memory";
import { useRegenerate } from "../processing/use-regenerate";
import { isoToLocalInput, localInputToIso } from "../utils/date-time";
import { TagEditor } from "./tag-editor";

/** Spec 2's Edit Memory dialog: a full-screen overlay with Cancel, a close icon and Save Changes. */
export function EditMemoryDialog({
  memory,
  open,
  onOpenChange,
}: {
  memory: Memory;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent fullScreen aria-describedby={undefined}>
          <EditMemoryForm memory={memory} onDone={() => onOpenChange(false)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function EditMemoryForm({ memory, onDone }: { memory: Memory; onDone: () => void }) {
  const update = useUpdateMemory();
  const shownDate = isoToLocalInput(memory.recordedAt);
  const [title, setTitle] = useState(memory.title);
  const [transcript, setTranscript] = useState(memory.transcript);
  const [summary, setSummary] = useState(memory.summary);
  const [recordedAt, setRecordedAt] = useState(shownDate);
  const [tags, setTags] = useState(memory.tags);
  // The question it answers stays until the owner removes it (and saves).
  const [removeQuestion, setRemoveQuestion] = useState(false);
  const regeneration = useRegenerate(memory.id);
  const busy = update.isPending || regeneration.pending;

  /** Saves the form; true when it was saved. */
  const save = async (announce: boolean): Promise<boolean> => {
    // An untouched date keeps its exact instant; a changed one is read as local time.
    const iso = recordedAt === shownDate ? memory.recordedAt : localInputToIso(recordedAt);
    try {
      await update.mutateAsync({
        id: memory.id,
        body: {
          title,
          transcript,
          summary,
          recordedAt: iso ?? memory.recordedAt,
          tags,
          ...(removeQuestion ? { question: null } : {}),
        },
      });
      if (announce) toast({ title: MESSAGES.memoryUpdated });
      return true;
    } catch (error) {
      toastError(MESSAGES.failedUpdateMemory, error);
      return false;
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (await save(true)) onDone();
  };

  // The corrected transcript is saved first, then the rest is made again from it; the dialog
  // shows each step's notice and closes when it is done ('Memory updated!' or why it failed).
  const saveAndRegenerate = async () => {
    if (!(await save(false))) return;
    await regeneration.regenerate();
    onDone();
  };

  const field = (id: string) => `edit-memory-${id}`;
  return (
    <form onSubmit={onSubmit} className="mx-auto flex max-w-2xl flex-col gap-4 pt-6">
      <DialogTitle>{MESSAGES.editMemory}</DialogTitle>
      <div className="space-y-1">
        <label htmlFor={field("title")} className="text-sm font-medium">
          {MESSAGES.title}
        </label>
        <Input
          id={field("title")}
          dir="auto"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
        />
      </div>
      {memory.question ? (
        <div className="space-y-2" data-testid="edit-memory-question">
          {removeQuestion ? (
            <p className="text-sm text-slate-700">{MESSAGES.questionWillBeRemoved}</p>
          ) : (
            <p className="text-slate-700">
              <span className="font-medium text-slate-900">{MESSAGES.answering} </span>
              {questionInPageLanguage(memory.question)}
            </p>
          )}
          <Button
            variant="outline"
            className="min-h-11"
            onClick={() => setRemoveQuestion((removing) => !removing)}
          >
            {removeQuestion ? MESSAGES.keepQuestion : MESSAGES.removeQuestion}
          </Button>
        </div>
      ) : null}
      <div className="space-y-1">
        <label htmlFor={field("transcript")} className="text-sm font-medium">
          {MESSAGES.transcript}
        </label>
        <Textarea
          id={field("transcript")}
          dir="auto"
          rows={6}
          value={transcript}
          onChange={(e) => setTranscript(e.target.value)}
        />
      </div>
      <div className="space-y-1">
        <label htmlFor={field("summary")} className="text-sm font-medium">
          {MESSAGES.summary}
        </label>
        <Textarea
          id={field("summary")}
          dir="auto"
          rows={4}
          value={summary}
          onChange={(e) => setSummary(e.target.value)}
        />
      </div>
      <div className="space-y-1">
        <label htmlFor={field("date")} className="text-sm font-medium">
          {MESSAGES.dateRecorded}
        </label>
        <Input
          id={field("date")}
          type="datetime-local"
          step={60}
          value={recordedAt}
          onChange={(e) => setRecordedAt(e.target.value)}
        />
      </div>
      <div className="space-y-1">
        <label htmlFor={field("tags")} className="text-sm font-medium">
          {MESSAGES.tags}
        </label>
        <TagEditor inputId={field("tags")} tags={tags} onChange={(next) => setTags(next)} />
      </div>
      <p role="status" className="min-h-5 text-sm text-stone-700">
        {regeneration.notice}
      </p>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onDone} disabled={regeneration.pending}>
          {MESSAGES.cancel}
        </Button>
        <Button
          variant="outline"
          title={MESSAGES.regenerateHint}
          disabled={busy || !transcript.trim()}
          onClick={() => void saveAndRegenerate()}
        >
          {MESSAGES.saveAndRegenerate}
        </Button>
        <Button type="submit" disabled={busy}>
          {MESSAGES.saveChanges}
        </Button>
      </div>
    </form>
  );
}
