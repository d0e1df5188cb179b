/**
 * The words of the family journal's mails and printed card (ADR 0057, 0060, 0061): the server's
 * alone, kept apart from the words the browser shows so they never ship to it.
 */

/** The invitation mail: subject and lines (mail-text.ts lays them out). */
export const INVITATION_MAIL = {
  subject: "You are invited to {journal}",
  greeting: "Hello {name},",
  body: "{inviter} invites you to {journal}, a family journal of spoken memories, as {role, select, organizer {an organizer} storyteller {a storyteller} other {a relative}}.",
  action: "Open this link to join (it works once, for 7 days):",
} as const;

/** The fridge card's words (server only: the PDF). */
export const RECORDING_CARD = {
  hello: "{name}, tell us your stories",
  lines: [
    "1. Point your phone's camera at the square and open the link.",
    "2. Press the big button, tell your story, and press it again when you are done.",
  ],
  journal: "For {journal}",
} as const;

/** The mail telling whoever asked a family question that it was answered. */
export const FAMILY_QUESTION_MAIL = {
  subject: "{teller} answered your question",
  body: '{teller} recorded an answer to your question: "{question}"',
  action: "Listen to it here:",
} as const;

/** The relatives' news of a story that answered a family question (an ICU message). */
export const FAMILY_QUESTION_NEWS = {
  answered: "{teller} answered {asker}'s question: {question}",
} as const;

/**
 * The mail telling a storyteller that the family answered their stories (ADR 0063), and the page
 * of its unsubscribe link. ICU messages: formatMessage(message, values).
 */
export const REPLIES_MAIL = {
  /** The subject and each line: who answered which story. */
  answered: '{name} answered your story "{title}"',
  subjectMany: "{count, plural, one {# new reply} other {# new replies}} to your stories",
  greeting: "Hello {name},",
  listenHere: "Listen here:",
  listenOnLink: "Open your recording link to hear them: they play under each story.",
  why: "You get this mail because you tell stories in {journal}.",
  stop: "Stop these mails:",
  unsubscribeTitle: "Stop mails about replies",
  unsubscribeExplain: "You will no longer get a mail when your family answers your stories.",
  unsubscribeButton: "Stop these mails",
  unsubscribeDone: "Done: you will no longer get mails about replies.",
  unsubscribeInvalid: "This link is not valid.",
} as const;

/**
 * The weekly question a storyteller gets by mail (ADR 0064): ICU messages, formatted with
 * `formatMessage`; the button opens their recording link with the question.
 */
export const QUESTION_MAIL = {
  subject: "A question for you from {journal}",
  greeting: "Hello {name},",
  intro: "Your family would love to hear your answer to this week's question:",
  askedBy: "{asker} asks:",
  button: "Record your answer",
  howTo: "Open the link and press the big button. No password is needed.",
  why: "You get this mail because your family chose a weekly question for you in {journal}.",
  stop: "Stop these mails: {url}",
  stopLabel: "Stop these mails",
} as const;
