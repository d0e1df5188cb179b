import { z } from "zod";
import { formatDate } from "./dates";
import { formatMessage } from "./i18n/format";
import { LANGUAGES } from "./i18n/languages";
import { translatable } from "./i18n/page-words";
import { ERROR_MESSAGES } from "./messages";
import { emailSchema } from "./schemas";

/**
 * Private share links (ADR 0019): contracts, limits and texts shared by client, server and tests.
 * Kept in their own module so the feature's strings live once and apart from the spec's.
 */
export const SHARE_LINK_LABEL_MAX_LENGTH = 60;
export { SHARE_LINKS_PER_USER } from "./constants";
/** The path a link opens in a browser: `/s/<token>`. */
export const SHARE_LINK_PATH_PREFIX = "/s/";

export const SHARE_MESSAGES = translatable("SHARE_MESSAGES", {
  sectionTitle: "Share links",
  sectionDescription:
    "A share link lets a relative listen to your memories and leave spoken comments without an account, even while your profile is private. Nothing else: they cannot change anything.",
  labelField: "Who is it for?",
  labelPlaceholder: "Grandma",
  emailField: "Send it to (optional)",
  create: "Create link",
  creating: "Creating...",
  createFailed: "Could not create the share link",
  revokeFailed: "Could not revoke the share link",
  created: "Share link created",
  createdAndMailed: "Share link created and sent",
  copy: "Copy link",
  copied: "Link copied!",
  /** Opens the phone's share sheet (messages, mail, chat) with the link. */
  shareSheet: "Share…",
  shareSheetTitle: "Our family's voice memories",
  shareSheetText: "Listen to the stories we recorded, and answer them with your voice.",
  copyOnce:
    "Copy this link now: for your family's safety it is stored only in a form that cannot be shown again.",
  none: "No share links yet.",
  revoke: "Revoke",
  revoked: "Share link revoked",
  revokeTitle: "Revoke this share link?",
  revokeDescription:
    "Anyone who opens it, or opened it before, loses access at once. This cannot be undone.",
  createdAt: "Created",
  lastUsed: "Last used",
  neverUsed: "Never used",
  visits: "Visits",
  dialogTitle: "Share your private profile",
  dialogDescription:
    "Your profile is private. Create a share link for a relative: whoever opens it can listen and leave spoken comments, nothing else.",
  manageOnAccount: "Manage share links",
  // News of new stories (ADR 0044): the relative's form on the shared view, the owner's list.
  newsTitle: "Tell me when there are new stories",
  newsDescription:
    "Leave your email: we first mail you a link to confirm it, then a short note with links when new memories are saved (at most one mail an hour). Every mail has a link to stop.",
  newsEmailField: "Your email",
  newsSubscribe: "Keep me posted",
  newsSubscribing: "Saving...",
  newsSubscribed:
    "Almost done: we sent a mail to that address. Open the link in it to confirm, and we will mail you when there are new stories.",
  newsFailed: "Could not save your email",
  subscribers: "News by mail to",
  awaitingConfirmation: "(waiting for them to confirm)",
  removeSubscriber: "Remove",
  removeSubscriberLabel: "Stop news mails to {email}",
  subscriberRemoved: "They will get no more news mails",
  removeSubscriberFailed: "Could not remove the address",
  newsMailSubject: "New stories from {name}",
  newsMailIntro: "{name} saved new stories in Voice Memory Journal:",
  newsMailWhy: "You get this mail because this address asked for news of {name}''s stories.",
  newsMailStop: "Stop these mails:",
  /** The label of the share link a memory book's QR codes open. */
  memoryBookLinkLabel: "Memory book, {date}",
  unsubscribeTitle: "Stop news of new stories",
  unsubscribeExplain: "This address will get no more mails about new stories.",
  unsubscribeButton: "Stop the mails",
  unsubscribeDone: "Done: this address will get no more mails about new stories.",
  unsubscribeInvalid: ERROR_MESSAGES["share.unsubscribe_invalid"],
  /** Shown while links would be built on a loopback address (see `isLoopbackAddress`). */
  loopbackWarning:
    "Links made here start with {base}, which opens only on this computer. To share with relatives, open the journal at its network address (for example http://192.168.1.20:5202) and make the link there, or set APP_URL.",
  // Double opt-in: the address asked for on the shared view confirms it wants the news.
  confirmMailSubject: "Please confirm: news of {name}''s stories",
  confirmMailIntro:
    "Someone holding {name}''s share link asked for this address to be mailed when {name} saves new stories in Voice Memory Journal.",
  confirmMailAsk: "To get these mails, open this link and confirm:",
  confirmMailIgnore: "If it was not you, ignore this mail: nothing more will be sent.",
  confirmTitle: "Confirm news of new stories",
  confirmExplain: "Mail this address when new stories are saved?",
  confirmButton: "Yes, send me the news",
  confirmDone: "Thank you: this address will be mailed when there are new stories.",
  confirmInvalid: ERROR_MESSAGES["share.confirm_invalid"],
  // Words moved from the screens
  labelRequired: "label: Please give the link a name, for example Grandma",
  labelTooLong: "label: at most {max} characters",
  /** The created link's address field, named after the link. */
  linkNamed: "Share links: {label}",
  revokeNamed: "Revoke {label}",
  /** The revoke confirmation: the link's name, then what revoking does. */
  revokeDescriptionNamed: "{label}: {description}",
} as const);

