import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, readdir, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { pipeline } from "node:stream/promises";
import type { FastifyBaseLogger } from "fastify";
import yauzl from "yauzl";
import { z } from "zod";
import { LANGUAGE_CODE_PATTERN, TEXT_MAX_LENGTH, TITLE_MAX_LENGTH } from "../../shared/constants";
import { MEMBER_NAME_MAX_LENGTH } from "../../shared/journals";
import { type ErrorCode, MESSAGES } from "../../shared/messages";
import { PHOTOS_PER_MEMORY } from "../../shared/photos";
import { QUESTION_MAX_LENGTH } from "../../shared/reminders";
import { normalizeScores, normalizeTags } from "../../shared/rules";
import { commenterNameSchema, PIPELINE_STAGES, type RestoreResult } from "../../shared/schemas";
import { cleanSegments, transcriptSegmentsSchema } from "../../shared/transcript";
import type { AudioService, ImportedAudio } from "../audio/audio.service";
import type { CommentRow } from "../comments/comments.repo";
import type { CommentsService } from "../comments/comments.service";
import { isUniqueViolation } from "../db/constraint-errors";
import { processingErrorCode } from "../db/migrations/0019-error-codes";
import { isDatabaseUnavailable } from "../db/postgres-pool";
import type { Transactions } from "../db/transactions";
import { badRequest, HttpError, tooLarge, tooManyRequests } from "../http-errors";
import { libraryQuestion } from "../i18n/questions";
import { newId } from "../ids";
import { type JournalsRepo, ownJournalId } from "../journals/journals.repo";
import type { ImportedPhoto, PhotosService } from "../photos/photos.service";
import { StorageUnavailableError } from "../storage/audio-storage";
import type { MemoriesRepo } from "./memories.repo";
import { BACKUP_FORMAT_VERSION, INDEX_FILE } from "./memories-backup";
import { segmentsJson } from "./memory-row";

/**
 * The layouts read: 1 named files by id, 2 by date and title beside index.html. Both list every
 * file's name in memories.json, which is all a restore follows.
 */
const READABLE_VERSIONS: readonly number[] = [1, BACKUP_FORMAT_VERSION];

/** memories.json larger than this is refused (a journal of ~20,000 long memories fits). */
const MANIFEST_MAX_BYTES = 128 * 1024 * 1024;
/**
 * Restores one instance runs at once; more answer 429. memories.json is parsed whole, which costs
 * about four times its size in memory, so this and MANIFEST_MAX_BYTES bound what restores hold.
 */
export const RESTORES_AT_ONCE = 2;
/** More entries than this is not a backup of ours. */
const MAX_ENTRIES = 500_000;
/** Audio is stored uncompressed in our backups; a compressed entry may not inflate beyond this. */
const MAX_COMPRESSION_RATIO = 50;

/**
 * A restore in progress touches its spooled zip this often; one untouched for SPOOL_STALE_MS
 * belongs to a process that died, and housekeeping removes it (a 4 GB zip must not wait a day).
 */
const SPOOL_TOUCH_MS = 60_000;
export const SPOOL_STALE_MS = 10 * 60_000;

/** A refused backup: its code, and what exactly was wrong for the log. */
const refuse = (code: ErrorCode, detail?: string) => badRequest(code, detail);

const backupAudioFields = {
  audioFile: z.string().max(300).nullable(),
  audioContentType: z.string().max(100).nullable(),
  audioBytes: z.number().int().nonnegative().nullable(),
  audioMissing: z.literal(true).optional(),
};

/** How a transcript was made; backups made before transcripts were timed have none. */
const transcriptionFields = {
  engine: z.string().max(100).nullable(),
  segments: transcriptSegmentsSchema,
};

const backupCommentSchema = z.object({
  id: z.string().min(1).max(100),
  commenterName: z.string().max(200),
  transcript: z.string().max(TEXT_MAX_LENGTH),
  createdAt: z.string().max(40),
  status: z.string().max(20),
  error: z.string().max(2000).nullable().optional(),
  /** A damaged transcription is dropped, not refused. */
  transcription: z.object(transcriptionFields).optional().catch(undefined),
  ...backupAudioFields,
});

