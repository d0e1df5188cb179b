import type { Generated } from "kysely";

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
  /** SQLite only: a stable integer row id for the full-text index. */
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

/** Per-user memory counts, kept by triggers (migration 0008); read for list totals. */
export interface MemoryCountsTable {
  user_id: string;
  total: number;
  saved: number;
  /** Raised on every change to the user's list order or membership (migration 0009). */
  revision: Generated<number>;
}

/** What each revision of a user's list changed (migration 0011), for page anchors (ADR 0027). */
export interface MemoryListChangesTable {
  user_id: string;
  revision: number;
  recorded_at: string;
  seq: number;
  /** 1 when the memory was saved (it counts in the saved-only list too). */
  saved: number;
  /** +1 when the memory came into the list, -1 when it went out. */
  delta: number;
}

/** A scope's walked page anchors (migration 0012), read back by a process with none (ADR 0027). */
export interface MemoryPageAnchorsTable {
  user_id: string;
  /** The scope and reading direction, as the repository's cache keys them ("all desc", ...). */
  scope: string;
  /** The user's list revision the anchors hold at. */
  revision: number;
  /** JSON: { recordedAt: string[], keys: number[], positions: number[] }. */
  anchors: string;
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
  user_id: string;
  token_hash: string;
  label: string;
  created_at: string;
  last_used_at: string | null;
  visits: Generated<number>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  password_reset_tokens: PasswordResetTokensTable;
  audio_files: AudioFilesTable;
  memories: MemoriesTable;
  memory_counts: MemoryCountsTable;
  memory_list_changes: MemoryListChangesTable;
  memory_page_anchors: MemoryPageAnchorsTable;
  comments: CommentsTable;
  jobs: JobsTable;
  rate_limits: RateLimitsTable;
  reminder_settings: ReminderSettingsTable;
  reminder_occurrences: ReminderOccurrencesTable;
  question_rotation: QuestionRotationTable;
  server_secrets: ServerSecretsTable;
  share_links: ShareLinksTable;
}
