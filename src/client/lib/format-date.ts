import { RECORDED_AT_FORMAT } from "../../shared/constants";

/** How a date reads, in the reader's locale and zone: one formatter for every row. */
const recordedAtFormat = new Intl.DateTimeFormat(undefined, RECORDED_AT_FORMAT);

/** A memory's or a comment's date, read the same in lists, the memory page and its comments. */
export function formatRecordedAt(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return recordedAtFormat.format(date);
}
