import {
  JOURNAL_MESSAGES,
  JOURNAL_ROLES,
  ROLE_DESCRIPTIONS,
  ROLE_LABELS,
} from "../../../../shared/journals";

/** What each role may do, in the product's words, for everyone in the journal. */
export function RoleDescriptions() {
  return (
    <section aria-labelledby="role-descriptions" className="space-y-2">
      <h2 id="role-descriptions" className="text-lg font-semibold text-slate-900">
        {JOURNAL_MESSAGES.rolesTitle}
      </h2>
      <dl className="grid gap-2 text-sm">
        {JOURNAL_ROLES.map((role) => (
          <div key={role}>
            <dt className="font-medium text-slate-900">{ROLE_LABELS[role]}</dt>
            <dd className="text-slate-700">{ROLE_DESCRIPTIONS[role]}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
