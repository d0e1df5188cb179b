import { formatMessage } from "./i18n/format";
import { translatable } from "./i18n/page-words";
/**
 * The family journal (PRODUCT.md, ADR 0057): a journal belongs to a family and has members with
 * roles. The words here are the product's; client, server and mails take them from this file.
 */

/** What a member may do in a journal (authorization.ts holds the rules). */
export const JOURNAL_ROLES = ["organizer", "storyteller", "relative"] as const;
export type JournalRole = (typeof JOURNAL_ROLES)[number];

export const JOURNAL_NAME_MAX_LENGTH = 80;
export const MEMBER_NAME_MAX_LENGTH = 80;
/** An invitation link works this many days, once. */
export const INVITATION_DAYS = 7;
/** A journal has at most this many members (pending invitations included). */
export const MEMBERS_PER_JOURNAL = 100;

/** The journal every account starts with (ids derived from the account: never a random id's). */
export const ownJournalId = (userId: string): string => `j${userId}`;

/** The fridge card's file name, with the storyteller's name in letters and dashes. */
export function recordingCardFilename(name: string): string {
  const safe = name.replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "") || "storyteller";
  return formatMessage(RECORDING_LINK_MESSAGES.cardFilename, { name: safe });
}

/** The name a journal made with an account starts with; its organizers can rename it. */
export function defaultJournalName(personName: string): string {
  return formatMessage(JOURNAL_MESSAGES.defaultJournalName, { name: personName });
}

export const ROLE_LABELS: Readonly<Record<JournalRole, string>> = translatable("ROLE_LABELS", {
  organizer: "Organizer",
  storyteller: "Storyteller",
  relative: "Relative",
});

/** What each role may do, in the words the family page shows beside the role picker. */
export const ROLE_DESCRIPTIONS: Readonly<Record<JournalRole, string>> = translatable(
  "ROLE_DESCRIPTIONS",
  {
    organizer: "Invites the family, edits any story, makes the book and the backup.",
    storyteller: "Records stories and edits their own.",
    relative: "Listens, searches and answers with their voice.",
  },
);

export const JOURNAL_MESSAGES = translatable("JOURNAL_MESSAGES", {
  defaultJournalName: "{name}''s journal",
  familyTitle: "Family",
  journalLabel: "Journal",
  switchJournal: "Switch journal",
  membersTitle: "Members",
  inviteTitle: "Add a member",
  inviteName: "Name",
  inviteRole: "Role",
  inviteEmail: "Email (optional)",
  inviteEmailHint:
    "We mail an invitation that works once, for 7 days. Leave it empty for a storyteller who records through their own link.",
  /** The language the new member's invitation and mails are written in. */
  inviteLanguage: "Their language",
  inviteLanguageHint: "Their invitation and mails are written in it.",
  inviteSubmit: "Add",
  invitationPending: "Invitation sent",
  noAccount: "Records through their link",
  removeMember: "Remove",
  removeMemberConfirm: "Remove {name}? They can no longer open this journal. Their stories stay.",
  memberRemoved: "{name} was removed",
  memberAdded: "{name} was added",
  invitationMailed: "{name} was added and an invitation was mailed",
  roleChanged:
    "{name} is now {role, select, organizer {an organizer} storyteller {a storyteller} other {a relative}}",
  renameJournal: "Journal name",
  renameSubmit: "Save name",
  journalRenamed: "The journal's name was saved",
  journalLanguage: "Language of the journal",
  journalLanguageHint:
    "Its memory book, its backup page, the questions and its storytellers' pages speak it. A storyteller can choose their own on their page.",
  journalLanguageSaved: "The journal's language was saved",
  journalLanguageFailed: "The journal's language could not be saved",
  secondOrganizerHint: "Name a second organizer, so the journal is looked after if you cannot.",
  allStorytellers: "Everyone",
  toldBy: "Told by {name}",
  joinTitle: "Join the family journal",
  joinInvited:
    "You are invited to {journal} as {role, select, organizer {an organizer} storyteller {a storyteller} other {a relative}}.",
  joinLogIn: "Log in to join",
  joinSignUp: "Sign up to join",
  joinAccept: "Join",
  joined: "You joined {journal}",
  joinInvalid:
    "This invitation no longer works: it was used, revoked or is more than 7 days old. Ask for a new one.",
  joinFailed: "You could not join the journal",
  familyLoggedOut: "Log in to see your family's journal.",
  membersFailed: "The members could not be loaded",
  storytellerFilter: "Stories told by",
  you: "You",
  memberRole: "Role of {name}",
  removeMemberNamed: "Remove {name}",
  removeMemberTitle: "Remove a member",
  rolesTitle: "What each role may do",
  addMemberFailed: "The member could not be added",
  changeRoleFailed: "The role could not be changed",
  removeMemberFailed: "The member could not be removed",
  renameFailed: "The journal's name could not be saved",
  leaveJournal: "Leave this journal",
  leaveConfirm:
    "Leave {journal}? You can no longer open it unless you are invited again. Your stories stay.",
  leaveFailed: "You could not leave the journal",
  left: "You left {journal}",
  /** Beside a story its storyteller has replies to (an ICU message). */
  newReplies: "{count, plural, one {# new reply} other {# new replies}}",
  /** In the account's deletion dialog, naming the family journals the person told stories in. */
  deleteAccountStories:
    "The stories you told in {journals} are deleted too: the family can no longer hear them. If they want to keep them, ask an organizer there to download a backup first.",
} as const);

