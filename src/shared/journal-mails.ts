/**
 * The words of the family journal's mails and printed card (ADR 0057, 0060, 0061): the server's
 * alone, kept apart from the words the browser shows so they never ship to it.
 */

/** The invitation mail: subject and lines (mail-text.ts lays them out). */
export const INVITATION_MAIL = {
  subject: (journal: string) => `You are invited to ${journal}`,
  greeting: (name: string) => `Hello ${name},`,
  body: (inviter: string, journal: string, role: string) =>
    `${inviter} invites you to ${journal}, a family journal of spoken memories, as a ${role.toLowerCase()}.`,
  action: "Open this link to join (it works once, for 7 days):",
} as const;

/** The fridge card's words (server only: the PDF). */
export const RECORDING_CARD = {
  hello: (name: string) => `${name}, tell us your stories`,
  lines: [
    "1. Point your phone's camera at the square and open the link.",
    "2. Press the big button, tell your story, and press it again when you are done.",
  ],
  journal: (journal: string) => `For ${journal}`,
} as const;

/** The mail telling whoever asked a family question that it was answered. */
export const FAMILY_QUESTION_MAIL = {
  subject: (teller: string) => `${teller} answered your question`,
  body: (teller: string, question: string) =>
    `${teller} recorded an answer to your question: "${question}"`,
  action: "Listen to it here:",
} as const;

/**
 * The weekly question a storyteller gets by mail (ADR 0063): ICU messages, formatted with
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