const backupPhotoSchema = z.object({
  id: z.string().min(1).max(100),
  file: z.string().max(300).nullable(),
  bytes: z.number().int().nonnegative().nullable(),
  missing: z.literal(true).optional(),
});
const backupMemorySchema = z.object({
  id: z.string().min(1).max(100),
  title: z.string(),
  transcript: z.string(),
  summary: z.string(),
  scores: z.record(z.string(), z.unknown()),
  duration: z.number(),
  recordedAt: z.string(),
  tags: z.array(z.string()),
  status: z.string(),
  stage: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  /** Backups made before questions existed have none. */
  question: z.string().max(QUESTION_MAX_LENGTH).nullable().optional(),
  /** Backups made before languages were kept have none; an unknown form is dropped, not refused. */
  language: z.string().max(16).nullable().optional(),
  /** A damaged transcription is dropped, not refused. */
  transcription: z
    .object({ ...transcriptionFields, edited: z.boolean() })
    .optional()
    .catch(undefined),
  comments: z.array(backupCommentSchema).max(10_000),
  /** Backups made before photos existed have none. */
  photos: z.array(backupPhotoSchema).max(PHOTOS_PER_MEMORY).optional(),
  /** Who told it; backups made before family journals name no one (the restorer told it). */
  storyteller: z
    .object({ name: z.string().trim().min(1).max(MEMBER_NAME_MAX_LENGTH) })
    .nullish()
    .catch(null),
  ...backupAudioFields,
});
type BackupMemory = z.infer<typeof backupMemorySchema>;

const manifestSchema = z.object({
  version: z.number(),
  exportedAt: z.string(),
  userId: z.string(),
  memories: z.array(backupMemorySchema),
});

interface ZipEntries {
  zip: yauzl.ZipFile;
  byName: Map<string, yauzl.Entry>;
}

/** An entry name that stays inside the folder it is extracted to; anything else is hostile. */
function unsafeName(name: string): boolean {
  return (
    name.includes("\\") ||
    name.includes("\0") ||
    name.startsWith("/") ||
    /^[A-Za-z]:/.test(name) ||
    name.split("/").some((part) => part === "..")
  );
}

function isSymlink(entry: yauzl.Entry): boolean {
  // Unix mode in the high 16 bits of the external attributes (made by Unix zip tools).
  return ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;
}

/** Opens the zip and checks every entry of its central directory before anything is read. */
async function openChecked(file: string, maxTotalBytes: number): Promise<ZipEntries> {
  let zip: yauzl.ZipFile;
  try {
    // strictFileNames off: we refuse unsafe names ourselves with a clear message.
    zip = await yauzl.openPromise(file, {
      lazyEntries: true,
      autoClose: false,
      validateEntrySizes: true,
      strictFileNames: false,
    });
  } catch {
    // The zip library's own reason is not for the family (it names signatures and offsets).
    throw refuse("backup.not_a_zip");
  }
  const byName = new Map<string, yauzl.Entry>();
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on("error", (error: Error) =>
        reject(
          // yauzl itself refuses names that climb out or are absolute.
          /invalid relative path|absolute path/.test(error.message)
            ? refuse("backup.damaged", "an entry points outside the backup")
            : refuse("backup.damaged"),
        ),
      );
      zip.on("end", () => resolve());
      zip.on("entry", (entry: yauzl.Entry) => {
        const name = entry.fileName;
        let problem: string | null = null;
        if (unsafeName(name)) problem = `the entry "${name}" points outside the backup`;
        else if (isSymlink(entry)) problem = `the entry "${name}" is a symbolic link`;
        else if (entry.isEncrypted()) problem = `the entry "${name}" is encrypted`;
        else if (byName.has(name)) problem = `the entry "${name}" appears twice`;
        else if (
          entry.compressionMethod !== 0 &&
          entry.uncompressedSize > 1024 * 1024 &&
          entry.uncompressedSize > entry.compressedSize * MAX_COMPRESSION_RATIO
        ) {
          problem = `the entry "${name}" expands far beyond its compressed size`;
        }
        total += entry.uncompressedSize;
        if (!problem && total > maxTotalBytes) problem = "its contents are larger than allowed";
        if (!problem && byName.size >= MAX_ENTRIES) problem = "it holds too many files";
        if (problem) return reject(refuse("backup.damaged", problem));
        if (!name.endsWith("/")) byName.set(name, entry);
        zip.readEntry();
      });
      zip.readEntry();
    });
  } catch (error) {
    zip.close();
    throw error;
  }
  return { zip, byName };
}

