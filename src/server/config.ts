import { existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_MODEL_HOST } from "./ai/whisper/whisper-models";
import type { S3StorageSettings } from "./storage/s3-storage";

/** `s3://bucket` or `s3://bucket/some/prefix` (bucket names as S3 allows them: 3 to 63 characters). */
const S3_STORAGE_URL = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(\/.*)?$/;

const booleanFromEnv = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const positiveInt = z.coerce.number().int().positive();

const configSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .refine((v) => v === "" || /^postgres(ql)?:\/\//.test(v) || v.startsWith("sqlite:"), {
      message: "must be a postgres:// URL, a sqlite: path, or empty for the default SQLite file",
    })
    .default(""),
  APP_URL: z.url().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  COOKIE_SECURE: z.enum(["auto", "true", "false"]).default("auto"),
  TRUST_PROXY: booleanFromEnv.default(false),
  SESSION_IDLE_DAYS: z.coerce.number().positive().default(30),
  SESSION_MAX_DAYS: z.coerce.number().positive().default(90),
  UPLOAD_MAX_BYTES: positiveInt.default(50 * 1024 * 1024),
  /** Largest photo accepted (ADR 0043); bigger ones get 413 and nothing is kept. */
  PHOTO_MAX_BYTES: positiveInt.default(20 * 1024 * 1024),
  FEATURE_REQUEST_CONTACT: z.string().default("mailto:hello@example.com"),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Voice Memory Journal <no-reply@localhost>"),
  RATE_LIMIT_AUTH_PER_MINUTE: positiveInt.default(10),
  /** Log-ins per username, and reset requests per email, from all addresses together. */
  RATE_LIMIT_AUTH_PER_ACCOUNT_PER_HOUR: positiveInt.default(100),
  RATE_LIMIT_UPLOAD_PER_HOUR: positiveInt.default(60),
  RATE_LIMIT_PHOTOS_PER_HOUR: positiveInt.default(120),
  RATE_LIMIT_PROCESS_PER_HOUR: positiveInt.default(30),
  /** However many visitor cookies or accounts one address uses. */
  RATE_LIMIT_PROCESS_PER_DAY_PER_IP: positiveInt.default(100),
  RATE_LIMIT_COMMENTS_PER_HOUR: positiveInt.default(20),
  /** Share links opened (`/s/<token>`) per address per minute: guessing stays hopeless. */
  RATE_LIMIT_SHARE_OPEN_PER_MINUTE: positiveInt.default(20),
  /** Share links made (and mailed) per account per hour. */
  RATE_LIMIT_SHARE_LINKS_PER_HOUR: positiveInt.default(30),
  ANON_DAILY_RECORDINGS: z.coerce.number().int().nonnegative().default(20),
  CLAIM_WINDOW_HOURS: z.coerce.number().positive().default(168),
  AI_PROVIDER: z.enum(["openai", "local"]).optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_TRANSCRIPTION_BASE_URL: z.url().optional(),
  OPENAI_TRANSCRIPTION_MODEL: z.string().min(1).default("whisper-1"),
  OPENAI_TEXT_MODEL: z.string().min(1).default("gpt-4o"),
  OPENAI_TIMEOUT_MS: positiveInt.default(10 * 60 * 1000),
  OPENAI_MAX_RETRIES: z.coerce.number().int().nonnegative().default(2),
  POCKETSPHINX_BIN: z.string().default("pocketsphinx_continuous"),
  /**
   * The Whisper model of the local provider: a name ("base", "tiny") under DATA_DIR/models, or a
   * path to a whisper.cpp model file. Without that file, transcription falls back to pocketsphinx.
   */
  WHISPER_MODEL: z.string().min(1).default("base"),
  /** whisper.cpp threads per transcription; defaults to the machine's cores (at most 8). */
  WHISPER_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  /** Time allowed per 10 minutes of audio before the engine is stopped and the job fails. */
  WHISPER_TIMEOUT_MS: positiveInt.default(10 * 60 * 1000),
  /** Where models are fetched from (the whisper.cpp model host), by the server and `npm run models`. */
  WHISPER_MODEL_HOST: z.url().default(DEFAULT_MODEL_HOST),
  /** The local provider fetches a missing WHISPER_MODEL (base, tiny) in the background at start-up. */
  WHISPER_AUTO_DOWNLOAD: booleanFromEnv.default(true),
  WORKER_CONCURRENCY: z.coerce.number().int().min(0).max(16).default(1),
  /** A job whose worker stops renewing its claim (crash, kill) is taken again after this. */
  JOB_LEASE_MS: z.coerce.number().int().min(100).default(60_000),
  /** How often expired and finished rows are deleted (and once at start-up); 0 turns it off. */
  HOUSEKEEPING_INTERVAL_MINUTES: z.coerce.number().nonnegative().default(60),
  /** Jobs that finished are kept this long (for diagnosis), then deleted. */
  FINISHED_JOB_RETENTION_DAYS: z.coerce.number().positive().default(7),
  /** Jobs that failed for good keep their last error this long. */
  FAILED_JOB_RETENTION_DAYS: z.coerce.number().positive().default(30),
  /**
   * An upload never attached to a memory or comment is deleted, with its file, after this. Longer
   * than CLAIM_WINDOW_HOURS and the recorder's retries (checked by the housekeeping factory).
   */
  UNATTACHED_UPLOAD_RETENTION_HOURS: z.coerce.number().positive().default(192),
  /** On a signal or a crash, the process ends this long after shutdown began, finished or not. */
  SHUTDOWN_GRACE_MS: positiveInt.default(8000),
  /** How often due reminder mails are looked for (and once at start-up); 0 turns sending off. */
  REMINDER_CHECK_SECONDS: z.coerce.number().nonnegative().default(60),
  /**
   * Relatives' news (ADR 0044): a relative is mailed new memories at most once in this many
   * minutes, once the oldest of them is this old (fractions allowed); checked with the reminders.
   */
  RELATIVE_DIGEST_MINUTES: z.coerce.number().positive().default(60),
  /** Where audio lives: `file:` (DATA_DIR/audio) or `s3://bucket/optional/prefix`. */
  STORAGE_URL: z
    .string()
    .refine((v) => v === "file:" || S3_STORAGE_URL.test(v), {
      message: "must be 'file:' (audio under DATA_DIR/audio) or s3://bucket/optional/prefix",
    })
    .default("file:"),
  /** Any S3-compatible service (MinIO, Garage, R2, B2); AWS when absent. */
  S3_ENDPOINT: z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Path-style URLs (endpoint/bucket/key), which MinIO and most self-hosted services need. */
  S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
  /** How long connecting to the bucket may take before the call counts as unreachable. */
  S3_CONNECT_TIMEOUT_MS: positiveInt.default(5000),
  /**
   * How long a bucket call may go without a byte moving either way (a hung server) before it
   * counts as unreachable; a slow but moving transfer never hits it.
   */
  S3_REQUEST_TIMEOUT_MS: positiveInt.default(10_000),
  /**
   * Turns on `GET /metrics` (Prometheus), which then requires it as a bearer token; unset, the
   * route does not exist (404). Long and random, as it guards what the server is doing.
   */
  METRICS_TOKEN: z
    .string()
    .min(16, "must be at least 16 characters (for example the output of `openssl rand -hex 32`)")
    .optional(),
  /** Largest backup zip `POST /api/restore` accepts (separate from UPLOAD_MAX_BYTES). */
  RESTORE_MAX_BYTES: positiveInt.default(4 * 1024 * 1024 * 1024),
});

