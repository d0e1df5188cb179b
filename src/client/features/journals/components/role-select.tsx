import { JOURNAL_ROLES, type JournalRole, ROLE_LABELS } from "../../../../shared/journals";
import { SelectField } from "../../../components/ui/select-field";

/** Picks one of the journal's roles; `hint` says what it may do. */
export function RoleSelect({
  label,
  value,
  onChange,
  hint,
  hideLabel,
  disabled,
}: {
  label: string;
  value: JournalRole;
  onChange: (role: JournalRole) => void;
  hint?: string;
  hideLabel?: boolean;
  disabled?: boolean;
}) {
  return (
    <SelectField
      label={label}
      value={value}
      onChange={(next) => onChange(next as JournalRole)}
      hint={hint}
      hideLabel={hideLabel}
      disabled={disabled}
    >
      {JOURNAL_ROLES.map((role) => (
        <option key={role} value={role}>
          {ROLE_LABELS[role]}
        </option>
      ))}
    </SelectField>
  );
}
