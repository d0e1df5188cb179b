import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { FastifyBaseLogger } from "fastify";
import yauzl from "yauzl";
import { z } from "zod";
import { LANGUAGE_CODE_PATTERN, TEXT_MAX_LENGTH, TITLE_MAX_LENGTH } from "../../shared/constants";
import { MESSAGES } from "../../shared/messages";
import { QUESTION_MAX_LENGTH } from "../../shared/reminders";
import { normalizeScores, normalizeTags } from "../../shared/rules";
import { PIPELINE_STAGES, type RestoreResult } from "../../shared/schemas";
import type { AudioRow, AudioService } from "../audio/audio.service";
import type { CommentRow } from "../comments/comments.repo";
import type { CommentsService } from "../comments/comments.service";
import type { Transactions } from "../db/transactions";
import { badRequest, HttpError, tooLarge } from "../http-errors";
import { newId } from "../ids";
import type { MemoriesRepo } from "./memories.repo";
import { BACKUP_FORMAT_VERSION } from "./memories-backup";

/** memories.json larger than this is refused (a journal of ~100,000 memories fits). */
const MANIFEST_MAX_BYTES = 256 * 1024 * 1024;
/** More entries than this is not a backup of ours. */
const MAX_ENTRIES = 500_000;
/** Audio is stored uncompressed in our backups; a compressed entry may not inflate beyond this. */
const MAX_COMPRESSION_RATIO = 50;

const refuse = (reason: string) => badRequest(`backup: ${reason}`);

const backupAudioFields = {
  audioFile: z.string().max(300).nullable(),
  audioContentType: z.string().max(100).nullable(),
  audioBytes: z.number().int().nonnegative().nullable(),
  audioMissing: z.literal(true).optional(),
};