export type RawConfig = z.infer<typeof configSchema>;

export interface Config extends RawConfig {
  dataDir: string;
  audioDir: string;
  database: { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };
  aiProvider: "openai" | "local";
  storage: { kind: "local"; dir: string } | ({ kind: "s3" } & S3StorageSettings);
}

export class ConfigError extends Error {}

/** Parses the environment once; a bad value throws a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const clean = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = configSchema.safeParse(clean);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join(".") || "(environment)"}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const raw = parsed.data;
  const dataDir = path.resolve(raw.DATA_DIR);
  const database: Config["database"] = /^postgres(ql)?:\/\//.test(raw.DATABASE_URL)
    ? { kind: "postgres", url: raw.DATABASE_URL }
    : {
        kind: "sqlite",
        file: raw.DATABASE_URL.startsWith("sqlite:")
          ? path.resolve(raw.DATABASE_URL.slice("sqlite:".length))
          : path.join(dataDir, "journal.db"),
      };
  if (raw.AI_PROVIDER === "openai" && !raw.OPENAI_API_KEY && !raw.OPENAI_BASE_URL) {
    throw new ConfigError(
      "Invalid configuration:\n  AI_PROVIDER: 'openai' needs OPENAI_API_KEY (or OPENAI_BASE_URL for a self-hosted server)",
    );
  }
  const audioDir = path.join(dataDir, "audio");
  return {
    ...raw,
    dataDir,
    audioDir,
    storage: storageSettings(raw, audioDir),
    database,
    aiProvider: raw.AI_PROVIDER ?? (raw.OPENAI_API_KEY ? "openai" : "local"),
  };
}

function storageSettings(raw: RawConfig, audioDir: string): Config["storage"] {
  const match = S3_STORAGE_URL.exec(raw.STORAGE_URL);
  if (!match?.[1]) return { kind: "local", dir: audioDir };
  if (Boolean(raw.S3_ACCESS_KEY_ID) !== Boolean(raw.S3_SECRET_ACCESS_KEY)) {
    const missing = raw.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID";
    throw new ConfigError(
      `Invalid configuration:\n  ${missing}: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the SDK's default credentials)`,
    );
  }
  const prefix = (match[2] ?? "").replace(/^\/+|\/+$/g, "");
  return {
    kind: "s3",
    bucket: match[1],
    prefix: prefix ? `${prefix}/` : "",
    endpoint: raw.S3_ENDPOINT,
    region: raw.S3_REGION,
    accessKeyId: raw.S3_ACCESS_KEY_ID,
    secretAccessKey: raw.S3_SECRET_ACCESS_KEY,
    forcePathStyle: raw.S3_FORCE_PATH_STYLE,
    connectTimeoutMs: raw.S3_CONNECT_TIMEOUT_MS,
    requestTimeoutMs: raw.S3_REQUEST_TIMEOUT_MS,
  };
}

/**
 * Where links in mail point. Never the request's Host header, which a client chooses: without
 * APP_URL, this machine on PORT (see `startupWarnings`).
 */
