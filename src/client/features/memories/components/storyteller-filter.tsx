import { JOURNAL_MESSAGES } from "../../../../shared/journals";
import type { Member } from "../../../../shared/schemas";
import { SelectField } from "../../../components/ui/select-field";

/** Narrows a journal's list to one storyteller's stories, or shows everyone's. */
export function StorytellerFilter({
  tellers,
  value,
  onChange,
}: {
  /** The members who may tell stories. */
  tellers: readonly Member[];
  value: string;
  onChange: (memberId: string) => void;
}) {
  return (
    <div className="max-w-xs">
      <SelectField label={JOURNAL_MESSAGES.storytellerFilter} value={value} onChange={onChange}>
        <option value="">{JOURNAL_MESSAGES.allStorytellers}</option>
        {tellers.map((member) => (
          <option key={member.id} value={member.id}>
            {member.name}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
