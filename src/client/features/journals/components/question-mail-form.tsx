import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { RECORDING_LINK_MESSAGES } from "../../../../shared/journals";
import { type QuestionMailSettings, questionMailSettingsSchema } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { toast } from "../../../components/ui/use-toast";
import { WeeklyTimeFields } from "../../../components/weekly-time-fields";
import { errorMessage, getJson, requestJson } from "../../../lib/api-client";
import { browserTimeZone } from "../../../lib/browser-time-zone";

const path = (journalId: string) => `/api/journals/${encodeURIComponent(journalId)}/question-mail`;
const keys = { settings: (journalId: string) => ["journals", journalId, "question-mail"] as const };

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
  const titleId = useId();
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
      aria-labelledby={titleId}
      onSubmit={(event) => {
        event.preventDefault();
        // The browser's own time zone: the one an organizer means when they pick an hour.
        save.mutate({ ...form, timeZone: browserTimeZone() });
      }}
    >
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        {RECORDING_LINK_MESSAGES.mailTitle}
      </h2>
      <p className="text-sm text-slate-700">{RECORDING_LINK_MESSAGES.mailNote}</p>
      <WeeklyTimeFields
        value={form}
        onChange={(change) => setForm({ ...form, ...change })}
        labels={{
          enabled: RECORDING_LINK_MESSAGES.mailEnabled,
          weekday: RECORDING_LINK_MESSAGES.mailDay,
          hour: RECORDING_LINK_MESSAGES.mailHour,
        }}
      />
      <Button type="submit" className="min-h-11" disabled={save.isPending}>
        {RECORDING_LINK_MESSAGES.mailSave}
      </Button>
    </form>
  );
}
