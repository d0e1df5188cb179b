import type { SpecialDay } from "../../shared/reminders";

/** A moment as the clock on the wall shows it in one time zone. */
export interface LocalTime {
  /** YYYY-MM-DD */
  date: string;
  year: number;
  month: number;
  day: number;
  /** 0 (Sunday) to 6. */
  weekday: number;
  hour: number;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      hourCycle: "h23",
      weekday: "short",
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** `instant` on the wall clock of `timeZone` (an IANA name); Intl applies daylight-saving time. */
export function localTime(instant: Date, timeZone: string): LocalTime {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  const year = Number(parts.year);
  const month = Number(parts.month);
  const day = Number(parts.day);
  return {
    date: `${String(year).padStart(4, "0")}-${parts.month}-${parts.day}`,
    year,
    month,
    day,
    weekday: WEEKDAYS.indexOf(parts.weekday ?? ""),
    hour: Number(parts.hour) % 24,
  };
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Whether a special day falls on `local`'s date (29 February is kept on 28 February in other years). */
export function isSpecialDayOn(day: Pick<SpecialDay, "month" | "day">, local: LocalTime): boolean {
  if (day.month === local.month && day.day === local.day) return true;
  return (
    day.month === 2 &&
    day.day === 29 &&
    !isLeapYear(local.year) &&
    local.month === 2 &&
    local.day === 28
  );
}

/** One user's reminder settings as the schedule reads them. */
export interface ScheduleSettings {
  weeklyEnabled: boolean;
  weekday: number;
  hour: number;
  timeZone: string;
  specialDays: readonly SpecialDay[];
  /** When the settings were last saved: an hour that had passed then is not sent for that day. */
  updatedAt: Date;
}

/** A reminder due now: its occurrence key parts and, for a special day, which one. */
export interface DueReminder {
  kind: string;
  date: string;
  specialDay: SpecialDay | null;
}

/**
 * The reminders due at `now` (docs/adr/0020): on the user's local day, once the local hour has come.
 * An hour that passed while no server ran is still due until that local day ends; an hour that was
 * already over when the settings were saved is not (saving at 15:00 sends nothing for 09:00 that
 * day; saving at 09:30 for 09:00 does send).
 * In a daylight-saving gap the reminder comes at the first hour after; in a repeated hour, at the
 * first (the occurrence key stops the second).
 */
export function dueReminders(settings: ScheduleSettings, now: Date): DueReminder[] {
  const local = localTime(now, settings.timeZone);
  if (local.hour < settings.hour) return [];
  const saved = localTime(settings.updatedAt, settings.timeZone);
  const hourKey = (date: string, hour: number) => `${date} ${String(hour).padStart(2, "0")}`;
  if (hourKey(saved.date, saved.hour) > hourKey(local.date, settings.hour)) return [];

  const due: DueReminder[] = [];
  if (settings.weeklyEnabled && local.weekday === settings.weekday) {
    due.push({ kind: "weekly", date: local.date, specialDay: null });
  }
  for (const day of settings.specialDays) {
    if (isSpecialDayOn(day, local)) {
      due.push({ kind: `special:${day.label}`, date: local.date, specialDay: day });
    }
  }
  return due;
}
