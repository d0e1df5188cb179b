import { z } from "zod";

/** Longest special-day label ("Mia's birthday"), and how many special days one user may keep. */
export const SPECIAL_DAY_LABEL_MAX_LENGTH = 60;
export const MAX_SPECIAL_DAYS = 50;
/** Longest question stored on a memory. */
export const QUESTION_MAX_LENGTH = 300;

/** Days in each month; February allows 29 (a Feb 29 day is reminded on Feb 28 in other years). */
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/**
 * An IANA time zone name the runtime knows ("Europe/Berlin", "UTC"); offsets such as "+01:00" are
 * refused, since they do not follow daylight-saving changes.
 */
export function isIanaTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneSchema = z
  .string()
  .max(64)
  .refine(isIanaTimeZone, "must be an IANA time zone name such as Europe/Berlin");

export const weeklyReminderSchema = z.object({
  enabled: z.boolean(),
  weekday: z.number().int().min(0).max(6),
  hour: z.number().int().min(0).max(23),
  timeZone: timeZoneSchema,
});

export const specialDaySchema = z
  .object({
    label: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(
        SPECIAL_DAY_LABEL_MAX_LENGTH,
        `must be at most ${SPECIAL_DAY_LABEL_MAX_LENGTH} characters`,
      ),
    month: z.number().int().min(1).max(12),
    day: z.number().int().min(1).max(31),
  })
  .refine((d) => d.day <= (DAYS_IN_MONTH[d.month - 1] ?? 0), {
    path: ["day"],
    message: "is not a day of that month",
  });

/** PUT /api/reminders. */
export const reminderSettingsBodySchema = z.object({
  weekly: weeklyReminderSchema,
  specialDays: z.array(specialDaySchema).max(MAX_SPECIAL_DAYS),
});
export type ReminderSettingsBody = z.infer<typeof reminderSettingsBodySchema>;
export type SpecialDay = z.infer<typeof specialDaySchema>;

/** GET/PUT /api/reminders answer: the settings, whether mail can reach the user, and any unsubscribe. */
export const reminderSettingsSchema = reminderSettingsBodySchema.extend({
  /** Reminders go by mail: false when the account has no email address. */
  hasEmail: z.boolean(),
  /** False until the user first saves (the form then offers the browser's time zone). */
  saved: z.boolean(),
  /** When the user last unsubscribed from a mail (no reminder is sent since); saving clears it. */
  unsubscribedAt: z.string().nullable(),
});
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>;

/** GET /api/question and POST /api/question/next: the user's current question. */
export const currentQuestionSchema = z.object({
  /** The user's place in the rotation; sent back to move on from exactly this question. */
  position: z.number().int().nonnegative(),
  question: z.string(),
});
export type CurrentQuestion = z.infer<typeof currentQuestionSchema>;

export const nextQuestionBodySchema = z.object({
  position: z.number().int().nonnegative(),
});

/** An optional question kept on a memory recorded while it was shown. */
export const memoryQuestionSchema = z
  .string()
  .trim()
  .max(QUESTION_MAX_LENGTH)
  .transform((value) => value || undefined);

/** Unsubscribe link parameters (`/unsubscribe?u=...&t=...` and the one-click POST). */
export const unsubscribeQuerySchema = z.object({
  u: z.string().min(1).max(100),
  t: z.string().min(1).max(200),
});
