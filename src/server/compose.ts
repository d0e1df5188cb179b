import { statfs } from "node:fs/promises";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { AiProviders } from "./ai/ai";
import { betterSpeechAvailable, createAi } from "./ai/ai-factory";
import { withCleanText } from "./ai/provider-text";
import { ModelFetcher } from "./ai/whisper/model-fetcher";
import { isModelName, type ModelEntry, WHISPER_MODELS } from "./ai/whisper/whisper-models";
import { AudioRepo } from "./audio/audio.repo";
import { type AttachmentVisibility, AudioService } from "./audio/audio.service";
import { AuthService } from "./auth/auth.service";
import { ResetTokensRepo } from "./auth/reset-tokens.repo";
import { SessionService } from "./auth/session.service";
import { SessionsRepo } from "./auth/sessions.repo";
import { transcribeCommentHandler } from "./comments/comments.jobs";
import { CommentsRepo, RepliesRepo } from "./comments/comments.repo";
import { CommentsService, TRANSCRIBE_COMMENT_JOB } from "./comments/comments.service";
import { RepliesService, STORYTELLER_REPLIES_JOB } from "./comments/replies.service";
import { type Config, publicAppUrl } from "./config";
import type { DatabaseHandle } from "./db/connection";
import { type Executor, Transactions } from "./db/transactions";
import { HealthService } from "./health/health.service";
import { createHousekeeping } from "./housekeeping/housekeeping";
import { JobsRepo } from "./jobs/jobs.repo";
import { JobWorker } from "./jobs/worker";
import { FamilyQuestionsRepo } from "./journals/family-questions.repo";
import {
  FAMILY_QUESTION_ANSWERED_JOB,
  FamilyQuestionsService,
} from "./journals/family-questions.service";
import { accountOfOwnJournal, JournalsRepo } from "./journals/journals.repo";
import { JournalsService } from "./journals/journals.service";
import { QUESTION_MAIL_JOB, QuestionMailService } from "./journals/question-mail.service";
import { RecordingLinksService } from "./journals/recording-links.service";
import { createMailer, type Mailer } from "./mail/mailer";
import { MemoriesRepo, type MemoryRow } from "./memories/memories.repo";
import { MemoriesService } from "./memories/memories.service";
import { MemoriesBackup } from "./memories/memories-backup";
import { MemoriesRestore } from "./memories/memories-restore";
import { MemoryBook } from "./memories/memory-book";
import { MemoryPipeline, PROCESS_MEMORY_JOB } from "./memories/memory-pipeline";
import { MemoryProcessingService } from "./memories/memory-processing.service";
import { TranscriptsService } from "./memories/transcripts.service";
import { countStorageErrors, timeAiCalls } from "./metrics/instrument";
import { Metrics } from "./metrics/metrics";
import { PhotosRepo } from "./photos/photos.repo";
import { PhotosService } from "./photos/photos.service";
import { RateLimitCounters } from "./rate-limit-store";
import { QuestionsRepo } from "./reminders/questions.repo";
import { QuestionsService } from "./reminders/questions.service";
import { RemindersRepo } from "./reminders/reminders.repo";
import { RemindersService } from "./reminders/reminders.service";
import { Scheduler } from "./scheduler";
import { sealedBox } from "./secrets/sealed-box";
import { ServerSecretsRepo } from "./secrets/server-secrets.repo";
import { RELATIVE_NEWS_JOB, RelativeNewsService } from "./share-links/relative-news.service";
import { ShareLinkSubscriptionsRepo } from "./share-links/share-link-subscriptions.repo";
import { ShareLinksRepo } from "./share-links/share-links.repo";
import { ShareLinksService } from "./share-links/share-links.service";
import type { AudioStorage } from "./storage/audio-storage";
import type { StoredFileOwner } from "./storage/stored-files";
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
  /**
   * The size and checksums a downloaded Whisper model must have, instead of WHISPER_MODELS' pin
   * for WHISPER_MODEL: tests serve a generated model and pin it here (the check always runs).
   */
  whisperPin?: ModelEntry;
}

export type Services = ReturnType<typeof createServices>;

