import { formatMessage } from "./i18n/format";
import { translatable } from "./i18n/page-words";
// Apart from src/shared/reminders.ts (zod schemas), so the home page's question prompt can say its
// words without bringing zod into the first download.
/** What the reminder UI and the unsubscribe page say. */
export const REMINDER_MESSAGES = translatable("REMINDER_MESSAGES", {
  sectionTitle: "Reminders",
  weeklyLabel: "Weekly reminder by mail",
  weekdayLabel: "Day",
  hourLabel: "Hour",
  timeZoneLabel: "Time zone",
  /** The group holding the zone this browser is in, first in the list. */
  yourTimeZone: "Your time zone",
  otherTimeZones: "Other",
  specialDaysTitle: "Special days",
  specialDayLabel: "Name of the day",
  specialDayMonth: "Month",
  specialDayDay: "Day of month",
  addSpecialDay: "Add special day",
  removeSpecialDay: "Remove",
  save: "Save reminders",
  saved: "Reminders saved",
  notSaved: "Reminders not saved",
  weeklyOfferTitle: "A gentle nudge each week?",
  weeklyOfferText:
    "Get a short mail once a week with a question to answer, so the next story is not forgotten.",
  weeklyOfferAccept: "Remind me every week",
  weeklyOfferDismiss: "Not now",
  weeklyOfferDone: "Weekly reminder on. You can change its day and hour on your account page.",
  noEmail: "Add an email address above to receive reminders.",
  unsubscribed: "You unsubscribed from reminder mails. Saving turns them back on.",
  questionHeading: "A question to answer",
  skipQuestion: "Another question",
  /** Pressed, the next recording answers the question (a memory answers one only when chosen). */
  answerQuestion: "Answer this question",
  answeringQuestion: "Your next recording answers this question.",
  unsubscribeTitle: "Stop reminder mails",
  unsubscribeExplain: "You will no longer get reminder mails from Voice Memory Journal.",
  unsubscribeButton: "Unsubscribe",
  unsubscribeDone: "You are unsubscribed. You can turn reminders on again on your account page.",
  // Words moved from the screens
  specialDaysHint: "Special days are reminded at the same hour, with a question that fits the day.",
  specialDayPlaceholder: "Mia's birthday",
  removeSpecialDayNamed: "Remove {label}",
  removeSpecialDayUnnamed: "Remove special day",
  /** A time zone in the list: its city and its offset now ("Berlin (UTC+01:00)"). */
  timeZoneOption: "{city} (UTC{offset})",
} as const);

/** A time zone as offered: its city (and country, when the name holds one) and offset now. */
export function timeZoneOptionLabel(city: string, offset: string): string {
  return formatMessage(REMINDER_MESSAGES.timeZoneOption, { city, offset });
}

/** The regions time zone names begin with, as the list groups them. */
export const TIME_ZONE_REGIONS: Readonly<Record<string, string>> = translatable(
  "TIME_ZONE_REGIONS",
  {
    Africa: "Africa",
    America: "Americas",
    Antarctica: "Antarctica",
    Arctic: "Arctic",
    Asia: "Asia",
    Atlantic: "Atlantic",
    Australia: "Australia",
    Europe: "Europe",
    Indian: "Indian Ocean",
    Pacific: "Pacific",
  },
);
