import { type ReactNode, useId } from "react";
import { weekdayNames } from "../../shared/dates";
import { cn } from "../lib/cn";
import { SelectField } from "./ui/select-field";

const HOURS = Array.from({ length: 24 }, (_, hour) => `${String(hour).padStart(2, "0")}:00`);

/** When a weekly mail comes: whether it does, the day (0 is Sunday) and the hour. */
export interface WeeklyTime {
  enabled: boolean;
  weekday: number;
  hour: number;
}

/**
 * A weekly mail's switch, day and hour, as the reminders and the family's weekly question both ask
 * them; `children` stand beside day and hour (the reminders' time zone).
 */
export function WeeklyTimeFields({
  value,
  onChange,
  labels,
  children,
}: {
  value: WeeklyTime;
  onChange: (change: Partial<WeeklyTime>) => void;
  labels: { enabled: string; weekday: string; hour: string };
  children?: ReactNode;
}) {
  const enabledId = useId();
  return (
    <>
      <div className="flex min-h-11 items-center gap-3">
        <input
          id={enabledId}
          type="checkbox"
          className="h-5 w-5 accent-brand-700"
          checked={value.enabled}
          onChange={(event) => onChange({ enabled: event.target.checked })}
        />
        <label htmlFor={enabledId} className="text-sm font-medium text-slate-900">
          {labels.enabled}
        </label>
      </div>
      <div className={cn("grid gap-4", children ? "sm:grid-cols-3" : "sm:grid-cols-2")}>
        <SelectField
          label={labels.weekday}
          value={String(value.weekday)}
          onChange={(weekday) => onChange({ weekday: Number(weekday) })}
        >
          {weekdayNames().map((name, index) => (
            <option key={name} value={index}>
              {name}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={labels.hour}
          value={String(value.hour)}
          onChange={(hour) => onChange({ hour: Number(hour) })}
        >
          {HOURS.map((text, hour) => (
            <option key={text} value={hour}>
              {text}
            </option>
          ))}
        </SelectField>
        {children}
      </div>
    </>
  );
}