/**
 * A storyteller's personal recording link (ADR 0060): the actions beside a member on the Family
 * page, and the page the link opens, written for a grandparent.
 */
export const RECORDING_LINK_MESSAGES = translatable("RECORDING_LINK_MESSAGES", {
  make: "Make a recording link",
  makeNew: "Make a new recording link",
  makeNote: "A new link replaces the one before: the old link stops working at once.",
  made: "{name}''s recording link",
  copyOnce: "Copy it now and send it to them: it is shown only this once.",
  printCard: "Print a card for the fridge",
  cardNote: "The card holds the current link: print it as often as you like.",
  cardReady: "{name}''s card is ready to print",
  /** The card's file name; {name} is the storyteller's, in letters and dashes. */
  cardFilename: "recording-card-{name}.pdf",
  stop: "Stop this link",
  stopConfirm: "Stop {name}''s recording link? It stops working at once. Their stories stay.",
  stopped: "{name}''s recording link was stopped",
  failed: "That did not work",
  hello: "Hello, {name}",
  questionHeading: "This week's question",
  record: "Record your answer",
  thankYou: "Thank you!",
  savedTitle: 'Your story "{title}" is saved.',
  savedUntitled: "Your story is saved. Your family will hear it soon.",
  yourStories: "Your stories",
  noStories: "The stories you record will be listed here.",
  moreStories: "More stories",
  /** Replies to a story (ADR 0063); ICU messages (formatMessage). */
  newReplies: "{count, plural, one {# new reply} other {# new replies}}",
  hearReplies: "Hear the replies",
  repliesTitle: "Replies from your family",
  replyBy: "{name} answered",
  noReplies: "No one has answered this story yet.",
  repliesFailed: "The replies could not be loaded",
  /** The weekly question by mail, on the storyteller's page (ADR 0064). */
  mailOn: "You get a question by mail every week.",
  mailStop: "Stop these mails",
  mailStopped: "You will get no more questions by mail.",
  mailResume: "Send me the weekly question again",
  showLink: "Show the link",
  /** Under a recording link shown on the Family page: it can be shown and printed again. */
  copyAgain: "Copy it and send it to them; the card holds the same link.",
  /** The weekly question mail's schedule on the Family page (organizers). */
  mailTitle: "The weekly question by mail",
  mailNote:
    "Storytellers with an email address and a recording link get the week's question by mail, with a button that opens their link. A storyteller who set reminders gets it at this hour in their own time zone.",
  mailEnabled: "Send the weekly question by mail",
  mailDay: "Day",
  mailHour: "Hour",
  mailSave: "Save",
  mailSaved: "Saved",
} as const);

/** Questions the family asks a storyteller (ADR 0061). */
export const FAMILY_QUESTION_MESSAGES = translatable("FAMILY_QUESTION_MESSAGES", {
  /** Shown with the question on the storyteller's page: who wants to hear the answer. */
  asks: "{name} asks:",
  title: "Questions for {name}",
  label: "Ask {name} a question",
  submit: "Ask",
  asked: "Your question was sent to {name}",
  askFailed: "The question could not be sent",
  waiting: "Waiting for an answer",
  answered: "Answered",
  remove: "Remove",
  removeNamed: 'Remove the question "{question}"',
  none: "No questions yet. What would you love to hear about?",
  /** ICU messages (formatMessage): the buttons that order the waiting questions. */
  moveUpNamed: 'Ask "{question}" sooner',
  moveDownNamed: 'Ask "{question}" later',
  moveFailed: "The question could not be moved",
} as const);
