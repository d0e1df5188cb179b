import { formatDate } from "../../shared/dates";

/** A date and time in the reader's time zone, as every list and page shows it: "June 1, 2024 at 2:31 PM". */
export const formatRecordedAt = (iso: string): string => formatDate(iso, "dateTime");
