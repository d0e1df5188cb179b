import type { ColumnType, Generated } from "kysely";

/** Timestamps are ISO-8601 UTC text and booleans are 0/1 on both databases, so rows read alike. */
export interface UsersTable {
  id: string;
  username: string;
  username_lower: string;
  display_name: string | null;
  email: string | null;
  email_lower: string | null;
  password_hash: string;
  is_public: number;
  /** The account's language; null: the browser's. */
  language: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface PasswordResetTokensTable {
  token_hash: string;
  user_id: string;
  expires_at: string;
  created_at: string;
}

export interface AudioFilesTable {
  id: string;
  storage_key: string;
  content_type: string;
  bytes: number;
  owner_user_id: string | null;
  owner_anon_hash: string | null;
  /** 'memory:<id>' or 'comment:<id>' once the upload is used; set once (migration 0004). */
  attached_to: string | null;
  /** The uploader's hashed recording key (x-upload-key), so a resend finds the first upload. */
  upload_key: string | null;
  created_at: string;
}

export interface MemoriesTable {
  /** A stable integer key: list order's tie-break, and SQLite's full-text index row id. */
  seq: Generated<number>;
  id: string;
  user_id: string | null;
  anon_owner_hash: string | null;
  claim_expires_at: string | null;
  audio_id: string | null;
  title: string;
  transcript: string;
  summary: string;
  scores: string;
  duration: number;
  recorded_at: string;
  tags: string;
  status: string;
  stage: string | null;
  error: string | null;
  /** The spoken language the speech engine detected (ISO 639-1); null when unknown. */
  language: Generated<string | null>;
  created_at: string;
  updated_at: string;
  /** The question the memory answers, when one was shown while recording (migration 0006). */
  question: string | null;
  /** The engine and model that made the transcript; null when not known (migration 0015). */
  transcript_engine: Generated<string | null>;
  /** The transcript's timed segments, JSON `[{start, end, text}]`; null when there are none. */
  transcript_segments: Generated<string | null>;
  /** 1 once the owner edited the transcript: it is never replaced by a new transcription. */
  transcript_edited: Generated<number>;
  /** The journal it belongs to and the member who told it; null while unclaimed (migration 0023). */
  journal_id: string | null;
  storyteller_id: string | null;
  /** A new transcription offered beside the owner's edit, its segments and engine (migration 0018). */
  proposed_transcript: Generated<string | null>;
  proposed_segments: Generated<string | null>;
  /** The engine of the offer; kept once the owner keeps theirs, so it is not offered again. */
  proposed_engine: Generated<string | null>;
}

export interface CommentsTable {
  id: string;
  memory_id: string;
  commenter_name: string;
  audio_id: string | null;
  transcript: string;
  status: string;
  error: string | null;
  created_at: string;
  /** The engine and model that made the transcript, and its timed segments (migration 0015). */
  transcript_engine: string | null;
  transcript_segments: string | null;
  /** The member who replied; null for a visitor or a member since removed (migration 0027). */
  member_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface JobsTable {
  id: string;
  kind: string;
  target_id: string;
  status: string;
  attempts: number;
  run_after: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  /** Epoch milliseconds: when the current window ends. */
  expires_at: number;
}

/**
 * How many memories each journal has per month of recorded_at ('YYYY-MM'), all and saved, kept by
 * triggers (migrations 0013, 0023): list totals, the month that holds a page, the year navigator.
 */
export interface MemoryMonthsTable {
  journal_id: string;
  month: string;
  total: number;
  saved: number;
}

export interface ReminderSettingsTable {
  user_id: string;
  weekly_enabled: number;
  weekday: number;
  hour: number;
  time_zone: string;
  /** JSON: [{ label, month, day }]. */
  special_days: string;
  unsubscribed_at: string | null;
  /** The address the settings were last saved at; without APP_URL, the mails' links use it. */
  origin: string | null;
  created_at: string;
  updated_at: string;
}

export interface ReminderOccurrencesTable {
  user_id: string;
  /** 'weekly' or 'special:<label>'. */
  kind: string;
  /** The user's local date (YYYY-MM-DD) the reminder is for. */
  occurrence_date: string;
  status: "sending" | "sent" | "failed";
  attempts: number;
  /** While 'sending': the claim ends then (a crashed sender's occurrence is taken again). */
  locked_until: string | null;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
}

export interface QuestionRotationTable {
  user_id: string;
  seed: number;
  position: number;
  updated_at: string;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

/** Private share links (migration 0005): only the token's hash is stored. */
export interface ShareLinksTable {
  id: string;
  /** The organizer who made it; the journal whose memories it opens (migration 0023). */
  user_id: string;
  journal_id: string;
  token_hash: string;
  label: string;
  created_at: string;
  last_used_at: string | null;
  visits: Generated<number>;
  /** The address the link was made at, for mails sent later without APP_URL (migration 0021). */
  origin: string | null;
}

/** Addresses mailed news of new memories through a share link (migration 0017, ADR 0044). */
export interface ShareLinkSubscriptionsTable {
  id: string;
  share_link_id: string;
  email: string;
  token_sealed: string;
  created_at: string;
  covered_until: string;
  /** When the address confirmed it wants the news (migration 0021); null: not yet, not mailed. */
  confirmed_at: string | null;
  /** When the last confirmation mail went; an unconfirmed address is not mailed again soon. */
  confirm_sent_at: string | null;
  language: ColumnType<string, string | undefined, string>;
}

/** A memory's photos (migration 0016): three stored sizes each; position 0 is the cover. */
export interface MemoryPhotosTable {
  id: string;
  memory_id: string;
  position: number;
  width: number;
  height: number;
  full_key: string;
  medium_key: string;
  thumb_key: string;
  bytes: number;
  created_at: string;
}

/** A family's journal (migration 0023, ADR 0057); `created_by`'s profile shows it. */
export interface JournalsTable {
  id: string;
  name: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  language: ColumnType<string, string | undefined, string>;
  /** The weekly question mail's day (0 Sunday to 6), hour and time zone; all null: no mails. */
  question_mail_weekday: ColumnType<number | null, number | null | undefined, number | null>;
  question_mail_hour: ColumnType<number | null, number | null | undefined, number | null>;
  question_mail_time_zone: ColumnType<string | null, string | null | undefined, string | null>;
  question_mail_updated_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The address the organizer chose the mail's schedule at (its links' base without APP_URL). */
  question_mail_origin: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * A journal's member: an account (`user_id`), a pending invitation (token hash and end, no
 * account yet) or a storyteller who records through their own link (neither).
 */
export interface JournalMembersTable {
  id: string;
  journal_id: string;
  user_id: string | null;
  name: string;
  role: "organizer" | "storyteller" | "relative";
  email: string | null;
  invite_token_hash: string | null;
  invite_expires_at: string | null;
  created_at: string;
  /** The hash of the member's personal recording link's token (ADR 0060); null without one. */
  recording_token_hash: ColumnType<string | null, string | null | undefined, string | null>;
  language: string | null;
  /** The newest reply their last replies mail told of, and their unsubscribe (migration 0027). */
  replies_mailed_until: ColumnType<string | null, string | null | undefined, string | null>;
  replies_mail_stopped_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The same token sealed with a server secret (migration 0028); null for a link made before. */
  recording_token_sealed: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the storyteller stopped the weekly question mails (one click); null while they come. */
  question_mail_stopped_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The storyteller's local date (YYYY-MM-DD) of the last weekly question mail sent. */
  question_mailed_on: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A question the family asks a storyteller (migration 0026); answered once a memory is saved for it. */
export interface FamilyQuestionsTable {
  id: string;
  journal_id: string;
  member_id: string;
  asked_by_member_id: string | null;
  asked_by_name: string;
  text: string;
  memory_id: string | null;
  answered_at: string | null;
  created_at: string;
  /** Its place among the storyteller's questions, as an organizer ordered them (migration 0027). */
  position: ColumnType<number, number | undefined, number>;
}

/** When the storyteller who told a memory last opened its replies (migration 0027). */
export interface ReplyViewsTable {
  memory_id: string;
  seen_at: string;
}

export interface Database {
  reply_views: ReplyViewsTable;
  family_questions: FamilyQuestionsTable;
  journals: JournalsTable;
  journal_members: JournalMembersTable;
  users: UsersTable;
  sessions: SessionsTable;
  password_reset_tokens: PasswordResetTokensTable;
  audio_files: AudioFilesTable;
  memories: MemoriesTable;
  memory_months: MemoryMonthsTable;
  comments: CommentsTable;
  jobs: JobsTable;
  rate_limits: RateLimitsTable;
  reminder_settings: ReminderSettingsTable;
  reminder_occurrences: ReminderOccurrencesTable;
  question_rotation: QuestionRotationTable;
  server_secrets: ServerSecretsTable;
  share_links: ShareLinksTable;
  memory_photos: MemoryPhotosTable;
  share_link_subscriptions: ShareLinkSubscriptionsTable;
}
