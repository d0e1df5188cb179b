import { Plus, Trash2 } from "lucide-react";
import { type FormEvent, useId, useMemo, useState } from "react";
import { monthNames } from "../../../../shared/dates";
import { formatMessage } from "../../../../shared/i18n/format";
import { REMINDER_MESSAGES } from "../../../../shared/reminder-messages";
import {
  MAX_SPECIAL_DAYS,
  type ReminderSettings,
  type ReminderSettingsBody,
  SPECIAL_DAY_LABEL_MAX_LENGTH,
} from "../../../../shared/reminders";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { Input } from "../../../components/ui/input";
import { SelectField } from "../../../components/ui/select-field";
import { Spinner } from "../../../components/ui/spinner";
import { toast, toastError } from "../../../components/ui/use-toast";
import { WeeklyTimeFields } from "../../../components/weekly-time-fields";
import { errorMessage } from "../../../lib/api-client";
import { browserTimeZone } from "../../../lib/browser-time-zone";
import { useReminders, useSaveReminders } from "../api/reminders";
import { TimeZoneList } from "../time-zones";

const MONTHS = monthNames();

/** Every zone the browser knows, labelled and grouped once per page. */
const TIME_ZONES = new TimeZoneList(browserTimeZone);

/** The account page's reminder settings: weekly mail on/off, day, hour, time zone, special days. */
export function RemindersSection() {
  const reminders = useReminders();
  return (
    <Card>
      <section aria-labelledby="account-reminders" className="space-y-4">
        <h2 id="account-reminders" className="text-lg font-semibold text-slate-900">
          {REMINDER_MESSAGES.sectionTitle}
        </h2>
        {reminders.data ? (
          <RemindersForm settings={reminders.data} />
        ) : reminders.isError ? (
          <p className="text-red-700">{errorMessage(reminders.error)}</p>
        ) : (
          <Spinner />
        )}
      </section>
    </Card>
  );
}

function RemindersForm({ settings }: { settings: ReminderSettings }) {
  const save = useSaveReminders();
  const [form, setForm] = useState<ReminderSettingsBody>(() => ({
    weekly: {
      ...settings.weekly,
      // Never saved: the time zone this browser is in.
      timeZone: settings.saved ? settings.weekly.timeZone : browserTimeZone(),
    },
    specialDays: settings.specialDays,
  }));
  const zoneGroups = useMemo(
    () => TIME_ZONES.groupsWith(form.weekly.timeZone),
    [form.weekly.timeZone],
  );

  const setWeekly = (change: Partial<ReminderSettingsBody["weekly"]>) =>
    setForm((f) => ({ ...f, weekly: { ...f.weekly, ...change } }));
  const setDay = (index: number, change: Partial<ReminderSettingsBody["specialDays"][number]>) =>
    setForm((f) => ({
      ...f,
      specialDays: f.specialDays.map((day, i) => (i === index ? { ...day, ...change } : day)),
    }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(form, {
      onSuccess: () => toast({ title: REMINDER_MESSAGES.saved }),
      onError: (error) => toastError(REMINDER_MESSAGES.notSaved, error),
    });
  };

  return (
    <form className="grid gap-4" onSubmit={onSubmit} noValidate>
      {!settings.hasEmail ? (
        <p className="text-sm text-slate-700">{REMINDER_MESSAGES.noEmail}</p>
      ) : null}
      {settings.unsubscribedAt ? (
        <p className="text-sm text-slate-700">{REMINDER_MESSAGES.unsubscribed}</p>
      ) : null}
      <WeeklyTimeFields
        value={form.weekly}
        onChange={setWeekly}
        labels={{
          enabled: REMINDER_MESSAGES.weeklyLabel,
          weekday: REMINDER_MESSAGES.weekdayLabel,
          hour: REMINDER_MESSAGES.hourLabel,
        }}
      >
        <SelectField
          label={REMINDER_MESSAGES.timeZoneLabel}
          value={form.weekly.timeZone}
          onChange={(value) => setWeekly({ timeZone: value })}
        >
          {zoneGroups.map((group) => (
            <optgroup key={group.label} label={group.label}>
              {group.options.map((zone) => (
                <option key={zone.value} value={zone.value}>
                  {zone.label}
                </option>
              ))}
            </optgroup>
          ))}
        </SelectField>
      </WeeklyTimeFields>
      <p className="text-sm text-slate-700">{REMINDER_MESSAGES.specialDaysHint}</p>
      <fieldset className="grid gap-3">
        <legend className="text-base font-semibold text-slate-900">
          {REMINDER_MESSAGES.specialDaysTitle}
        </legend>
        {form.specialDays.map((day, index) => (
          <SpecialDayRow
            // Rows have no id of their own; the index is stable until one is removed.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            key={index}
            day={day}
            onChange={(change) => setDay(index, change)}
            onRemove={() =>
              setForm((f) => ({ ...f, specialDays: f.specialDays.filter((_, i) => i !== index) }))
            }
          />
        ))}
        {form.specialDays.length < MAX_SPECIAL_DAYS ? (
          <div>
            <Button
              type="button"
              variant="outline"
              onClick={() =>
                setForm((f) => ({
                  ...f,
                  specialDays: [...f.specialDays, { label: "", month: 1, day: 1 }],
                }))
              }
            >
              <Plus className="me-2 h-4 w-4" aria-hidden="true" />
              {REMINDER_MESSAGES.addSpecialDay}
            </Button>
          </div>
        ) : null}
      </fieldset>
      <div>
        <Button type="submit" disabled={save.isPending}>
          {REMINDER_MESSAGES.save}
        </Button>
      </div>
    </form>
  );
}

function SpecialDayRow({
  day,
  onChange,
  onRemove,
}: {
  day: ReminderSettingsBody["specialDays"][number];
  onChange: (change: Partial<ReminderSettingsBody["specialDays"][number]>) => void;
  onRemove: () => void;
}) {
  const labelId = useId();
  const dayId = useId();
  return (
    <div
      className="grid items-end gap-3 sm:grid-cols-[2fr_1.3fr_0.8fr_auto]"
      data-testid="special-day"
    >
      <div className="grid gap-1">
        <label htmlFor={labelId} className="text-sm font-medium text-slate-900">
          {REMINDER_MESSAGES.specialDayLabel}
        </label>
        <Input
          id={labelId}
          value={day.label}
          maxLength={SPECIAL_DAY_LABEL_MAX_LENGTH}
          placeholder={REMINDER_MESSAGES.specialDayPlaceholder}
          onChange={(event) => onChange({ label: event.target.value })}
        />
      </div>
      <SelectField
        label={REMINDER_MESSAGES.specialDayMonth}
        value={String(day.month)}
        onChange={(value) => onChange({ month: Number(value) })}
      >
        {MONTHS.map((name, index) => (
          <option key={name} value={index + 1}>
            {name}
          </option>
        ))}
      </SelectField>
      <div className="grid gap-1">
        <label htmlFor={dayId} className="text-sm font-medium text-slate-900">
          {REMINDER_MESSAGES.specialDayDay}
        </label>
        <Input
          id={dayId}
          type="number"
          min={1}
          max={31}
          inputMode="numeric"
          value={day.day}
          onChange={(event) => onChange({ day: Number(event.target.value) })}
        />
      </div>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        aria-label={
          day.label
            ? formatMessage(REMINDER_MESSAGES.removeSpecialDayNamed, { label: day.label })
            : REMINDER_MESSAGES.removeSpecialDayUnnamed
        }
        onClick={onRemove}
      >
        <Trash2 className="h-5 w-5 text-red-700" aria-hidden="true" />
      </Button>
    </div>
  );
}
