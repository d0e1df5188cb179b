const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/**
 * A date and time as the product's English writes it, in the reader's time zone: "June 1, 2024 at
 * 2:31 PM". Used wherever a family sees one (memories, comments, uploads waiting, share links).
 * Written out rather than built with `Intl.DateTimeFormat`: a page's first use of Intl loads its
 * locale data, the longest task after the memory page's first paint (ADR 0051).
 */
export function formatRecordedAt(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, "0");
  const clock = `${hours % 12 || 12}:${minutes} ${hours < 12 ? "AM" : "PM"}`;
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()} at ${clock}`;
}
