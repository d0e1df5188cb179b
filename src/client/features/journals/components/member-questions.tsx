import { ArrowDown, ArrowUp } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { formatMessage } from "../../../../shared/i18n/format";
import { FAMILY_QUESTION_MESSAGES } from "../../../../shared/journals";
import type { Member } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { FormAlert } from "../../../components/ui/form-alert";
import { TextField } from "../../../components/ui/text-field";
import { toast, toastError } from "../../../components/ui/use-toast";
import { useCan } from "../../auth/api/use-can";
import {
  useAskQuestion,
  useFamilyQuestions,
  useMoveQuestion,
  useRemoveQuestion,
} from "../api/family-questions";

/**
 * The questions the family asked one storyteller: waiting ones first. Organizers and relatives ask
 * (the storyteller's page asks the oldest one waiting); an organizer removes one.
 */
export function MemberQuestions({
  journalId,
  member,
  manages,
}: {
  journalId: string;
  member: Member;
  manages: boolean;
}) {
  const can = useCan();
  const mayAsk = can("journal.ask", { id: journalId });
  const questions = useFamilyQuestions(journalId, member.id);
  const ask = useAskQuestion(journalId, member.id);
  const remove = useRemoveQuestion(journalId, member.id);
  const move = useMoveQuestion(journalId, member.id);
  const moveTo = (questionId: string, position: number) =>
    move.mutate(
      { questionId, position },
      { onError: (error) => toastError(FAMILY_QUESTION_MESSAGES.moveFailed, error) },
    );
  const [text, setText] = useState("");
  const titleId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    ask.mutate(text.trim(), {
      onSuccess: () => {
        setText("");
        toast({ title: formatMessage(FAMILY_QUESTION_MESSAGES.asked, { name: member.name }) });
      },
    });
  };
  const list = questions.data ?? [];
  // The waiting ones come first, in the order they will be asked.
  const waiting = list.filter((question) => !question.memoryId).length;
  return (
    <section aria-labelledby={titleId} className="w-full space-y-2">
      <h3 id={titleId} className="text-sm font-semibold text-slate-900">
        {formatMessage(FAMILY_QUESTION_MESSAGES.title, { name: member.name })}
      </h3>
      {list.length === 0 && !questions.isLoading ? (
        <p className="text-sm text-slate-700">{FAMILY_QUESTION_MESSAGES.none}</p>
      ) : (
        <ul className="space-y-1">
          {list.map((question, index) => (
            <li key={question.id} className="flex flex-wrap items-center gap-2 text-sm">
              <span className="text-slate-900">
                {formatMessage(FAMILY_QUESTION_MESSAGES.asks, { name: question.askedBy })}{" "}
                {question.text}
              </span>
              <span className="text-slate-700">
                {question.memoryId
                  ? FAMILY_QUESTION_MESSAGES.answered
                  : FAMILY_QUESTION_MESSAGES.waiting}
              </span>
              {manages && !question.memoryId ? (
                <>
                  <Button
                    variant="outline"
                    size="lg"
                    aria-label={formatMessage(FAMILY_QUESTION_MESSAGES.moveUpNamed, {
                      question: question.text,
                    })}
                    disabled={move.isPending || index === 0}
                    onClick={() => moveTo(question.id, index - 1)}
                  >
                    <ArrowUp className="h-4 w-4" aria-hidden="true" />
                  </Button>
                  <Button
                    variant="outline"
                    size="lg"
                    aria-label={formatMessage(FAMILY_QUESTION_MESSAGES.moveDownNamed, {
                      question: question.text,
                    })}
                    disabled={move.isPending || index >= waiting - 1}
                    onClick={() => moveTo(question.id, index + 1)}
                  >
                    <ArrowDown className="h-4 w-4" aria-hidden="true" />
                  </Button>
                </>
              ) : null}
              {manages && !question.memoryId ? (
                <Button
                  variant="outline"
                  size="lg"
                  aria-label={formatMessage(FAMILY_QUESTION_MESSAGES.removeNamed, {
                    question: question.text,
                  })}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(question.id)}
                >
                  {FAMILY_QUESTION_MESSAGES.remove}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {mayAsk && member.role !== "relative" ? (
        <form className="flex flex-wrap items-end gap-2" onSubmit={submit} noValidate>
          <div className="min-w-0 flex-1">
            <TextField
              label={formatMessage(FAMILY_QUESTION_MESSAGES.label, { name: member.name })}
              value={text}
              maxLength={300}
              onChange={(event) => setText(event.target.value)}
            />
          </div>
          <Button type="submit" size="lg" disabled={ask.isPending || !text.trim()}>
            {FAMILY_QUESTION_MESSAGES.submit}
          </Button>
          <FormAlert title={FAMILY_QUESTION_MESSAGES.askFailed} error={ask.error} />
        </form>
      ) : null}
    </section>
  );
}
