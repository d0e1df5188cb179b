import { currentLanguage, intlLocale } from "./i18n/languages";

/**
 * Every date a family reads, written by this one function through Intl (ADR 0054): the browser's
 * memories, comments, uploads waiting and share links; the memory book and its links' labels; the
 * reminders' month names. One formatter per language, style and time zone, made once and reused.
 */
export type DateStyle =
  /** "June 1, 2024 at 2:31 PM" */
  | "dateTime"
  /** "June 1, 2024" */
  | "date"
  /** "June" */
  | "month"
  /** "Monday" */
  | "weekday";

const OPTIONS: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  dateTime: { dateStyle: "long", timeStyle: "short" },
  date: { dateStyle: "long" },
  month: { month: "long" },
  weekday: { weekday: "long" },
};

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * `value` (a Date or an ISO string) in `style`, on the wall clock of `timeZone` (the reader's when
 * absent), in `locale`; "" for a date that cannot be read.
 */
export function formatDate(
  value: Date | string,
  style: DateStyle,
  { timeZone, locale = intlLocale(currentLanguage()) }: { timeZone?: string; locale?: string } = {},
): string {
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return "";
  const key = `${locale}|${style}|${timeZone ?? ""}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { ...OPTIONS[style], timeZone });
    formatters.set(key, formatter);
  }
  // ICU writes a narrow no-break space before AM/PM: a plain one reads and searches the same.
  return formatter.format(date).replace(/\u202f/g, " ");
}

/** The twelve month names, January first. */
export function monthNames(locale = intlLocale(currentLanguage())): string[] {
  return Array.from({ length: 12 }, (_, month) =>
    formatDate(new Date(Date.UTC(2024, month, 15)), "month", { timeZone: "UTC", locale }),
  );
}

/** The seven weekday names, Sunday first. */
export function weekdayNames(locale = intlLocale(currentLanguage())): string[] {
  // 2024-06-02 was a Sunday.
  return Array.from({ length: 7 }, (_, day) =>
    formatDate(new Date(Date.UTC(2024, 5, 2 + day, 12)), "weekday", { timeZone: "UTC", locale }),
  );
}