/** Indexes every memory for search afresh (`npm run search-index -- rebuild`); how many. */
export function rebuildSearchIndex(database: DatabaseHandle): Promise<number> {
  return new MemoriesRepo(database.db, database.kind).rebuildSearchIndex();
}

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

  const usersRepo = new UsersRepo(db, database.kind);
  const journalsRepo = new JournalsRepo(db);
  const users = new UsersService(usersRepo);
  const sessionsRepo = new SessionsRepo(db);
  const sessions = new SessionService(sessionsRepo, config);
  const mailer = deps.mailer ?? createMailer(config, log);
  const resetTokens = new ResetTokensRepo(db);
  const auth = new AuthService({
    users: usersRepo,
    resetTokens,
    transactions,
    sessions,
    mailer,
    log,
  });
  const journals = new JournalsService({ repo: journalsRepo, transactions, mailer });
  const familyQuestions = new FamilyQuestionsService({
    repo: new FamilyQuestionsRepo(db),
    journals: journalsRepo,
    users,
    jobs,
    mailer,
    appUrl: () => config.APP_URL ?? publicAppUrl(config),
  });
  const secrets = new ServerSecretsRepo(db);
  const memoriesRepo = new MemoriesRepo(db, database.kind);
  const shareLinksRepo = new ShareLinksRepo(db);
  const journalLanguage = async (journalId: string) =>
    (await journalsRepo.findById(journalId))?.language;
  // Revoking a link deletes its addresses by the foreign key's cascade (migration 0017).
  const relativeNews = new RelativeNewsService({
    repo: new ShareLinkSubscriptionsRepo(db),
    jobs,
    links: shareLinksRepo,
    memories: memoriesRepo,
    users,
    storytellerNames: (memberIds) => journalsRepo.names(memberIds),
    answeredQuestions: (memoryIds) => familyQuestions.answeredBy(memoryIds),
    journalLanguage,
    mailer,
    secrets,
    // Without APP_URL, the address each link was made at (remembered with it).
    linkBase: (remembered) => config.APP_URL ?? remembered ?? publicAppUrl(config),
    digestMinutes: config.RELATIVE_DIGEST_MINUTES,
    log,
  });
  // Deleting an account deletes its links by the foreign key's cascade (migration 0005).
  const shareLinks = new ShareLinksService({
    repo: shareLinksRepo,
    users,
    mailer,
    secrets,
    news: relativeNews,
    journalLanguage,
    log,
  });
  const audio = new AudioService(new AudioRepo(db), storage);

  // A memory's photos: owner-only changes, seen by whoever may see the memory.
  const photos = new PhotosService(new PhotosRepo(db, database.kind), storage, transactions, {
    assertOwner: async (memoryId, identity) => {
      await memories.getOwnedRow(memoryId, identity);
    },
    assertMayAdd: (memoryId, identity) => memories.assertMayAddPhoto(memoryId, identity),
    isVisible: (memoryId, identity) => memories.isVisible(memoryId, identity),
  });

  const memories: MemoriesService = new MemoriesService(
    memoriesRepo,
    users,
    audio,
    // A memory's comments are deleted with it (the comments feature owns them).
    { deleteForMemories: (memoryIds, trx) => comments.deleteForMemories(memoryIds, trx) },
    photos,
    {
      // Public when the account that made it made its profile public.
      isPublic: async (journalId) => {
        const maker = accountOfOwnJournal(journalId);
        return maker ? ((await users.getUser(maker))?.isPublic ?? false) : false;
      },
      storytellerNames: (memberIds) => journalsRepo.names(memberIds),
    },
    transactions,
  );
  const commentsRepo = new CommentsRepo(db);
  // A reply reaches the storyteller who told the story: a mark until heard, and a mail.
  // Recording links are sealed beside their hash (ADR 0064): the card, the weekly mail and the
  // replies mail of a storyteller without an account read them.
  const recordingLinkBox = sealedBox(secrets, "recording-links");
  const replies = new RepliesService({
    repo: new RepliesRepo(db),
    memories: memoriesRepo,
    visible: memories,
    journals: journalsRepo,
    users,
    jobs,
    mailer,
    secrets,
    recordingLinks: recordingLinkBox,
    appUrl: () => config.APP_URL ?? publicAppUrl(config),
    digestMinutes: config.RELATIVE_DIGEST_MINUTES,
    log,
  });
  const comments: CommentsService = new CommentsService(
    commentsRepo,
    memories,
    audio,
    jobs,
    transactions,
    replies,
  );

  /** Who may hear an attached upload: whoever may see the memory it belongs to. */
  const mayHear: AttachmentVisibility = async (attachment, identity) => {
    const memoryId =
      attachment.kind === "memory" ? attachment.id : await comments.memoryIdOf(attachment.id);
    return memoryId !== null && memories.isVisible(memoryId, identity);
  };

  const providers = deps.ai ?? createAi(config);
  // Provider text is cleaned of control characters before anything checks or stores it.
  const ai = timeAiCalls(withCleanText(providers), metrics);
  // The local provider's Whisper model, fetched in the background when it is missing (ADR 0040).
  const modelFetcher =
    config.aiProvider === "local" &&
    config.WHISPER_AUTO_DOWNLOAD &&
    isModelName(config.WHISPER_MODEL)
      ? new ModelFetcher({
          name: config.WHISPER_MODEL,
          entry: deps.whisperPin ?? WHISPER_MODELS[config.WHISPER_MODEL],
          dataDir: config.dataDir,
          host: config.WHISPER_MODEL_HOST,
          log,
        })
      : null;
  /**
   * A memory was saved, in the transaction that saves it: the relatives its journal's share links
   * reach get news, and whoever asked the family question it answers hears of it.
   */
  const memorySaved = async (memory: MemoryRow, trx: Executor) => {
    if (memory.journal_id) await relativeNews.queue(memory.journal_id, trx);
    await familyQuestions.memorySaved(memory, trx);
  };
  const worker = new JobWorker(
    jobs,
    {
      [PROCESS_MEMORY_JOB]: new MemoryPipeline(memoriesRepo, audio, ai, {
        log,
        onStage: (stage, outcome, seconds) => metrics.stageFinished(stage, outcome, seconds),
        hasPhotos: async (memoryId) => (await photos.forMemories([memoryId])).has(memoryId),
        onSaved: { transactions, run: memorySaved },
      }),
      [TRANSCRIBE_COMMENT_JOB]: transcribeCommentHandler({
        comments: commentsRepo,
        audio,
        transcriber: ai.transcriber,
      }),
      [STORYTELLER_REPLIES_JOB]: {
        run: (memberId) => replies.send(memberId),
        // Tried again after a window: a reply's news waits for the mail server.
        giveUp: (memberId) => replies.requeue(memberId),
      },
      [FAMILY_QUESTION_ANSWERED_JOB]: {
        run: (questionId) => familyQuestions.tellAsker(questionId),
      },
      // Declared below with the reminders it shares its schedule with; called once jobs run.
      [QUESTION_MAIL_JOB]: { run: (target) => questionMail.send(target) },
      [RELATIVE_NEWS_JOB]: {
        run: (journalId, _job, signal) => relativeNews.send(journalId, signal),
        // Tried again after a window, and so on until it goes: news is never dropped.
        giveUp: (journalId) => relativeNews.queue(journalId),
      },
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
    memorySaved,
  );
  const transcripts = new TranscriptsService({
    repo: memoriesRepo,
    memories,
    jobs,
    transactions,
    betterSpeech: () => betterSpeechAvailable(providers),
    onQueued: () => worker.notify(),
  });
  const backup = new MemoriesBackup(
    memoriesRepo,
    comments,
    audio,
    photos,
    { storytellerNames: (memberIds) => journalsRepo.names(memberIds) },
    storage,
    log,
  );
  const restore = new MemoriesRestore(
    memoriesRepo,
    comments,
    audio,
    photos,
    journalsRepo,
    transactions,
    {
      tempDir: path.join(config.dataDir, "tmp"),
      maxBytes: config.RESTORE_MAX_BYTES,
      maxAudioBytes: config.UPLOAD_MAX_BYTES,
      maxPhotoBytes: config.PHOTO_MAX_BYTES,
    },
    log,
  );
  const account = new AccountService({ users, auth, memories, journals, audio, transactions });
  const book = new MemoryBook(memoriesRepo, {
    shareLinkFor: (organizer, base) => shareLinks.bookLink(organizer, base),
    // A chapter per storyteller: their names for each batch, in one query.
    storytellers: async (rows) => {
      const ids = rows.flatMap((row) => (row.storyteller_id ? [row.storyteller_id] : []));
      const names = await journalsRepo.names(ids);
      return new Map(
        rows.flatMap((row) => {
          const name = names.get(row.storyteller_id ?? "");
          return name ? [[row.id, name] as const] : [];
        }),
      );
    },
    photos,
  });
  const questions = new QuestionsService(new QuestionsRepo(db));
  const reminders = new RemindersService(
    new RemindersRepo(db),
    { secrets, users, questions, mailer, log },
    // Without APP_URL, the address the owner last saved their reminders at (remembered with them).
    { linkBase: (remembered) => config.APP_URL ?? remembered ?? publicAppUrl(config) },
  );
  const questionMail = new QuestionMailService({
    repo: journalsRepo,
    jobs,
    box: recordingLinkBox,
    users,
    reminderTimeZone: async (userId) => {
      const settings = await reminders.get(userId);
      return settings.saved ? settings.weekly.timeZone : null;
    },
    questions,
    familyQuestions,
    mailer,
    // Without APP_URL, the address an organizer chose the schedule at.
    linkBase: (remembered) => config.APP_URL ?? remembered ?? publicAppUrl(config),
    log,
  });
  const recordingLinks = new RecordingLinksService({
    repo: journalsRepo,
    processing,
    memories,
    questions,
    familyQuestions,
    questionMail,
    box: recordingLinkBox,
    audio,
    mayHear,
    replies,
    comments,
    photos,
  });

  const rateLimitCounters = new RateLimitCounters(db);
  const housekeeping = createHousekeeping({
    sessions: sessionsRepo,
    resetTokens,
    jobs,
    counters: rateLimitCounters,
    config,
    logger: log,
    extraTasks: [
      { name: "partial uploads", sweep: (now) => deps.storage.sweepTemporaryFiles(now) },
      { name: "interrupted restores", sweep: (now) => restore.sweepLeftovers(now) },
      {
        // An occurrence only has to outlive its local day (ADR 0020); a month is ample.
        name: "old reminder occurrences",
        sweep: (now) => reminders.sweepOccurrences(new Date(now.getTime() - 30 * 86_400_000)),
      },
      {
        name: "unattached uploads",
        sweep: (now) =>
          audio.sweepUnattached(
            new Date(now.getTime() - config.UNATTACHED_UPLOAD_RETENTION_HOURS * 3_600_000),
          ),
      },
    ],
  });
  // All background work of the instance; main.ts starts it once the app listens.
  const scheduler = new Scheduler(
    [
      {
        name: "housekeeping",
        everyMs: config.HOUSEKEEPING_INTERVAL_MINUTES * 60_000,
        run: (now) => housekeeping.runOnce(now),
      },
      {
        // Reminders are kept in the database (ADR 0020): a restart neither loses nor repeats one.
        name: "reminder check",
        everyMs: config.REMINDER_CHECK_SECONDS * 1000,
        run: (now) => reminders.sendDue(now),
      },
      {
        // The weekly question by mail (ADR 0064): queued as jobs, sent by whichever worker takes them.
        name: "weekly question mail",
        everyMs: config.REMINDER_CHECK_SECONDS * 1000,
        run: (now) => questionMail.queueDue(now),
      },
      ...(modelFetcher
        ? [
            {
              // Does nothing once the model is there; retries with backoff after a failure.
              name: "whisper model download",
              everyMs: 60_000,
              run: (now: Date, signal: AbortSignal) => modelFetcher.runOnce(now, signal),
            },
          ]
        : []),
    ],
    log,
  );

  return {
    config,
    database,
    users,
    sessions,
    auth,
    journals,
    familyQuestions,
    recordingLinks,
    questionMail,
    /** What every request's identity reads besides its session (plugins/identity.ts). */
    identitySources: { shareLinks, journals: journalsRepo },
    shareLinks,
    relativeNews,
    audio,
    mayHear,
    photos,
    memories,
    comments,
    replies,
    processing,
    transcripts,
    backup,
    restore,
    account,
    book,
    questions,
    reminders,
    worker,
    metrics,
    /**
     * The rows of every kind of stored file: the instance check and backup walk these, and treat a
     * file none of them names as left over. A feature that stores files adds its owner here.
     */
    storedFiles: [audio, photos] as StoredFileOwner[],
    health: new HealthService({
      database,
      storage,
      jobs,
      freeDiskBytes: async () => {
        const disk = await statfs(config.dataDir);
        return disk.bavail * disk.bsize;
      },
      minFreeDiskBytes: config.UPLOAD_MAX_BYTES,
    }),
    rateLimitCounters,
    scheduler,
    /** Fetches the local provider's missing Whisper model; a task of `scheduler` (null: off). */
    modelFetcher,
    /** Stops the worker (jobs in hand keep their lease) and waits for mail being sent. */
    async close(): Promise<void> {
      await worker.stop();
      await auth.drain();
    },
  };
}