/** The audio entries a memory and its comments refer to. */
function audioRefs(memory: BackupMemory): { file: string; bytes: number | null }[] {
  return [memory, ...memory.comments]
    .filter((item) => item.audioFile !== null)
    .map((item) => ({ file: item.audioFile as string, bytes: item.audioBytes }));
}

/** The photo entries a memory refers to, in its order (the cover first). */
function photoRefs(memory: BackupMemory): { file: string; bytes: number | null }[] {
  return (memory.photos ?? [])
    .filter((photo) => photo.file !== null)
    .map((photo) => ({ file: photo.file as string, bytes: photo.bytes }));
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  return buffer(await zip.openReadStreamPromise(entry));
}

/** Where a backup is restored: a journal, by one of its organizers (who tells what names no one). */
export interface RestoreInto {
  userId: string;
  journalId: string;
  memberId: string;
}

/**
 * A restored id that is the same each time this memory is restored into this journal
 * (idempotent); into an account's own journal, the same as before journals existed.
 */
function restoredId(into: RestoreInto, kind: string, originalId: string): string {
  const seed = into.journalId === ownJournalId(into.userId) ? into.userId : into.journalId;
  return createHash("sha256")
    .update(`${seed}\n${kind}\n${originalId}`)
    .digest("base64url")
    .slice(0, 22);
}

function validDate(value: string, fallback: string): string {
  const time = Date.parse(value);
  return Number.isNaN(time) ? fallback : new Date(time).toISOString();
}

/**
 * Restores a backup zip (made by `MemoriesBackup`) into an account. Everything is checked before
 * anything is written: the zip's entries (paths, links, sizes, compression), `memories.json`
 * (shape and version), and every audio file and photo (its bytes are audio or an image, its size is
 * the manifest's, no file the manifest does not list). Then each memory is imported whole or not
 * at all: its files are stored, and its row, its comments, photos and their audio rows commit in
 * one transaction.
 * A memory restored before into this account (or still there) is skipped.
 */
export class MemoriesRestore {
  /** Restores in progress in this instance. */
  private running = 0;

  constructor(
    private readonly repo: MemoriesRepo,
    private readonly comments: Pick<CommentsService, "importComment">,
    private readonly audio: Pick<
      AudioService,
      "verify" | "storeForImport" | "attachImported" | "discardImported"
    >,
    private readonly photos: Pick<
      PhotosService,
      "verifyImport" | "prepareImport" | "insertImported" | "discardImported"
    >,
    private readonly tellers: Pick<JournalsRepo, "storytellerNamed">,
    private readonly transactions: Transactions,
    private readonly options: {
      tempDir: string;
      maxBytes: number;
      maxAudioBytes: number;
      maxPhotoBytes: number;
    },
    private readonly log: Pick<FastifyBaseLogger, "warn"> = { warn() {} },
  ) {}

  /**
   * Spools the upload to a private temporary file (refusing it with 413 past the limit as it
   * streams), restores it into the journal and removes the file.
   */
  async restoreUpload(
    into: RestoreInto,
    source: Readable,
    wasTruncated: () => boolean,
  ): Promise<RestoreResult> {
    if (this.running >= RESTORES_AT_ONCE) {
      source.resume();
      throw tooManyRequests();
    }
    this.running++;
    try {
      return await this.spoolAndRestore(into, source, wasTruncated);
    } finally {
      this.running--;
    }
  }