export function publicAppUrl(config: Pick<Config, "APP_URL" | "PORT">): string {
  return config.APP_URL ?? `http://localhost:${config.PORT}`;
}

/** A host as a Host or X-Forwarded-Host header may name it: a name or address and a port. */
const HOST_PATTERN = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * Where links built during `request` point (share links, their mail, the memory book's codes):
 * APP_URL when set; otherwise the address the person is actually using, from the request's Host
 * and protocol (X-Forwarded-Host and -Proto only with TRUST_PROXY, as Fastify reads them). Never
 * for password-reset mails, which use `publicAppUrl` alone.
 */
export function linkBaseOf(
  config: Pick<Config, "APP_URL" | "PORT">,
  request: { protocol: string; host: string },
): string {
  if (config.APP_URL) return config.APP_URL.replace(/\/+$/, "");
  const protocol = request.protocol === "https" ? "https" : "http";
  return HOST_PATTERN.test(request.host) ? `${protocol}://${request.host}` : publicAppUrl(config);
}

/** Network interfaces as `os.networkInterfaces()` answers them. */
type Interfaces = NodeJS.Dict<{ address: string; family: string; internal: boolean }[]>;

/**
 * Where to open the app, for the first line the server prints ("Open http://..."): APP_URL when
 * set; else this machine on PORT at HOST, or, listening on every interface, its first network
 * address (the one a phone on the same network reaches), localhost when it has none.
 */
export function openAddress(
  config: Pick<Config, "APP_URL" | "PORT" | "HOST">,
  interfaces: Interfaces,
): string {
  if (config.APP_URL) return config.APP_URL.replace(/\/+$/, "");
  let host = config.HOST;
  if (host === "0.0.0.0" || host === "::") {
    const external = Object.values(interfaces)
      .flatMap((list) => list ?? [])
      .find((entry) => entry.family === "IPv4" && !entry.internal);
    host = external?.address ?? "localhost";
  }
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.PORT}`;
}

/** Things an operator should fix, for main.ts to log once at start-up. */
export function startupWarnings(config: Pick<Config, "APP_URL" | "PORT">): string[] {
  const warnings: string[] = [];
  if (!config.APP_URL) {
    warnings.push(
      `APP_URL is not set: share links point to the address the journal is opened at, and password-reset links to ${publicAppUrl(config)}. Set APP_URL to the address people open the journal at (for example https://journal.example.org).`,
    );
  }
  return warnings;
}

/** Reads `.env` from the working directory into process.env when present (never overriding). */
export function loadDotEnv(file = ".env"): void {
  if (existsSync(file)) process.loadEnvFile(file);
}
