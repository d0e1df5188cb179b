/**
 * The words of the account's mails and of the share link's: the server's alone (registered in
 * ALL_CATALOGUES, never shipped to the browser), written in each recipient's language through
 * `wordsIn(language)`. ICU messages: formatMessage(message, values, language).
 */

/** Words every mail may open with. */
export const MAIL_WORDS = {
  /** A mail to an address whose owner's name is not known (a relative's news). */
  hello: "Hello,",
} as const;

/** The password-reset mail (its link works for one hour). */
export const RESET_MAIL = {
  subject: "Reset your Voice Memory Journal password",
  greeting: "Hello {name},",
  asked: 'Someone asked to reset the password of the account "{username}".',
  action: "To choose a new password, open this link within one hour:",
  ignore: "If it was not you, ignore this mail: your password stays as it is.",
} as const;

/** The account's weekly reminder and special days' reminders. */
export const REMINDER_MAIL = {
  subjectWeekly: "This week's question for your journal",
  subjectSpecialDay: "{day}: a memory to record",
  greeting: "Hello {name},",
  introWeekly: "Here is this week's question:",
  introSpecialDay: "Today is {day}. A question for the day:",
  record: "Record your answer (the recorder opens with the question):",
  why: "You get this mail because you turned on reminders in Voice Memory Journal.",
  stop: "Stop reminder mails: {url}",
} as const;

/** The mail carrying a new share link to the address its organizer typed. */
export const SHARE_LINK_MAIL = {
  subject: "{name}''s memories were shared with you",
  shared: "{name} shared their family''s voice memories with you on Voice Memory Journal.",
  action: "Open this link to listen to them and leave a spoken comment (no account needed):",
  keep: "Keep it for yourself: anyone with this link can listen.",
  news: "When new memories are saved, we will mail you their links (each mail can stop them).",
} as const;