  private async spoolAndRestore(
    into: RestoreInto,
    source: Readable,
    wasTruncated: () => boolean,
  ): Promise<RestoreResult> {
    await mkdir(this.options.tempDir, { recursive: true, mode: 0o700 });
    const file = path.join(this.options.tempDir, `.restore-${newId()}.zip`);
    const keepFresh = setInterval(() => {
      const now = new Date();
      utimes(file, now, now).catch(() => undefined);
    }, SPOOL_TOUCH_MS);
    const spool = createWriteStream(file, { mode: 0o600 });
    try {
      let bytes = 0;
      const limit = this.options.maxBytes;
      await pipeline(
        source,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            bytes += chunk.length;
            if (bytes > limit) throw tooLarge();
            yield chunk;
          }
        },
        spool,
      );
      if (wasTruncated()) throw tooLarge();
      return await this.restoreFile(into, file);
    } finally {
      clearInterval(keepFresh);
      // A body cut off early fails the pipeline while the file may still be opening (and so
      // created after an rm): remove it once the stream has closed.
      if (!spool.closed) await new Promise<void>((resolve) => spool.once("close", () => resolve()));
      await rm(file, { force: true });
    }
  }

  /**
   * Housekeeping: removes spooled zips a crashed process left behind (a restore in progress
   * touches its file every minute, so only files untouched for SPOOL_STALE_MS go).
   */
  async sweepLeftovers(now: Date): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.options.tempDir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names.filter((n) => n.startsWith(".restore-"))) {
      const file = path.join(this.options.tempDir, name);
      const info = await stat(file).catch(() => null);
      if (info && now.getTime() - info.mtimeMs > SPOOL_STALE_MS) {
        await rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }

  async restoreFile(into: RestoreInto, file: string): Promise<RestoreResult> {
    const { zip, byName } = await openChecked(file, this.options.maxBytes);
    try {
      const { version, memories } = await this.readManifest(zip, byName);
      // index.html is for the family to read; a restore leaves it aside.
      const unread = version >= 2 ? [INDEX_FILE] : [];
      await this.verifyFiles(zip, byName, memories, unread);
      const result: RestoreResult = { imported: 0, skipped: 0, failed: [] };
      for (const memory of memories) {
        const outcome = await this.importMemory(into, zip, byName, memory);
        if (outcome === "imported") result.imported++;
        else if (outcome === "skipped") result.skipped++;
        else result.failed.push({ id: memory.id, title: memory.title, reason: outcome.reason });
      }
      return result;
    } finally {
      zip.close();
    }
  }

  private async readManifest(
    zip: yauzl.ZipFile,
    byName: Map<string, yauzl.Entry>,
  ): Promise<{ version: number; memories: BackupMemory[] }> {
    const entry = byName.get("memories.json");
    if (!entry) throw refuse("backup.not_a_backup");
    if (entry.uncompressedSize > MANIFEST_MAX_BYTES)
      throw refuse("backup.invalid", "memories.json is too large");
    let json: unknown;
    try {
      json = JSON.parse((await readEntry(zip, entry)).toString("utf8"));
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw refuse("backup.invalid", "memories.json is not valid JSON");
    }
    const version = (json as { version?: unknown } | null)?.version;
    if (typeof version !== "number" || !READABLE_VERSIONS.includes(version)) {
      throw refuse(
        "backup.unknown_version",
        `unknown backup version ${JSON.stringify(version ?? null)} (this server reads versions ${READABLE_VERSIONS.join(", ")})`,
      );
    }
    const parsed = manifestSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      // The field, not zod's words for it.
      throw refuse("backup.invalid", `memories.json is not valid (${issue?.path.join(".")})`);
    }
    return { version: parsed.data.version, memories: parsed.data.memories };
  }

  /**
   * The dry run: every audio and photo entry is listed by the manifest (and the reverse), has the
   * size the manifest says, and is audio or a photo by its bytes, like an upload.
   */
  private async verifyFiles(
    zip: yauzl.ZipFile,
    byName: Map<string, yauzl.Entry>,
    memories: BackupMemory[],
    unread: readonly string[],
  ): Promise<void> {
    const listed = new Map<string, number | null>();
    const photos = new Set<string>();
    for (const memory of memories) {
      for (const ref of [...audioRefs(memory), ...photoRefs(memory)]) {
        if (listed.has(ref.file))
          throw refuse("backup.bad_file", `the file "${ref.file}" is listed twice`);
        listed.set(ref.file, ref.bytes);
      }
      for (const ref of photoRefs(memory)) photos.add(ref.file);
    }
    for (const name of byName.keys()) {
      if (name !== "memories.json" && !unread.includes(name) && !listed.has(name)) {
        throw refuse(
          "backup.bad_file",
          `the zip holds "${name}", which memories.json does not list`,
        );
      }
    }
    for (const [name, bytes] of listed) {
      const entry = byName.get(name);
      if (!entry)
        throw refuse(
          "backup.bad_file",
          `the audio file "${name}" listed in memories.json is missing`,
        );
      if (bytes !== null && entry.uncompressedSize !== bytes) {
        throw refuse(
          "backup.bad_file",
          `the file "${name}" has ${entry.uncompressedSize} bytes, not ${bytes}`,
        );
      }
      if (photos.has(name)) {
        if (entry.uncompressedSize > this.options.maxPhotoBytes) {
          throw refuse("backup.bad_file", `the photo "${name}" is larger than allowed`);
        }
        try {
          await this.photos.verifyImport(await readEntry(zip, entry));
        } catch (error) {
          const reason = error instanceof HttpError ? error.code : String(error);
          throw refuse("backup.bad_file", `"${name}" is not a usable photo (${reason})`);
        }
        continue;
      }
      try {
        await this.audio.verify(await zip.openReadStreamPromise(entry), this.options.maxAudioBytes);
      } catch (error) {
        const reason = error instanceof HttpError ? (error.detail ?? error.code) : String(error);
        throw refuse("backup.bad_file", `"${name}" is not a usable recording (${reason})`);
      }
    }
  }

  private async importMemory(
    into: RestoreInto,
    zip: yauzl.ZipFile,
    byName: Map<string, yauzl.Entry>,
    memory: BackupMemory,
  ): Promise<"imported" | "skipped" | { reason: string }> {
    const original = await this.repo.findById(memory.id);
    if (original && original.journal_id === into.journalId) return "skipped";
    const id = restoredId(into, "memory", memory.id);
    if (await this.repo.findById(id)) return "skipped";

    const tags = normalizeTags(memory.tags);
    if (!tags) return { reason: `tags: ${MESSAGES.maxTagsReachedDescription}` };
    const commenterNames: string[] = [];
    for (const comment of memory.comments) {
      const name = commenterNameSchema.safeParse(comment.commenterName);
      if (!name.success) return { reason: `commenterName: ${name.error.issues[0]?.message}` };
      commenterNames.push(name.data);
    }
    if (memory.title.length > TITLE_MAX_LENGTH) return { reason: "title: too long" };
    if (memory.transcript.length > TEXT_MAX_LENGTH || memory.summary.length > TEXT_MAX_LENGTH) {
      return { reason: "transcript or summary: too long" };
    }

    const stored: ImportedAudio[] = [];
    const storedPhotos: ImportedPhoto[] = [];
    const store = async (
      file: string | null,
      attachment: { kind: "memory" | "comment"; id: string },
    ) => {
      const entry = file ? byName.get(file) : undefined;
      if (!entry) return null;
      const row = await this.audio.storeForImport({
        source: await zip.openReadStreamPromise(entry),
        maxBytes: this.options.maxAudioBytes,
        userId: into.userId,
        attachment,
      });
      stored.push(row);
      return row.id;
    };
    try {
      const now = new Date().toISOString();
      const audioId = await store(memory.audioFile, { kind: "memory", id });
      for (const ref of photoRefs(memory)) {
        const entry = byName.get(ref.file);
        if (entry) storedPhotos.push(await this.photos.prepareImport(await readEntry(zip, entry)));
      }
      const comments: CommentRow[] = [];
      for (const [index, comment] of memory.comments.entries()) {
        const commentId = restoredId(into, "comment", comment.id);
        comments.push({
          id: commentId,
          memory_id: id,
          commenter_name: commenterNames[index] ?? comment.commenterName,
          // Who replied is not in a backup: a restored reply is nobody's new reply.
          member_id: null,
          audio_id: await store(comment.audioFile, { kind: "comment", id: commentId }),
          transcript: comment.transcript,
          status: comment.status === "saved" ? "saved" : "failed",
          // A code, as the transcription job writes it; an older backup's sentence becomes one.
          error:
            comment.status === "saved"
              ? null
              : comment.status === "failed" && comment.error
                ? processingErrorCode(comment.error)
                : "processing.unfinished",
          created_at: validDate(comment.createdAt, now),
          transcript_engine: comment.transcription?.engine ?? null,
          transcript_segments: segmentsJson(
            cleanSegments(comment.transcription?.segments ?? [], 0),
          ),
        });
      }
      const saved = memory.status === "saved";
      const stage = (PIPELINE_STAGES as readonly string[]).includes(memory.stage ?? "")
        ? (memory.stage as (typeof PIPELINE_STAGES)[number])
        : "transcribe";
      await this.transactions.run(async (trx) => {
        await this.audio.attachImported(stored, trx);
        const storytellerId = memory.storyteller
          ? await this.tellers.storytellerNamed(
              into.journalId,
              memory.storyteller.name,
              into.memberId,
              trx,
            )
          : into.memberId;
        await this.repo.insert(
          {
            id,
            // Told by the restorer, or by a storyteller of the backup kept under their name.
            userId: storytellerId === into.memberId ? into.userId : null,
            journalId: into.journalId,
            storytellerId,
            audioId,
            title: memory.title,
            transcript: memory.transcript,
            summary: memory.summary,
            scores: normalizeScores(memory.scores),
            duration: Number.isFinite(memory.duration) ? Math.max(0, memory.duration) : 0,
            recordedAt: validDate(memory.recordedAt, now),
            tags,
            // Unfinished processing comes back failed, so the owner can retry it.
            status: saved ? "saved" : "failed",
            stage: saved ? null : stage,
            error: saved
              ? null
              : memory.status === "failed" && memory.error
                ? processingErrorCode(memory.error)
                : "processing.unfinished",
            createdAt: validDate(memory.createdAt, now),
            // A built-in question in another language's words, as the library's own (as 0030 does).
            question: memory.question?.trim() ? libraryQuestion(memory.question.trim()) : null,
            language:
              memory.language && LANGUAGE_CODE_PATTERN.test(memory.language)
                ? memory.language
                : null,
            transcriptEngine: memory.transcription?.engine ?? null,
            transcriptSegments: cleanSegments(memory.transcription?.segments ?? [], 0),
            transcriptEdited: memory.transcription?.edited ?? false,
          },
          trx,
        );
        for (const comment of comments) await this.comments.importComment(comment, trx);
        await this.photos.insertImported(id, storedPhotos, trx);
      });
      return "imported";
    } catch (error) {
      await this.audio.discardImported(stored).catch(() => undefined);
      await this.photos.discardImported(storedPhotos).catch(() => undefined);
      // Another restore of the same backup into this account saved it first.
      if (isUniqueViolation(error) && (await this.repo.findById(id))) return "skipped";
      // The storage or the database is down: the whole restore stops (503). What was imported
      // stays, whole, and restoring the same zip again skips it.
      if (error instanceof StorageUnavailableError || isDatabaseUnavailable(error)) throw error;
      this.log.warn({ err: error, memoryId: memory.id }, "restore: a memory could not be imported");
      const reason =
        error instanceof HttpError ? error.message : "it could not be saved; try again later";
      return { reason };
    }
  }
}