const backupCommentSchema = z.object({
  id: z.string().min(1).max(100),
  commenterName: z.string().max(200),
  transcript: z.string().max(TEXT_MAX_LENGTH),
  createdAt: z.string().max(40),
  status: z.string().max(20),
  error: z.string().max(2000).nullable().optional(),
  ...backupAudioFields,
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
  comments: z.array(backupCommentSchema).max(10_000),
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
  } catch (error) {
    throw refuse(`the file is not a readable zip (${(error as Error).message})`);
  }
  const byName = new Map<string, yauzl.Entry>();
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on("error", (error: Error) =>
        reject(
          // yauzl itself refuses names that climb out or are absolute.
          /invalid relative path|absolute path/.test(error.message)
            ? refuse(`an entry points outside the backup (${error.message})`)
            : refuse(`the zip is damaged (${error.message})`),
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
        if (problem) return reject(refuse(problem));
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

async function readText(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<string> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The audio entries a memory and its comments refer to. */
function audioRefs(memory: BackupMemory): { file: string; bytes: number | null }[] {
  return [memory, ...memory.comments]
    .filter((item) => item.audioFile !== null)
    .map((item) => ({ file: item.audioFile as string, bytes: item.audioBytes }));
}

/** A restored id that is the same each time this account restores this memory (idempotent). */
function restoredId(userId: string, kind: string, originalId: string): string {
  return createHash("sha256")
    .update(`${userId}\n${kind}\n${originalId}`)
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
 * (shape and version), and every audio file (its bytes are audio, its size is the manifest's, no
 * file the manifest does not list). Then each memory is imported whole or not at all: its audio
 * files are stored, and its row, its comments and their audio rows commit in one transaction.
 * A memory restored before into this account (or still there) is skipped.
 */
export class MemoriesRestore {
  constructor(
    private readonly repo: MemoriesRepo,
    private readonly comments: Pick<CommentsService, "importComment">,
    private readonly audio: Pick<
      AudioService,
      "verify" | "storeForImport" | "insertAttached" | "removeFiles"
    >,
    private readonly transactions: Transactions,
    private readonly options: { tempDir: string; maxBytes: number; maxAudioBytes: number },
    private readonly log: Pick<FastifyBaseLogger, "warn"> = { warn() {} },
  ) {}

  /**
   * Spools the upload to a private temporary file (refusing it with 413 past the limit as it
   * streams), restores it into `userId`'s account and removes the file.
   */
  async restoreUpload(
    userId: string,
    source: Readable,
    wasTruncated: () => boolean,
  ): Promise<RestoreResult> {
    await mkdir(this.options.tempDir, { recursive: true, mode: 0o700 });
    const file = path.join(this.options.tempDir, `.restore-${newId()}.zip`);
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
        createWriteStream(file, { mode: 0o600 }),
      );
      if (wasTruncated()) throw tooLarge();
      return await this.restoreFile(userId, file);
    } finally {
      await rm(file, { force: true });
    }
  }

  /**
   * Housekeeping: removes spooled zips a crashed process left behind (a restore in progress keeps
   * writing or reading its file, so only files untouched for a day go).
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
      if (info && now.getTime() - info.mtimeMs > 24 * 60 * 60 * 1000) {
        await rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }

  async restoreFile(userId: string, file: string): Promise<RestoreResult> {
    const { zip, byName } = await openChecked(file, this.options.maxBytes);
    try {
      const memories = await this.readManifest(zip, byName);
      await this.verifyAudio(zip, byName, memories);
      const result: RestoreResult = { imported: 0, skipped: 0, failed: [] };
      for (const memory of memories) {
        const outcome = await this.importMemory(userId, zip, byName, memory);
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
  ): Promise<BackupMemory[]> {
    const entry = byName.get("memories.json");
    if (!entry) throw refuse("memories.json is missing; is this a Voice Memory Journal backup?");
    if (entry.uncompressedSize > MANIFEST_MAX_BYTES) throw refuse("memories.json is too large");
    let json: unknown;
    try {
      json = JSON.parse(await readText(zip, entry));
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw refuse("memories.json is not valid JSON");
    }
    const version = (json as { version?: unknown } | null)?.version;
    if (version !== BACKUP_FORMAT_VERSION) {
      throw refuse(
        `unknown backup version ${JSON.stringify(version ?? null)} (this server reads version ${BACKUP_FORMAT_VERSION})`,
      );
    }
    const parsed = manifestSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw refuse(`memories.json is not valid (${issue?.path.join(".")}: ${issue?.message})`);
    }
    return parsed.data.memories;
  }

  /**
   * The dry run: every audio entry is listed by the manifest (and the reverse), has the size the
   * manifest says, and is audio by its bytes, like an upload.
   */
  private async verifyAudio(
    zip: yauzl.ZipFile,
    byName: Map<string, yauzl.Entry>,
    memories: BackupMemory[],
  ): Promise<void> {
    const listed = new Map<string, number | null>();
    for (const memory of memories) {
      for (const ref of audioRefs(memory)) {
        if (listed.has(ref.file)) throw refuse(`the audio file "${ref.file}" is listed twice`);
        listed.set(ref.file, ref.bytes);
      }
    }
    for (const name of byName.keys()) {
      if (name !== "memories.json" && !listed.has(name)) {
        throw refuse(`the zip holds "${name}", which memories.json does not list`);
      }
    }
    for (const [name, bytes] of listed) {
      const entry = byName.get(name);
      if (!entry) throw refuse(`the audio file "${name}" listed in memories.json is missing`);
      if (bytes !== null && entry.uncompressedSize !== bytes) {
        throw refuse(`the audio file "${name}" has ${entry.uncompressedSize} bytes, not ${bytes}`);
      }
      try {
        await this.audio.verify(await zip.openReadStreamPromise(entry), this.options.maxAudioBytes);
      } catch (error) {
        const reason = error instanceof Error ? error.message.replace(/^audio: /, "") : "";
        throw refuse(`"${name}" is not a usable recording (${reason})`);
      }
    }
  }

  private async importMemory(
    userId: string,
    zip: yauzl.ZipFile,
    byName: Map<string, yauzl.Entry>,
    memory: BackupMemory,
  ): Promise<"imported" | "skipped" | { reason: string }> {
    const original = await this.repo.findById(memory.id);
    if (original?.user_id === userId) return "skipped";
    const id = restoredId(userId, "memory", memory.id);
    if (await this.repo.findById(id)) return "skipped";

    const tags = normalizeTags(memory.tags);
    if (!tags) return { reason: `tags: ${MESSAGES.maxTagsReachedDescription}` };
    if (memory.title.length > TITLE_MAX_LENGTH) return { reason: "title: too long" };
    if (memory.transcript.length > TEXT_MAX_LENGTH || memory.summary.length > TEXT_MAX_LENGTH) {
      return { reason: "transcript or summary: too long" };
    }

    const stored: AudioRow[] = [];
    const store = async (
      file: string | null,
      attachment: { kind: "memory" | "comment"; id: string },
    ) => {
      const entry = file ? byName.get(file) : undefined;
      if (!entry) return null;
      const row = await this.audio.storeForImport({
        source: await zip.openReadStreamPromise(entry),
        maxBytes: this.options.maxAudioBytes,
        userId,
        attachment,
      });
      stored.push(row);
      return row.id;
    };
    try {
      const now = new Date().toISOString();
      const audioId = await store(memory.audioFile, { kind: "memory", id });
      const comments: CommentRow[] = [];
      for (const comment of memory.comments) {
        const commentId = restoredId(userId, "comment", comment.id);
        comments.push({
          id: commentId,
          memory_id: id,
          commenter_name: comment.commenterName,
          audio_id: await store(comment.audioFile, { kind: "comment", id: commentId }),
          transcript: comment.transcript,
          status: comment.status === "saved" ? "saved" : "failed",
          error:
            comment.status === "saved"
              ? null
              : comment.status === "failed"
                ? (comment.error ?? MESSAGES.restoredUnfinished)
                : MESSAGES.restoredUnfinished,
          created_at: validDate(comment.createdAt, now),
        });
      }
      const saved = memory.status === "saved";
      const stage = (PIPELINE_STAGES as readonly string[]).includes(memory.stage ?? "")
        ? (memory.stage as (typeof PIPELINE_STAGES)[number])
        : "transcribe";
      await this.transactions.run(async (trx) => {
        await this.audio.insertAttached(stored, trx);
        await this.repo.insert(
          {
            id,
            userId,
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
              : memory.status === "failed"
                ? (memory.error ?? MESSAGES.restoredUnfinished)
                : MESSAGES.restoredUnfinished,
            createdAt: validDate(memory.createdAt, now),
            question: memory.question?.trim() || null,
            language:
              memory.language && LANGUAGE_CODE_PATTERN.test(memory.language)
                ? memory.language
                : null,
          },
          trx,
        );
        for (const comment of comments) await this.comments.importComment(comment, trx);
      });
      return "imported";
    } catch (error) {
      await this.audio.removeFiles(stored.map((row) => row.storage_key));
      this.log.warn({ err: error, memoryId: memory.id }, "restore: a memory could not be imported");
      const reason =
        error instanceof HttpError ? error.message : "it could not be saved; try again later";
      return { reason };
    }
  }
}
