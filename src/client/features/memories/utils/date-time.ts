/**
 * The Edit Memory dialog's date field is an `<input type="datetime-local">`, which holds local
 * wall-clock time without a zone. These convert with the time-zone offset of that very instant
 * (so daylight-saving changes are right) at minute precision.
 */
export function isoToLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** The ISO (UTC) instant of a `YYYY-MM-DDTHH:mm` local value, or null when it is not one. */
export function localInputToIso(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  // The Date constructor with parts reads them as local time and applies that instant's offset.
  const date = new Date(y, mo - 1, d, h, mi, 0, 0);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