/**
 * Whether links on `base` (an address such as `http://localhost:5202`) open only on the machine
 * itself: localhost, 127.0.0.0/8, ::1 or 0.0.0.0.
 */
export function isLoopbackAddress(base: string): boolean {
  let host: string;
  try {
    host = new URL(base).hostname.toLowerCase();
  } catch {
    return false;
  }
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === "[::1]" ||
    host === "0.0.0.0"
  );
}

/** Addresses one link may send news to: a household's relatives, and a bound on abuse. */
export const SUBSCRIBERS_PER_LINK = 10;

/** The label of the share link a memory book's QR codes open: "Memory book, November 26, 2026". */
export function memoryBookLinkLabel(day: Date): string {
  return formatMessage(SHARE_MESSAGES.memoryBookLinkLabel, {
    date: formatDate(day, "date", { timeZone: "UTC" }),
  });
}

export const shareLinkLabelSchema = z
  .string()
  .trim()
  .min(1, { error: () => SHARE_MESSAGES.labelRequired })
  .max(SHARE_LINK_LABEL_MAX_LENGTH, {
    error: () => formatMessage(SHARE_MESSAGES.labelTooLong, { max: SHARE_LINK_LABEL_MAX_LENGTH }),
  });

/** POST /api/share-links: a label, and optionally an address to mail the new link to. */
export const createShareLinkBodySchema = z.object({
  label: shareLinkLabelSchema,
  email: z
    .union([z.literal(""), emailSchema])
    .nullish()
    .transform((value) => (value ? value : null)),
});
export type CreateShareLinkBody = z.input<typeof createShareLinkBodySchema>;

/** A link as listed: its address is never shown again after it was created (only its hash is kept). */
export const shareLinkSchema = z.object({
  id: z.string(),
  label: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  visits: z.number().int(),
  /** The addresses that get news of new stories through this link (ADR 0044). */
  subscribers: z.array(
    z.object({
      id: z.string(),
      email: z.string(),
      /** False while the address has not confirmed it wants the news: it gets none yet. */
      confirmed: z.boolean(),
    }),
  ),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

/** The answer to creating a link: the only time its `url` is sent. */
export const createdShareLinkSchema = shareLinkSchema.extend({
  url: z.string(),
  mailed: z.boolean(),
});
export type CreatedShareLink = z.infer<typeof createdShareLinkSchema>;

export const shareLinkListSchema = z.array(shareLinkSchema);

/** A link's token: 256 random bits, base64url. Anything else is refused before any lookup. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** POST /api/relative-news: a relative holding a link to `username`'s memories asks for news. */
export const relativeNewsBodySchema = z.object({
  username: z.string().min(1).max(100),
  email: emailSchema,
  /** The language the news and its confirmation are mailed in (the journal's when absent). */
  language: z.enum(LANGUAGES).optional(),
});
export type RelativeNewsBody = z.input<typeof relativeNewsBodySchema>;

/**
 * The signed one-click unsubscribe of a news mail, or the confirmation link of an address:
 * subscription, link and signature.
 */
export const newsUnsubscribeQuerySchema = z.object({
  s: z.string().min(1).max(100),
  l: z.string().min(1).max(100),
  t: z.string().min(1).max(100),
});
