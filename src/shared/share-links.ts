import { z } from "zod";
import { emailSchema } from "./schemas";

/**
 * Private share links (ADR 0019): contracts, limits and texts shared by client, server and tests.
 * Kept in their own module so the feature's strings live once and apart from the spec's.
 */
export const SHARE_LINK_LABEL_MAX_LENGTH = 60;
/** More than any family needs; stops one account from filling the table. */
export const SHARE_LINKS_PER_USER = 100;
/** The path a link opens in a browser: `/s/<token>`. */
export const SHARE_LINK_PATH_PREFIX = "/s/";

export const SHARE_MESSAGES = {
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
  tooMany: `You have ${SHARE_LINKS_PER_USER} share links; revoke one first.`,
  mailSubject: "memories were shared with you",
} as const;

export const shareLinkLabelSchema = z
  .string()
  .trim()
  .min(1, "label: Please give the link a name, for example Grandma")
  .max(SHARE_LINK_LABEL_MAX_LENGTH, `label: at most ${SHARE_LINK_LABEL_MAX_LENGTH} characters`);

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
