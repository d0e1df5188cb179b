import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { weekdayNames } from "../../../../shared/dates";
import { RECORDING_LINK_MESSAGES } from "../../../../shared/journals";
import { type QuestionMailSettings, questionMailSettingsSchema } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { SelectField } from "../../../components/ui/select-field";
import { toast } from "../../../components/ui/use-toast";
import { errorMessage, getJson, requestJson } from "../../../lib/api-client";

const HOURS = Array.from({ length: 24 }, (_, hour) => `${String(hour).padStart(2, "0")}:00`);
const path = (journalId: string) => `/api/journals/${encodeURIComponent(journalId)}/question-mail`;
const keys = { settings: (journalId: string) => ["journals", journalId, "question-mail"] as const };

/** The browser's own time zone: the one an organizer means when they pick an hour. */
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/**
 * Organizers choose the day and hour the journal's storytellers get the weekly question by mail
 * (ADR 0064), in the organizer's time zone (a storyteller with reminders gets it in their own).
 */
export function QuestionMailForm({ journalId }: { journalId: string }) {
  const { data } = useQuery({
    queryKey: keys.settings(journalId),
    queryFn: () => getJson(path(journalId), questionMailSettingsSchema),
  });
  return data ? <Form journalId={journalId} initial={data} /> : null;
}

function Form({ journalId, initial }: { journalId: string; initial: QuestionMailSettings }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState(initial);
  const enabledId = useId();
  const save = useMutation({
    mutationFn: (body: QuestionMailSettings) =>
      requestJson("PUT", path(journalId), questionMailSettingsSchema, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(keys.settings(journalId), saved);
      toast({ title: RECORDING_LINK_MESSAGES.mailSaved });
    },
    onError: (error) =>
      toast({
        title: RECORDING_LINK_MESSAGES.failed,
        description: errorMessage(error),
        variant: "destructive",
      }),
  });
  return (
    <form
      className="space-y-4"
      aria-labelledby={`${enabledId}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ ...form, timeZone: browserZone() });
      }}
    >
      <h2 id={`${enabledId}-title`} className="text-lg font-semibold text-slate-900">
        {RECORDING_LINK_MESSAGES.mailTitle}
      </h2>
      <p className="text-sm text-slate-700">{RECORDING_LINK_MESSAGES.mailNote}</p>
      <div className="flex min-h-11 items-center gap-3">
        <input
          id={enabledId}
          type="checkbox"
          className="h-5 w-5 accent-brand-700"
          checked={form.enabled}
          onChange={(event) => setForm({ ...form, enabled: event.target.checked })}
        />
        <label htmlFor={enabledId} className="text-sm font-medium text-slate-900">
          {RECORDING_LINK_MESSAGES.mailEnabled}
        </label>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label={RECORDING_LINK_MESSAGES.mailDay}
          value={String(form.weekday)}
          onChange={(value) => setForm({ ...form, weekday: Number(value) })}
        >
          {weekdayNames().map((name, index) => (
            <option key={name} value={index}>
              {name}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={RECORDING_LINK_MESSAGES.mailHour}
          value={String(form.hour)}
          onChange={(value) => setForm({ ...form, hour: Number(value) })}
        >
          {HOURS.map((text, hour) => (
            <option key={text} value={hour}>
              {text}
            </option>
          ))}
        </SelectField>
      </div>
      <Button type="submit" className="min-h-11" disabled={save.isPending}>
        {RECORDING_LINK_MESSAGES.mailSave}
      </Button>
    </form>
  );
}
