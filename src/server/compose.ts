import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { AiProviders } from "./ai/ai";
import { createAi } from "./ai/ai-factory";
import { AudioRepo } from "./audio/audio.repo";
import { type AttachmentVisibility, AudioService } from "./audio/audio.service";
import { AuthService } from "./auth/auth.service";
import { SessionService } from "./auth/session.service";
import { SessionsRepo } from "./auth/sessions.repo";
import { transcribeCommentHandler } from "./comments/comments.jobs";
import { CommentsRepo } from "./comments/comments.repo";
import { CommentsService, TRANSCRIBE_COMMENT_JOB } from "./comments/comments.service";
import { type Config, publicAppUrl } from "./config";
import type { DatabaseHandle } from "./db/connection";
import { Transactions } from "./db/transactions";
import { HealthService } from "./health/health.service";
import { JobsRepo } from "./jobs/jobs.repo";
import { JobWorker } from "./jobs/worker";
import { createMailer, type Mailer } from "./mail/mailer";
import { MemoriesRepo } from "./memories/memories.repo";
import { MemoriesService } from "./memories/memories.service";
import { MemoriesBackup } from "./memories/memories-backup";
import { MemoriesRestore } from "./memories/memories-restore";
import { MemoryBook } from "./memories/memory-book";
import { MemoryPipeline, PROCESS_MEMORY_JOB } from "./memories/memory-pipeline";
import { MemoryProcessingService } from "./memories/memory-processing.service";
import { countStorageErrors, timeAiCalls } from "./metrics/instrument";
import { Metrics } from "./metrics/metrics";
import { RateLimitCounters } from "./rate-limit-store";
import { QuestionsRepo } from "./reminders/questions.repo";
import { QuestionsService } from "./reminders/questions.service";
import { RemindersRepo } from "./reminders/reminders.repo";
import { RemindersService } from "./reminders/reminders.service";
import { ServerSecretsRepo } from "./secrets/server-secrets.repo";
import { ShareLinksRepo } from "./share-links/share-links.repo";
import { ShareLinksService } from "./share-links/share-links.service";
import type { AudioStorage } from "./storage/audio-storage";
import { AccountService } from "./users/account.service";
import { UsersRepo } from "./users/users.repo";
import { UsersService } from "./users/users.service";

/** What the server is made of, before any HTTP: main.ts and the tests build it here. */
export interface ServiceDeps {
  config: Config;
  database: DatabaseHandle;
  storage: AudioStorage;
  log: FastifyBaseLogger;
  /** The AI providers; chosen from the configuration when absent. */
  ai?: AiProviders;
  /** Defaults to SMTP when SMTP_URL is set, else the DATA_DIR/outbox folder. */
  mailer?: Mailer;
}

export type Services = ReturnType<typeof createServices>;

/**
 * The composition function: every repository and service, built once. Each repository is the
 * only code touching its table; services reach other features through their services, and
 * writes that span features go through `transactions`.
 */
export function createServices(deps: ServiceDeps) {
  const { config, database, log } = deps;
  const db = database.db;
  const transactions = new Transactions(db);
  const jobs = new JobsRepo(db, database.kind);
  // One registry per instance; Node's own metrics only when METRICS_TOKEN lets someone read them.
  const metrics = new Metrics({
    queueStats: () => jobs.queueStats(),
    nodeDefaults: config.METRICS_TOKEN !== undefined,
  });
  const storage = countStorageErrors(deps.storage, metrics);

  const users = new UsersService(new UsersRepo(db, database.kind));
  const sessions = new SessionService(new SessionsRepo(db), config);
  const mailer = deps.mailer ?? createMailer(config, log);
  const auth = new AuthService({ db, transactions, sessions, mailer, log });
  // Deleting an account deletes its links by the foreign key's cascade (migration 0005).
  const shareLinks = new ShareLinksService({
    repo: new ShareLinksRepo(db),
    users,
    mailer,
    appUrl: publicAppUrl(config),
    log,
  });
  const audio = new AudioService(new AudioRepo(db), storage);

  const memoriesRepo = new MemoriesRepo(db, database.kind);
  const memories: MemoriesService = new MemoriesService(
    memoriesRepo,
    users,
    audio,
    // A memory's comments are deleted with it (the comments feature owns them).
    {
      deleteForMemory: (memoryId, trx) => comments.deleteForMemory(memoryId, trx),
      deleteForMemories: (memoryIds, trx) => comments.deleteForMemories(memoryIds, trx),
    },
    transactions,
  );
  const commentsRepo = new CommentsRepo(db);
  const comments: CommentsService = new CommentsService(
    commentsRepo,
    memories,
    audio,
    jobs,
    transactions,
  );

  /** Who may hear an attached upload: whoever may see the memory it belongs to. */
  const mayHear: AttachmentVisibility = async (attachment, identity) => {
    const memoryId =
      attachment.kind === "memory" ? attachment.id : await comments.memoryIdOf(attachment.id);
    return memoryId !== null && memories.isVisible(memoryId, identity);
  };

  const ai = timeAiCalls(deps.ai ?? createAi(config), metrics);
  const worker = new JobWorker(
    jobs,
    {
      [PROCESS_MEMORY_JOB]: new MemoryPipeline(memoriesRepo, audio, ai, {
        log,
        onStage: (stage, outcome, seconds) => metrics.stageFinished(stage, outcome, seconds),
      }),
      [TRANSCRIBE_COMMENT_JOB]: transcribeCommentHandler({
        comments: commentsRepo,
        audio,
        transcriber: ai.transcriber,
      }),
    },
    {
      concurrency: config.WORKER_CONCURRENCY,
      leaseMs: config.JOB_LEASE_MS,
      logger: log,
      observer: metrics,
    },
  );
  const processing = new MemoryProcessingService(
    memoriesRepo,
    memories,
    jobs,
    audio,
    transactions,
    config,
    () => worker.notify(),
  );
  const backup = new MemoriesBackup(memoriesRepo, comments, audio, storage, log);
  const restore = new MemoriesRestore(
    memoriesRepo,
    comments,
    audio,
    transactions,
    {
      tempDir: path.join(config.dataDir, "tmp"),
      maxBytes: config.RESTORE_MAX_BYTES,
      maxAudioBytes: config.UPLOAD_MAX_BYTES,
    },
    log,
  );
  const account = new AccountService({ users, auth, memories, audio, transactions });
  const book = new MemoryBook(memoriesRepo, { appUrl: publicAppUrl(config) });
  const questions = new QuestionsService(new QuestionsRepo(db));
  const reminders = new RemindersService(
    new RemindersRepo(db),
    { secrets: new ServerSecretsRepo(db), users, questions, mailer, log },
    { appUrl: publicAppUrl(config) },
  );

  return {
    config,
    database,
    users,
    sessions,
    auth,
    shareLinks,
    audio,
    mayHear,
    memories,
    comments,
    processing,
    backup,
    restore,
    account,
    book,
    questions,
    reminders,
    worker,
    metrics,
    health: new HealthService({ database, storage, jobs }),
    rateLimitCounters: new RateLimitCounters(db),
    /** Stops the worker (jobs in hand keep their lease) and waits for mail being sent. */
    async close(): Promise<void> {
      await worker.stop();
      await auth.drain();
    },
  };
}
