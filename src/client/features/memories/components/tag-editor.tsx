import { Plus, X } from "lucide-react";
import { type KeyboardEvent, useId, useState } from "react";
import { MAX_TAGS } from "../../../../shared/constants";
import { formatMessage } from "../../../../shared/i18n/format";
import { MESSAGES, tagsUsedLabel } from "../../../../shared/messages";
import { addTag } from "../../../../shared/rules";
import { Button } from "../../../components/ui/button";
import { Input } from "../../../components/ui/input";
import { toast } from "../../../components/ui/use-toast";

/**
 * Tags with remove buttons, an add input and the 'n/5 tags used' counter (spec 2 and 5): Enter
 * adds without submitting a surrounding form; input and add button are disabled at 5 tags and the
 * add button while the input is empty; an exact duplicate or a sixth tag gets its toast.
 */
export function TagEditor({
  tags,
  onChange,
  disabled = false,
  inputId,
}: {
  tags: string[];
  /** Called with the new list; may return a promise (the input clears once it resolves). */
  onChange: (tags: string[], change: { added?: string; removed?: string }) => unknown;
  disabled?: boolean;
  inputId?: string;
}) {
  const [input, setInput] = useState("");
  const full = tags.length >= MAX_TAGS;
  const limitId = useId();

  const add = async () => {
    const result = addTag(tags, input);
    if (!result.ok) {
      if (result.reason === "max") {
        toast({
          title: MESSAGES.maxTagsReached,
          description: MESSAGES.maxTagsReachedDescription,
          variant: "destructive",
        });
      } else if (result.reason === "duplicate") {
        toast({
          title: MESSAGES.duplicateTag,
          description: MESSAGES.duplicateTagDescription,
          variant: "destructive",
        });
      }
      return;
    }
    const ok = await onChange(result.tags, { added: input.trim() });
    if (ok !== false) setInput("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      void add();
    }
  };

  return (
    <div className="space-y-2">
      <ul className="flex flex-wrap gap-2" aria-label={MESSAGES.tags}>
        {tags.map((tag) => (
          <li key={tag}>
            {/* A 44 px chip whose remove button is a 44 px target, for a thumb. */}
            <span className="inline-flex h-11 items-center rounded-full bg-brand-100 ps-3 text-sm font-medium text-brand-800">
              {tag}
              <button
                type="button"
                className="inline-flex h-11 w-11 items-center justify-center rounded-full hover:bg-brand-50 disabled:opacity-50"
                aria-label={formatMessage(MESSAGES.removeTagNamed, { tag })}
                disabled={disabled}
                onClick={() =>
                  void onChange(
                    tags.filter((t) => t !== tag),
                    { removed: tag },
                  )
                }
              >
                <X className="h-4 w-4" aria-hidden="true" />
              </button>
            </span>
          </li>
        ))}
      </ul>
      <div className="flex gap-2">
        <Input
          id={inputId}
          value={input}
          placeholder={MESSAGES.addATag}
          aria-label={MESSAGES.newTag}
          disabled={disabled || full}
          aria-describedby={full ? limitId : undefined}
          onChange={(event) => setInput(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <Button
          variant="outline"
          size="icon"
          aria-label={MESSAGES.addTag}
          disabled={disabled || full || input.trim() === ""}
          onClick={() => void add()}
        >
          <Plus className="h-4 w-4" aria-hidden="true" />
        </Button>
      </div>
      <p className="text-xs text-slate-700">{tagsUsedLabel(tags.length, MAX_TAGS)}</p>
      {full ? (
        // The input is disabled at the limit (spec 2), so the toast's reason is shown here instead.
        <p id={limitId} className="text-xs text-slate-700">
          {MESSAGES.maxTagsReachedDescription}
        </p>
      ) : null}
    </div>
  );
}
