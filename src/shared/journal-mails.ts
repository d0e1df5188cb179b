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
