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
  | "month";

/** The product's language until the interface speaks others. */
export const PRODUCT_LOCALE = "en-US";

const OPTIONS: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  dateTime: { dateStyle: "long", timeStyle: "short" },
  date: { dateStyle: "long" },
  month: { month: "long" },
};

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * `value` (a Date or an ISO string) in `style`, on the wall clock of `timeZone` (the reader's when
 * absent), in `locale`; "" for a date that cannot be read.
 */
export function formatDate(
  value: Date | string,
  style: DateStyle,
  { timeZone, locale = PRODUCT_LOCALE }: { timeZone?: string; locale?: string } = {},
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
export function monthNames(locale = PRODUCT_LOCALE): string[] {
  return Array.from({ length: 12 }, (_, month) =>
    formatDate(new Date(Date.UTC(2024, month, 15)), "month", { timeZone: "UTC", locale }),
  );
}
