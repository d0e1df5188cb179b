import { z } from "zod";
import {
  COMMENT_STATUSES,
  COMMENTER_NAME_MAX_LENGTH,
  DISPLAY_NAME_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  MAX_PASSWORD_LENGTH,
  MEMORY_STATUSES,
  MIN_PASSWORD_LENGTH,
  PAGE_SIZE,
  PIPELINE_STAGES,
  SCORE_DIMENSIONS,
  SEARCH_MAX_LENGTH,
  TAG_MAX_LENGTH,
  TEXT_MAX_LENGTH,
  TITLE_MAX_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from "./constants";
import { formatMessage } from "./i18n/format";
import { LANGUAGES } from "./i18n/languages";
import { JOURNAL_NAME_MAX_LENGTH, JOURNAL_ROLES, MEMBER_NAME_MAX_LENGTH } from "./journals";
import { MEMORY_BOOK, MESSAGES } from "./messages";
import { PHOTO_SIZE_NAMES, PHOTOS_PER_MEMORY, type PhotoSize } from "./photos";
import { memoryQuestionSchema, QUESTION_MAX_LENGTH, weeklyReminderSchema } from "./reminders";

// The lists live with the other constants; exported here beside the schemas that use them.
export { COMMENT_STATUSES, MEMORY_STATUSES, PIPELINE_STAGES } from "./constants";

/**
 * Every error the API sends: a stable code and the catalogue's words for it (ERROR_MESSAGES); an
 * invalid value (`invalid_value`) also names its field ("body.tags.5").
 */
export const errorResponseSchema = z.object({
  code: z.string(),
  message: z.string(),
  field: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const okResponseSchema = z.object({ ok: z.literal(true) });

export const healthResponseSchema = z.object({
  /** `degraded`: it serves, but something needs an operator (said in `reason`). */
  status: z.enum(["ok", "degraded"]),
  reason: z.string().optional(),
  database: z.enum(["sqlite", "postgres"]),
  /** The audio storage answered its check. */
  storage: z.literal("ok"),
  /** The job queue, all kinds together. */
  queue: z.object({
    /** Jobs due now, waiting for a free worker. */
    waiting: z.number().int().nonnegative(),
    /** Jobs held by a worker. */
    running: z.number().int().nonnegative(),
    /** Jobs queued for later (a retry's backoff, a scheduled job). */
    scheduled: z.number().int().nonnegative(),
    /** How long the longest-waiting due job has waited; null when none waits. */
    oldestWaitingSeconds: z.number().nonnegative().nullable(),
  }),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

// ---- Users and accounts -------------------------------------------------

export const usernameSchema = z
  .string()
  .trim()
  .min(USERNAME_MIN_LENGTH, {
    error: () => formatMessage(MESSAGES.usernameTooShort, { min: USERNAME_MIN_LENGTH }),
  })
  .max(USERNAME_MAX_LENGTH, {
    error: () => formatMessage(MESSAGES.usernameTooLong, { max: USERNAME_MAX_LENGTH }),
  })
  .regex(USERNAME_PATTERN, { error: () => MESSAGES.usernameCharacters });

export const passwordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, {
    error: () => formatMessage(MESSAGES.passwordTooShort, { min: MIN_PASSWORD_LENGTH }),
  })
  .max(MAX_PASSWORD_LENGTH, {
    error: () => formatMessage(MESSAGES.passwordTooLong, { max: String(MAX_PASSWORD_LENGTH) }),
  });

export const emailSchema = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH)
  .pipe(z.email({ error: () => MESSAGES.invalidEmail }));

/** An optional email: absent, null or empty all mean "none". */
export const optionalEmailSchema = z
  .union([z.literal(""), emailSchema])
  .nullish()
  .transform((value) => (value ? value : null));

export const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string().nullable(),
  isPublic: z.boolean(),
  email: z.string().nullable(),
  /** The account's language (null: the browser's). */
  language: z.enum(LANGUAGES).nullable().optional(),
});
export type User = z.infer<typeof userSchema>;

export const publicProfileSchema = userSchema.omit({ email: true, language: true }).extend({
  /** True when this browser sees the profile through a share link (a relative, not the owner). */
  sharedWithYou: z.boolean().optional(),
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

/**
 * GET /api/shared-with-me: whose memories this browser's share links still open (none for their
 * owner), so a relative's browser greets them and offers no Log in on every page.
 */
export const sharedWithMeSchema = z.object({
  owners: z.array(z.object({ username: z.string(), displayName: z.string().nullable() })),
});
export type SharedWithMe = z.infer<typeof sharedWithMeSchema>;

/** An optional display name (spec section 3): blank or null means none (the username shows). */
export const displayNameSchema = z
  .string()
  .trim()
  .max(DISPLAY_NAME_MAX_LENGTH, {
    error: () => formatMessage(MESSAGES.displayNameTooLong, { max: DISPLAY_NAME_MAX_LENGTH }),
  })
  .nullish()
  .transform((value) => (value ? value : null));

export const registerBodySchema = z.object({
  username: usernameSchema,
  password: passwordSchema,
  email: optionalEmailSchema,
  // Private unless chosen: an account made without saying so starts private.
  isPublic: z.boolean().default(false),
  displayName: displayNameSchema,
  /** The language the browser showed while signing up: the account's from then on. */
  language: z.enum(LANGUAGES).optional(),
});
export type RegisterBody = z.input<typeof registerBodySchema>;

export const loginBodySchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, { error: () => MESSAGES.usernameRequired })
    .max(USERNAME_MAX_LENGTH),
  password: z
    .string()
    .min(1, { error: () => MESSAGES.passwordRequired })
    .max(MAX_PASSWORD_LENGTH),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const forgotPasswordBodySchema = z.object({ email: emailSchema });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;

export const resetPasswordBodySchema = z.object({
  token: z.string().min(1, "Token is required").max(200),
  password: passwordSchema,
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

export const visibilityBodySchema = z.object({ isPublic: z.boolean() });
export type VisibilityBody = z.infer<typeof visibilityBodySchema>;

// ---- The account page ------------------------------------------------------

/**
 * PATCH /api/user: a field that is absent stays as it is; null or blank clears it (the display
 * name falls back to the username; without an email no reset link can be sent).
 */
/** The current password, which proves the owner is at the keyboard (not a stolen session). */
const currentPasswordSchema = z
  .string()
  .min(1, { error: () => MESSAGES.currentPasswordRequired })
  .max(MAX_PASSWORD_LENGTH);

/** PATCH /api/user: changing the email also needs the current password (ADR 0038). */
export const updateAccountBodySchema = z
  .object({
    displayName: displayNameSchema.optional(),
    email: optionalEmailSchema.optional(),
    currentPassword: currentPasswordSchema.optional(),
    /** The account's language; null: the browser's. */
    language: z.enum(LANGUAGES).nullable().optional(),
  })
  .refine(
    (body) =>
      body.displayName !== undefined || body.email !== undefined || body.language !== undefined,
    { message: "Send displayName, email or language to change" },
  )
  .refine((body) => body.email === undefined || body.currentPassword !== undefined, {
    error: () => MESSAGES.currentPasswordRequired,
    path: ["currentPassword"],
  });
export type UpdateAccountBody = z.input<typeof updateAccountBodySchema>;

/** POST /api/user/password: the current password proves it is the owner. */
export const changePasswordBodySchema = z.object({
  currentPassword: currentPasswordSchema,
  newPassword: passwordSchema,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

/**
 * DELETE /api/user: the typed confirmation word ('delete', any case), checked on the server too,
 * and the current password (ADR 0038).
 */
export const deleteAccountBodySchema = z.object({
  confirm: z.string().max(100),
  currentPassword: currentPasswordSchema,
});
export type DeleteAccountBody = z.infer<typeof deleteAccountBodySchema>;

// ---- Account forms (client-side validation, same rules as the API) -----------

/** A field that must be filled, and what it says when it is not (read when validating). */
const required = (message: () => string) => z.string().trim().min(1, { error: message });
const requiredPassword = (message: () => string) => z.string().min(1, { error: message });

/** Top-bar sign-up: username, email and password all required. */
export const signUpFormSchema = z.object({
  username: required(() => MESSAGES.usernameRequired).pipe(usernameSchema),
  email: required(() => MESSAGES.emailRequired).pipe(emailSchema),
  password: requiredPassword(() => MESSAGES.passwordRequired).pipe(passwordSchema),
});
export type SignUpForm = z.input<typeof signUpFormSchema>;

/** Save-account dialog: username and password required; email optional but a valid address. */
export const saveAccountFormSchema = z.object({
  username: required(() => MESSAGES.usernameRequired).pipe(usernameSchema),
  email: optionalEmailSchema,
  password: requiredPassword(() => MESSAGES.passwordRequired).pipe(passwordSchema),
});
export type SaveAccountForm = z.input<typeof saveAccountFormSchema>;

export const loginFormSchema = loginBodySchema;
export type LoginForm = z.input<typeof loginFormSchema>;

export const forgotPasswordFormSchema = z.object({
  email: required(() => MESSAGES.emailRequired).pipe(emailSchema),
});
export type ForgotPasswordForm = z.input<typeof forgotPasswordFormSchema>;

/** The reset page: both required, at least 6 characters, and equal. */
export const resetPasswordFormSchema = z
  .object({
    password: requiredPassword(() => MESSAGES.newPasswordRequired).pipe(passwordSchema),
    confirmPassword: requiredPassword(() => MESSAGES.confirmPasswordRequired).pipe(passwordSchema),
  })
  .refine((value) => value.password === value.confirmPassword, {
    path: ["confirmPassword"],
    error: () => MESSAGES.passwordsDoNotMatch,
  });
export type ResetPasswordForm = z.input<typeof resetPasswordFormSchema>;

/** The account page's display-name form: blank clears it. */
export const displayNameFormSchema = z.object({ displayName: displayNameSchema });
export type DisplayNameForm = z.input<typeof displayNameFormSchema>;

/** The account page's email form: blank removes the email. */
export const emailFormSchema = z.object({
  email: optionalEmailSchema,
  currentPassword: requiredPassword(() => MESSAGES.currentPasswordRequired),
});
export type EmailForm = z.input<typeof emailFormSchema>;

/** The account page's password form: the current one, and the new one twice. */
export const changePasswordFormSchema = z
  .object({
    currentPassword: requiredPassword(() => MESSAGES.currentPasswordRequired),
    newPassword: requiredPassword(() => MESSAGES.newPasswordRequired).pipe(passwordSchema),
    confirmPassword: requiredPassword(() => MESSAGES.confirmPasswordRequired),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    path: ["confirmPassword"],
    error: () => MESSAGES.passwordsDoNotMatch,
  });
export type ChangePasswordForm = z.input<typeof changePasswordFormSchema>;

// ---- Memories -------------------------------------------------------------

export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

export type PipelineStage = (typeof PIPELINE_STAGES)[number];

export const scoresSchema = z.object(
  Object.fromEntries(SCORE_DIMENSIONS.map((d) => [d, z.number()])) as Record<
    (typeof SCORE_DIMENSIONS)[number],
    z.ZodNumber
  >,
);
export type Scores = z.infer<typeof scoresSchema>;

/** A tag as sent: trimmed; a blank one is allowed here and dropped by `normalizeTags`. */
export const tagSchema = z.string().trim().max(TAG_MAX_LENGTH);

/** One photo of a memory: `url` serves it (`?size=thumb|medium|full`); sizes are the full image's. */
export const photoSchema = z.object({
  id: z.string(),
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type Photo = z.infer<typeof photoSchema>;

/** `GET <photo url>?size=...`; full when absent. */
export const photoQuerySchema = z.object({
  size: z.enum(PHOTO_SIZE_NAMES as [PhotoSize, ...PhotoSize[]]).default("full"),
});
export const photoParamsSchema = z.object({
  id: z.string().min(1).max(100),
  photoId: z.string().min(1).max(100),
});

/** PUT /api/memories/{id}/photos: every photo id of the memory, in the new order (cover first). */
export const photoOrderBodySchema = z.object({
  ids: z.array(z.string().min(1).max(100)).max(PHOTOS_PER_MEMORY),
});
export type PhotoOrderBody = z.infer<typeof photoOrderBodySchema>;
export const photoListSchema = z.object({ photos: z.array(photoSchema) });
export type PhotoList = z.infer<typeof photoListSchema>;

export const memorySchema = z.object({
  id: z.string(),
  user_id: z.string().nullable(),
  title: z.string(),
  audioUrl: z.string(),
  transcript: z.string(),
  summary: z.string(),
  scores: scoresSchema,
  duration: z.number(),
  recordedAt: z.string(),
  tags: z.array(z.string()),
  status: z.enum(MEMORY_STATUSES),
  stage: z.enum(PIPELINE_STAGES).nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  /** The question the memory answers (shown while it was recorded), or null. */
  question: z.string().nullable(),
  /** The spoken language the speech engine detected (LANGUAGE_CODE_PATTERN), or null. */
  language: z.string().nullable(),
  /** Up to PHOTOS_PER_MEMORY photos in the owner's order; the first is the cover. */
  photos: z.array(photoSchema),
  /** The journal it belongs to; null for a recording not yet saved to an account. */
  journalId: z.string().nullable(),
  /** Who told it (a member of its journal); null for an unsaved recording or a removed member. */
  storyteller: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type Memory = z.infer<typeof memorySchema>;

/** GET /api/memories/{id}/owner: whose memory it is (null for one recorded without an account). */
export const memoryOwnerSchema = z.object({
  owner: z.object({ username: z.string(), displayName: z.string().nullable() }).nullable(),
});
export type MemoryOwner = z.infer<typeof memoryOwnerSchema>;

export const memoryPageSchema = z.object({
  items: z.array(memorySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.literal(PAGE_SIZE),
});
export type MemoryPage = z.infer<typeof memoryPageSchema>;

/**
 * GET /api/memories/years (and a profile's): the years that hold memories, newest first, each
 * with its count and the list page holding its newest memory (the year navigator).
 */
export const memoryYearsSchema = z.object({
  years: z.array(
    z.object({
      year: z.string(),
      count: z.number().int().min(1),
      page: z.number().int().min(1),
    }),
  ),
});
export type MemoryYears = z.infer<typeof memoryYearsSchema>;

/**
 * GET /api/memories/unclaimed: what this browser recorded without an account and may still save to
 * one (claim), newest first; `claimExpiresAt` is when that chance ends.
 */
export const unclaimedMemoriesSchema = z.object({
  items: z.array(memorySchema.extend({ claimExpiresAt: z.string() })),
});
export type UnclaimedMemories = z.infer<typeof unclaimedMemoriesSchema>;
export type UnclaimedMemory = UnclaimedMemories["items"][number];

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});

export const searchQuerySchema = pageQuerySchema.extend({
  q: z.string().max(SEARCH_MAX_LENGTH).default(""),
});

/** A calendar date, YYYY-MM-DD, that exists (2024-02-30 does not). */
export const calendarDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date as YYYY-MM-DD")
  .refine((value) => {
    const date = new Date(`${value}T00:00:00.000Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, "not a real date");

/** The paper a memory book is laid out for; A4 when none is asked for. */
export const BOOK_PAPER_SIZES = ["a4", "letter"] as const;
export type BookPaperSize = (typeof BOOK_PAPER_SIZES)[number];
export const DEFAULT_BOOK_PAPER: BookPaperSize = "a4";

/**
 * GET /api/memory-book: optional recorded-date range (inclusive, UTC days), one tag and the paper
 * size (A4 when absent).
 */
export const memoryBookQuerySchema = z
  .object({
    from: calendarDateSchema.optional(),
    to: calendarDateSchema.optional(),
    tag: tagSchema.pipe(z.string().min(1, { error: () => MESSAGES.mustNotBeEmpty })).optional(),
    paper: z.enum(BOOK_PAPER_SIZES).optional(),
    /** Which journal (organizers); the caller's own when absent. */
    journal: z.string().min(1).max(64).optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    path: ["to"],
    error: () => MEMORY_BOOK.toBeforeFrom,
  });
export type MemoryBookQuery = z.infer<typeof memoryBookQuerySchema>;

/** The memory book dialog: a field left empty does not limit the book. */
export const memoryBookFormSchema = z
  .object({ from: z.string(), to: z.string(), tag: z.string(), paper: z.string() })
  .transform(({ from, to, tag, paper }) => ({
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(tag.trim() ? { tag } : {}),
    ...(paper ? { paper } : {}),
  }))
  .pipe(memoryBookQuerySchema);

export const isoDateTimeSchema = z.iso.datetime({ offset: true });

/** PUT /api/memories/{id}: the full memory; fields a user may not set are ignored. */
export const memoryUpdateBodySchema = z.object({
  title: z.string().trim().max(TITLE_MAX_LENGTH),
  transcript: z.string().max(TEXT_MAX_LENGTH),
  summary: z.string().max(TEXT_MAX_LENGTH),
  recordedAt: isoDateTimeSchema,
  tags: z.array(tagSchema).max(50),
  /** `null` takes the question off the memory (it answers none); absent leaves it as it is. */
  question: z.null().optional(),
});
export type MemoryUpdateBody = z.input<typeof memoryUpdateBodySchema>;

/** POST /api/memories/process: make a memory of an uploaded recording (the server runs the AI). */
export const processMemoryBodySchema = z.object({
  audioUrl: z.string().trim().min(1, "audioUrl is required").max(500),
  /** When it was recorded; now when absent. */
  recordedAt: isoDateTimeSchema.optional(),
  /** The question shown above the recorder, kept on the memory and given to the AI as context. */
  question: memoryQuestionSchema.optional(),
  /** The journal to save it in (the caller organizes or tells stories in it); their own when absent. */
  journalId: z.string().trim().min(1).max(64).optional(),
});
export type ProcessMemoryBody = z.input<typeof processMemoryBodySchema>;

/** POST /api/memories: create a memory from a full body (spec section 7); scores default to 5. */
export const memoryCreateBodySchema = z.object({
  title: z.string().trim().max(TITLE_MAX_LENGTH),
  audioUrl: z.string().trim().min(1, "audioUrl is required").max(500),
  transcript: z.string().max(TEXT_MAX_LENGTH),
  summary: z.string().max(TEXT_MAX_LENGTH),
  scores: z
    .object(
      Object.fromEntries(
        SCORE_DIMENSIONS.map((d) => [d, z.number().int().min(1).max(10).optional()]),
      ) as Record<(typeof SCORE_DIMENSIONS)[number], z.ZodOptional<z.ZodNumber>>,
    )
    .default({}),
  duration: z.number().nonnegative().max(1_000_000).default(0),
  recordedAt: isoDateTimeSchema,
  tags: z.array(tagSchema).max(50).default([]),
});
export type MemoryCreateBody = z.input<typeof memoryCreateBodySchema>;

export const idParamsSchema = z.object({ id: z.string().min(1).max(100) });
export const usernameParamsSchema = z.object({ username: z.string().min(1).max(100) });

// ---- Comments -------------------------------------------------------------

export const commentSchema = z.object({
  id: z.string(),
  memoryId: z.string(),
  commenterName: z.string(),
  audioUrl: z.string(),
  transcript: z.string(),
  createdAt: z.string(),
  status: z.enum(COMMENT_STATUSES),
  error: z.string().nullable(),
});
export type Comment = z.infer<typeof commentSchema>;
export const commentListSchema = z.array(commentSchema);

export const commenterNameSchema = z
  .string()
  .trim()
  .min(1, { error: () => MESSAGES.commenterNameRequired })
  .max(COMMENTER_NAME_MAX_LENGTH, {
    error: () => formatMessage(MESSAGES.commenterNameTooLong, { max: COMMENTER_NAME_MAX_LENGTH }),
  });

/** POST /api/memories/{id}/comments: the commenter's name and the uploaded audio's url. */
export const createCommentBodySchema = z.object({
  commenterName: commenterNameSchema,
  audioUrl: z.string().min(1).max(300),
});
export type CreateCommentBody = z.input<typeof createCommentBodySchema>;

// ---- Upload -------------------------------------------------------------

/** POST /api/upload: `url` is what memories and comments store as audioUrl; `id` names the same audio. */
export const uploadResponseSchema = z.object({ url: z.string(), id: z.string() });
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

// ---- App info -------------------------------------------------------------

/** Public, non-secret settings the web app shows (the footer's contact). */
export const appInfoSchema = z.object({
  featureRequestContact: z.string(),
  /**
   * The address share links, their mails and the memory book's codes are built on for this
   * browser: APP_URL, or (unset) the address the app is open at. The app warns while it is a
   * loopback address, which opens nowhere else.
   */
  linkBase: z.string(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/** POST /api/restore: what a backup brought back. */
export const restoreResultSchema = z.object({
  imported: z.number().int(),
  skipped: z.number().int(),
  failed: z.array(z.object({ id: z.string(), title: z.string(), reason: z.string() })),
});
export type RestoreResult = z.infer<typeof restoreResultSchema>;

// Family journals (ADR 0057)

/** GET /api/journals: the caller's journals, their own first. */
export const journalSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(JOURNAL_ROLES),
  /** The caller's member id in it (a memory's `storyteller.id` when they told it). */
  memberId: z.string(),
  /** The language of its book, backup page, questions and storytellers' link pages. */
  language: z.enum(LANGUAGES),
});
export type Journal = z.infer<typeof journalSchema>;
export const journalListSchema = z.array(journalSchema);

export const journalParamsSchema = z.object({ id: z.string().min(1).max(64) });
/** `?journal=`: which of the caller's journals an organizer's route acts on; their own when absent. */
export const journalQuerySchema = z.object({ journal: z.string().min(1).max(64).optional() });
export const memberParamsSchema = journalParamsSchema.extend({
  memberId: z.string().min(1).max(64),
});

/** A journal's name, as the Family page's form asks for it. */
export const journalNameBodySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: () => MESSAGES.mustNotBeEmpty })
    .max(JOURNAL_NAME_MAX_LENGTH),
});

/** PATCH /api/journals/{id} (organizer): rename it, or change its language. */
export const journalUpdateBodySchema = journalNameBodySchema
  .partial()
  .extend({ language: z.enum(LANGUAGES).optional() })
  .refine((body) => body.name !== undefined || body.language !== undefined, {
    message: "Send name or language to change",
  });
export type JournalUpdateBody = z.infer<typeof journalUpdateBodySchema>;

/**
 * GET /api/journals/{id}/members: everyone in the journal. Organizers also see each member's email
 * and whether their invitation is still pending; others get null and false there.
 */
export const memberSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(JOURNAL_ROLES),
  email: z.string().nullable(),
  /** Invited by mail and not joined yet. */
  invitationPending: z.boolean(),
  /** Joined with an account (false: a storyteller who records through their own link). */
  hasAccount: z.boolean(),
  /** The caller's own membership. */
  isYou: z.boolean(),
  /** Organizers only: whether the member has a live personal recording link (ADR 0060). */
  hasRecordingLink: z.boolean().optional(),
});
export type Member = z.infer<typeof memberSchema>;
export const memberListSchema = z.array(memberSchema);

/** POST /api/journals/{id}/members (organizer): add a member; an email sends the invitation. */
export const memberCreateBodySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: () => MESSAGES.mustNotBeEmpty })
    .max(MEMBER_NAME_MAX_LENGTH),
  role: z.enum(JOURNAL_ROLES),
  email: optionalEmailSchema,
  /** The language of the invitation and of the member's link page (the journal's when absent). */
  language: z.enum(LANGUAGES).optional(),
});
export type MemberCreateBody = z.input<typeof memberCreateBodySchema>;

/** PATCH /api/journals/{id}/members/{memberId} (organizer): change a member's role. */
export const memberUpdateBodySchema = z.object({ role: z.enum(JOURNAL_ROLES) });
export type MemberUpdateBody = z.infer<typeof memberUpdateBodySchema>;

/** GET /api/invitations/{token}: what the join page shows before the person logs in. */
export const invitationSchema = z.object({
  journalName: z.string(),
  name: z.string(),
  role: z.enum(JOURNAL_ROLES),
});
export type Invitation = z.infer<typeof invitationSchema>;
export const invitationParamsSchema = z.object({ token: z.string().min(1).max(200) });

/** POST /api/invitations/{token} (logged in): joined. */
export const joinedSchema = z.object({ journalId: z.string() });

/** GET /api/journals/{id}/memories and /years: one storyteller's memories when given. */
export const journalMemoriesQuerySchema = searchQuerySchema.extend({
  storyteller: z.string().min(1).max(64).optional(),
});
export const journalYearsQuerySchema = z.object({
  storyteller: z.string().min(1).max(64).optional(),
});

/** POST /api/journals/{id}/members/{memberId}/recording-link: the new link, shown this once. */
export const createdRecordingLinkSchema = z.object({ url: z.string() });
export type CreatedRecordingLink = z.infer<typeof createdRecordingLinkSchema>;

/** A personal recording link's token, in its paths (a wrong one answers 404 like a dead one). */
export const recordingTokenParamsSchema = z.object({ token: z.string().min(1).max(200) });
export const recordingStoryParamsSchema = recordingTokenParamsSchema.extend({
  id: z.string().min(1).max(64),
});

/**
 * A story as its storyteller's recording link shows it (ADR 0060): its own words and state, its
 * audio under the link's path; nothing of the journal around it.
 */
export const linkStorySchema = memorySchema
  .pick({
    id: true,
    title: true,
    status: true,
    stage: true,
    error: true,
    recordedAt: true,
    duration: true,
    question: true,
  })
  .extend({
    audioUrl: z.string(),
    /** Replies the storyteller has not heard yet (ADR 0063). */
    newReplies: z.number().int().min(0),
    /** Its photos: a recording sent again keeps the one it was started from, not a second. */
    photoCount: z.number().int().min(0),
  });
export type LinkStory = z.infer<typeof linkStorySchema>;

/** A reply to a story as its storyteller's link plays it: its audio under the link's path. */
export const linkReplySchema = z.object({
  id: z.string(),
  commenterName: z.string(),
  transcript: z.string(),
  createdAt: z.string(),
  audioUrl: z.string(),
});
export type LinkReply = z.infer<typeof linkReplySchema>;
export const linkReplyListSchema = z.array(linkReplySchema);
export const linkReplyParamsSchema = recordingStoryParamsSchema.extend({
  replyId: z.string().min(1).max(100),
});

/** GET /api/journals/{id}/new-replies: the caller's stories with replies they have not heard. */
export const newRepliesSchema = z.object({
  items: z.array(z.object({ memoryId: z.string(), count: z.number().int().min(1) })),
});
export type NewReplies = z.infer<typeof newRepliesSchema>;

/** GET /api/record/{token}: the recording page of one storyteller, and a page of their stories. */
export const recordingPageSchema = z.object({
  journalName: z.string(),
  name: z.string(),
  /** The language the page speaks: the storyteller's own choice, else the journal's. */
  language: z.enum(LANGUAGES),
  /** This week's question, asked in large type above the record button. */
  question: z.string(),
  /** Who in the family asked it ("Lucas asks:"); null for the library's question. */
  askedBy: z.string().nullable(),
  /**
   * The weekly question by mail (ADR 0064): "on" while it comes, "stopped" once they stopped it,
   * null when none comes (no address, or the journal sends none).
   */
  questionMail: z.enum(["on", "stopped"]).nullable(),
  stories: z.object({
    items: z.array(linkStorySchema),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.literal(PAGE_SIZE),
  }),
});
export type RecordingPage = z.infer<typeof recordingPageSchema>;

/** GET /api/record/{token}: `q`, the question a mail's button opened it with (ADR 0064). */
export const recordingPageQuerySchema = pageQuerySchema.extend({
  q: z.string().max(QUESTION_MAX_LENGTH).optional(),
});

/** PUT /api/record/{token}/language: the language the storyteller's page speaks from now on. */
export const linkLanguageBodySchema = z.object({ language: z.enum(LANGUAGES) });

/** POST /api/record/{token}/question-mail: the storyteller stops (or asks again for) the mails. */
export const questionMailChoiceSchema = z.object({ stopped: z.boolean() });

/**
 * A journal's weekly question mail to its storytellers (ADR 0064): the day, hour and time zone
 * organizers chose (a storyteller with reminder settings gets it at that hour of their own zone).
 * The same shape as a person's weekly reminder.
 */
export const questionMailSettingsSchema = weeklyReminderSchema;
export type QuestionMailSettings = z.infer<typeof questionMailSettingsSchema>;

/** POST /api/record/{token}/memories: a recording this browser uploaded, and the question it answers. */
export const recordThroughLinkBodySchema = processMemoryBodySchema.pick({
  audioUrl: true,
  recordedAt: true,
  question: true,
});
export type RecordThroughLinkBody = z.input<typeof recordThroughLinkBodySchema>;

/** A question the family asked a storyteller (ADR 0061). */
export const familyQuestionSchema = z.object({
  id: z.string(),
  text: z.string(),
  /** The name of who asked it. */
  askedBy: z.string(),
  /** The memory that answered it; null while it waits. */
  memoryId: z.string().nullable(),
  createdAt: z.string(),
});
export type FamilyQuestion = z.infer<typeof familyQuestionSchema>;
export const familyQuestionListSchema = z.array(familyQuestionSchema);

/** POST /api/journals/{id}/members/{memberId}/questions. */
export const familyQuestionBodySchema = z.object({
  text: z
    .string()
    .trim()
    .min(1, { error: () => MESSAGES.mustNotBeEmpty })
    .max(QUESTION_MAX_LENGTH),
});
export type FamilyQuestionBody = z.infer<typeof familyQuestionBodySchema>;
export const familyQuestionParamsSchema = memberParamsSchema.extend({
  questionId: z.string().min(1).max(64),
});

/** PATCH .../questions/{questionId}: its place among the questions still waiting (0 is asked next). */
export const familyQuestionOrderBodySchema = z.object({
  position: z.number().int().min(0).max(1000),
});
