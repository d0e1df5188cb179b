/** Business constants of spec section 9, shared by client, server and tests. */
export const PAGE_SIZE = 15;
export const MAX_TAGS = 5;
export const GENERATED_TAG_COUNT = 3;
export const MAX_TAG_WORDS = 3;
export const MIN_RECORDING_BYTES = 1024;
export const RECORDER_CHUNK_MS = 100;
/** After this long recording, the recorder says calmly that there is no hurry. */
export const TAKE_YOUR_TIME_AFTER_MS = 10 * 60_000;
export const AUDIO_BITS_PER_SECOND = 128000;
export const AUDIO_IDEAL_SAMPLE_RATE = 44100;
export const AUDIO_MIN_SAMPLE_RATE = 22050;
export const VISUALISER_WIDTH = 800;
export const VISUALISER_HEIGHT = 300;
export const VISUALISER_FFT_SIZE = 256;
export const CONFETTI_MS = 2000;
/** Each progress notice stays on screen at least this long, in order, however fast its step was. */
export const PROGRESS_NOTICE_MIN_MS = 600;
export const MIN_PASSWORD_LENGTH = 6;
/** Long passphrases are welcome; the cap only stops hashing megabytes. */
export const MAX_PASSWORD_LENGTH = 1024;
export const DELETE_CONFIRMATION_WORD = "delete";
/** Estimated duration in seconds = audio bytes / this. */
export const DURATION_BYTES_PER_SECOND = 16000;

export const SCORE_DIMENSIONS = [
  "meaningfulness",
  "cuteness",
  "excitement",
  "interest",
  "uniqueness",
  "overall",
] as const;
export type ScoreDimension = (typeof SCORE_DIMENSIONS)[number];
export const SCORE_MIN = 1;
export const SCORE_MAX = 10;
export const DEFAULT_SCORE = 5;

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
/** A toast offering Undo stays longer: time to read it and reach the button. */
export const UNDO_TOAST_DURATION_MS = 15_000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_SWIPE_DIRECTION = "right";
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = ["F8"];

/** Formats tried in the spec's order (section 5). */
export const RECORDING_MIME_TYPES = [
  "audio/webm;codecs=opus",
  "audio/webm",
  "audio/mp4",
  "audio/mp4;codecs=mp4a.40.2",
  "audio/mpeg",
  "audio/ogg;codecs=opus",
  "audio/wav",
] as const;

export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 32;
/** Letters, digits, dot, dash and underscore; starts with a letter or digit. */
export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** A spoken language as speech engines name it: ISO 639-1 ("en") where one exists, else 639-2 ("haw"). */
export const LANGUAGE_CODE_PATTERN = /^[a-z]{2,3}$/;
export const DISPLAY_NAME_MAX_LENGTH = 64;
export const EMAIL_MAX_LENGTH = 254;
export const TITLE_MAX_LENGTH = 300;
export const TEXT_MAX_LENGTH = 100_000;
export const TAG_MAX_LENGTH = 50;
export const SEARCH_MAX_LENGTH = 500;
export const COMMENTER_NAME_MAX_LENGTH = 60;

/**
 * The id of the JSON data block in the app's HTML holding the logged-in user (or null), so the first
 * render knows who is there without waiting for GET /api/user.
 */
export const SESSION_USER_SCRIPT_ID = "session-user";

/**
 * The id of the JSON data block in the home page's HTML holding the logged-in user's current
 * question (what GET /api/question would send), so the prompt paints with the page.
 */
export const CURRENT_QUESTION_SCRIPT_ID = "current-question";

/**
 * The id of the JSON data block in a memory page's HTML holding that memory (what GET
 * /api/memories/{id} would send to the same browser), so the page paints without asking for it.
 */
export const PAGE_MEMORY_SCRIPT_ID = "page-memory";

/** Beside it, whose memory it is (what GET /api/memories/{id}/owner would send the same browser). */
export const PAGE_MEMORY_OWNER_SCRIPT_ID = "page-memory-owner";

/**
 * The id of the JSON data block in a logged-out browser's page holding what GET /api/shared-with-me
 * would send it, so a relative's top bar never offers Log in while it waits for the answer.
 */
export const SHARED_WITH_ME_SCRIPT_ID = "shared-with-me";

/**
 * The id of the JSON data block in a page that speaks a language of its own (a storyteller's
 * recording link: the member's language, else the journal's), which the page speaks over the
 * account's, the browser's choice and the browser's own.
 */
export const PAGE_LANGUAGE_SCRIPT_ID = "page-language";

export const MEMORY_STATUSES = ["processing", "saved", "failed"] as const;
/** Pipeline stages, in order; each has a progress notice in the browser. */
export const PIPELINE_STAGES = ["transcribe", "summarize", "score", "tag", "save"] as const;
export const COMMENT_STATUSES = ["processing", "saved", "failed"] as const;

/**
 * A download route (backup zip, memory book) given this request header runs its checks and answers
 * 204 or the usual JSON error without building the file: the client asks first, then navigates to
 * the same URL so the browser saves the stream to disk.
 */
export const DOWNLOAD_CHECK_HEADER = "x-download-check";

/** Share links one account may hold: more than any family needs; stops one account from filling the table. */
export const SHARE_LINKS_PER_USER = 100;
