import { useState } from "react";
import { TAG_MAX_LENGTH } from "../../../../shared/constants";
import { formatMessage } from "../../../../shared/i18n/format";
import { MEMORY_BOOK, MESSAGES } from "../../../../shared/messages";
import {
  BOOK_PAPER_SIZES,
  DEFAULT_BOOK_PAPER,
  type MemoryBookQuery,
  memoryBookFormSchema,
} from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../../../components/ui/dialog";
import { Notice } from "../../../components/ui/notice";
import { TextField } from "../../../components/ui/text-field";
import { toast } from "../../../components/ui/use-toast";
import { errorMessage } from "../../../lib/api-client";
import { useLoopbackLinkBase } from "../../../lib/app-info";
import { useForm } from "../../../lib/use-form";
import { useJournalParam } from "../../journals/open-journal";
import { downloadMemoryBook } from "../api/memory-book";

/** The printable memory book: optional recorded dates and tag, the paper, then the PDF download. */
export function MemoryBookDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [preparing, setPreparing] = useState(false);
  const journal = useJournalParam();
  // Codes on a loopback address open nothing from a phone: the first press asks first.
  const loopback = useLoopbackLinkBase();
  const [asked, setAsked] = useState(false);
  const download = async (filter: MemoryBookQuery) => {
    if (preparing) return;
    setPreparing(true);
    try {
      await downloadMemoryBook(journal ? { ...filter, journal } : filter);
      toast({ title: MEMORY_BOOK.ready });
      onOpenChange(false);
    } catch (error) {
      toast({
        title: MEMORY_BOOK.failed,
        // downloadFile throws an Error carrying the server's message (its check failed).
        description: errorMessage(error),
        variant: "destructive",
      });
    } finally {
      setPreparing(false);
    }
  };

  // The dates are checked as they are typed: 'To' before 'From' shows at once.
  const form = useForm(
    memoryBookFormSchema,
    { from: "", to: "", tag: "", paper: DEFAULT_BOOK_PAPER },
    (filter) => {
      if (loopback && !asked) setAsked(true);
      else void download(filter);
    },
    { asTyped: true },
  );

  const paper = form.field("paper");

  return (
    <Dialog open={open} onOpenChange={(next) => (preparing ? undefined : onOpenChange(next))}>
      <DialogContent>
        <form onSubmit={form.onSubmit} className="space-y-4">
          <DialogTitle>{MEMORY_BOOK.button}</DialogTitle>
          <DialogDescription>{MEMORY_BOOK.dialogDescription}</DialogDescription>
          <p className="text-sm text-slate-700">{MEMORY_BOOK.shareLinkNote}</p>
          {loopback ? (
            <Notice testId="loopback-warning">
              {formatMessage(MEMORY_BOOK.loopbackWarning, { base: loopback })}
              {asked ? (
                <>
                  {" "}
                  <strong>{MEMORY_BOOK.loopbackConfirm}</strong>
                </>
              ) : null}
            </Notice>
          ) : null}
          <div className="grid grid-cols-2 gap-3">
            <TextField
              label={MEMORY_BOOK.from}
              type="date"
              {...form.field("from")}
              disabled={preparing}
            />
            <TextField
              label={MEMORY_BOOK.to}
              type="date"
              {...form.field("to")}
              disabled={preparing}
            />
          </div>
          <TextField
            label={MEMORY_BOOK.tag}
            {...form.field("tag")}
            maxLength={TAG_MAX_LENGTH}
            autoComplete="off"
            disabled={preparing}
          />
          <fieldset className="grid gap-1" disabled={preparing}>
            <legend className="text-sm font-medium text-slate-900">{MEMORY_BOOK.paper}</legend>
            <div className="flex flex-wrap gap-x-6 gap-y-1">
              {BOOK_PAPER_SIZES.map((size) => (
                <label key={size} className="flex items-center gap-2 text-sm text-slate-900">
                  <input
                    type="radio"
                    name={paper.name}
                    value={size}
                    checked={paper.value === size}
                    onChange={paper.onChange}
                  />
                  {MEMORY_BOOK.paperSizes[size]}
                </label>
              ))}
            </div>
          </fieldset>
          <p role="status" className="min-h-5 text-sm text-slate-700">
            {preparing ? MEMORY_BOOK.preparing : null}
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={preparing}>
              {MESSAGES.cancel}
            </Button>
            <Button type="submit" disabled={preparing || Boolean(form.errors.to)}>
              {loopback && asked ? MEMORY_BOOK.createAnyway : MEMORY_BOOK.create}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
