import { Readable } from "node:stream";
import type { FastifyBaseLogger } from "fastify";
import { ZipFile } from "yazl";
import type { Language } from "../../shared/i18n/languages";
import type { Comment, Memory, Photo } from "../../shared/schemas";
import type { TranscriptSegment } from "../../shared/transcript";
import type { AudioService } from "../audio/audio.service";
import { type CommentRow, toCommentDto } from "../comments/comments.repo";
import type { CommentsService } from "../comments/comments.service";
import { type BackupPhoto, type PhotosService, toPhotoDto } from "../photos/photos.service";
import type { AudioStorage } from "../storage/audio-storage";
import { BackupFileNames } from "./backup-file-names";
import { indexEnd, indexMemory, indexStart } from "./backup-index";
import type { MemoriesRepo, MemoryRow } from "./memories.repo";
import type { MemoryJournals } from "./memories.service";
import { toMemoryDto } from "./memory-dto";
import { segmentsOf } from "./memory-row";

/** Memories read from the database per query while the zip streams. */
const BATCH_SIZE = 200;

/**
 * Version of the backup's layout, for whoever restores from it. 1: files named by id
 * (`audio/<audio id>.<ext>`, `photos/<photo id>.jpg`); 2: named by date and title
 * (`BackupFileNames`) beside an index.html. memories.json lists each file's name in both.
 */
export const BACKUP_FORMAT_VERSION = 2;

export interface BackupAudioRef {
  /** Path of the audio inside the zip, e.g. `audio/1962-06-01 Sand castles.mp3`. */
  audioFile: string | null;
  audioContentType: string | null;
  audioBytes: number | null;
  /** True when the memory had audio but its file was missing from storage at backup time. */
  audioMissing?: true;
}

export type BackupComment = Comment &
  BackupAudioRef & { transcription: Omit<BackupTranscription, "edited"> };
/** How the transcript was made, with its timed segments (ADR 0041). */
export interface BackupTranscription {
  engine: string | null;
  edited: boolean;
  segments: TranscriptSegment[];
}
/** A photo in memories.json: its full size sits in the zip at `file` (`photos/<stem> 1.jpg`). */
export type BackupPhotoRef = Photo & {
  file: string | null;
  bytes: number | null;
  /** True when the photo's file was missing from storage at backup time. */
  missing?: true;
};
export type BackupMemory = Omit<Memory, "photos"> &
  BackupAudioRef & {
    transcription: BackupTranscription;
    comments: BackupComment[];
    photos: BackupPhotoRef[];
  };

function extensionOf(storageKey: string): string {
  const match = /\.([a-z0-9]+)$/.exec(storageKey);
  return match?.[1] ?? "bin";
}

/** The page a family opens from the unzipped folder; restore leaves it aside. */
export const INDEX_FILE = "index.html";

interface FileContext {
  mtime: Date;
  userId: string;
  fail: (error: Error) => void;
}

/** Where memories.json put a memory's files, for index.html. */
interface NamedFiles {
  recording: string | null;
  recordingMissing: boolean;
  photos: { file: string; width: number; height: number }[];
  /** Each comment's recording by comment id. */
  comments: Map<string, string | null>;
}

interface AudioInfo {
  storageKey: string;
  contentType: string;
  bytes: number;
  extension: string;
  /** The file was not in storage when this batch was read. */
  missing: boolean;
}

/** Whose backup: the journal, and the organizer who asks (memories.json names them). */
export interface BackupOf {
  userId: string;
  journalId: string;
  /** The journal's language: its index.html is written in it. */
  language: Language;
}

/**
 * A family's whole journal as a streamed zip a family can read: `memories.json` (every memory with
 * its comments and photos, in the API's field names plus where each file sits in the zip), `audio/*`
 * and `photos/*` (each photo's full size, as stored) named by recorded day and title, without
 * compression, and `index.html`, which shows and plays them offline. Memory stays bounded: the
 * database is read in batches and each file is opened only when the zip reaches it; yazl switches
 * to ZIP64 by itself past 4 GB.
 */
export class MemoriesBackup {
  constructor(
    private readonly repo: MemoriesRepo,
    private readonly comments: Pick<CommentsService, "listForMemories">,
    private readonly audio: Pick<AudioService, "findMany">,
    private readonly photos: Pick<PhotosService, "forBackup">,
    private readonly journals: Pick<MemoryJournals, "storytellerNames">,
    private readonly storage: AudioStorage,
    private readonly log: Pick<FastifyBaseLogger, "warn"> = { warn() {} },
  ) {}

  /** The names of the members who told these memories, by member id. */
  private storytellersOf(rows: readonly MemoryRow[]): Promise<Map<string, string>> {
    return this.journals.storytellerNames(
      rows.flatMap((row) => (row.storyteller_id ? [row.storyteller_id] : [])),
    );
  }

  /** Yields each batch of memories with their comments and audio metadata. */
  private async *batches(journalId: string): AsyncGenerator<{
    memories: MemoryRow[];
    comments: CommentRow[];
    audio: Map<string, AudioInfo>;
    photos: BackupPhoto[];
    storytellers: Map<string, string>;
  }> {
    let afterSeq = 0;
    for (;;) {
      const memories = await this.repo.batchForBackup(journalId, afterSeq, BATCH_SIZE);
      if (memories.length === 0) return;
      afterSeq = memories[memories.length - 1]?.seq ?? afterSeq;
      const comments = await this.comments.listForMemories(memories.map((memory) => memory.id));
      const audioIds = [...memories, ...comments]
        .map((row) => row.audio_id)
        .filter((id): id is string => id !== null);
      const files = await this.audio.findMany(audioIds);
      const audio = new Map<string, AudioInfo>();
      for (const file of files) {
        audio.set(file.id, {
          storageKey: file.storage_key,
          contentType: file.content_type,
          bytes: Number(file.bytes),
          extension: extensionOf(file.storage_key),
          missing: (await this.storage.size(file.storage_key)) === null,
        });
      }
      const photos = await this.photos.forBackup(memories.map((memory) => memory.id));
      const storytellers = await this.storytellersOf(memories);
      yield { memories, comments, audio, photos, storytellers };
      if (memories.length < BATCH_SIZE) return;
    }
  }

  /**
   * memories.json, batch by batch. Naming each file here, and adding it to the zip as it is named,
   * reads the database once and keeps the names memories.json lists and the files the zip holds
   * the same even when a memory is edited while the backup streams. `named` gathers what
   * index.html needs to find them.
   */
  private async *json(
    { userId, journalId }: BackupOf,
    exportedAt: string,
    zip: ZipFile,
    context: FileContext,
    named: Map<string, NamedFiles>,
  ): AsyncGenerator<string> {
    yield `{"version":${BACKUP_FORMAT_VERSION},"exportedAt":${JSON.stringify(exportedAt)},"userId":${JSON.stringify(userId)},"memories":[`;
    const names = new BackupFileNames();
    let first = true;
    for await (const batch of this.batches(journalId)) {
      /** The zip entry of a recording (added to the zip), or why there is none. */
      const recording = (
        audioId: string | null,
        name: (extension: string) => string,
      ): BackupAudioRef => {
        const info = audioId ? batch.audio.get(audioId) : undefined;
        if (info?.missing) {
          this.log.warn(
            { storageKey: info.storageKey, userId },
            "backup: audio file missing from storage; marked in memories.json",
          );
        }
        if (info?.missing || (audioId && !info)) {
          return { audioFile: null, audioContentType: null, audioBytes: null, audioMissing: true };
        }
        if (!info) return { audioFile: null, audioContentType: null, audioBytes: null };
        const audioFile = name(info.extension);
        this.addFile(zip, audioFile, info.storageKey, context);
        return { audioFile, audioContentType: info.contentType, audioBytes: info.bytes };
      };
      let chunk = "";
      for (const row of batch.memories) {
        const stem = names.memoryStem(row.recorded_at, row.title);
        const photos = batch.photos
          .filter((photo) => photo.row.memory_id === row.id)
          .map((photo, index): BackupPhotoRef => {
            if (photo.fullBytes === null) {
              this.log.warn(
                { storageKey: photo.row.full_key, userId },
                "backup: photo file missing from storage; marked in memories.json",
              );
              return { ...toPhotoDto(photo.row), file: null, bytes: null, missing: true };
            }
            const file = names.photo(stem, index + 1);
            this.addFile(zip, file, photo.row.full_key, context);
            return { ...toPhotoDto(photo.row), file, bytes: photo.fullBytes };
          });
        const memory: BackupMemory = {
          ...toMemoryDto(row, [], batch.storytellers.get(row.storyteller_id ?? "")),
          ...recording(row.audio_id, (extension) => names.recording(stem, extension)),
          photos,
          transcription: {
            engine: row.transcript_engine,
            edited: row.transcript_edited === 1,
            segments: segmentsOf(row),
          },
          comments: batch.comments
            .filter((comment) => comment.memory_id === row.id)
            .map((comment) => ({
              ...toCommentDto(comment),
              ...recording(comment.audio_id, (extension) =>
                names.commentRecording(stem, comment.commenter_name, extension),
              ),
              transcription: {
                engine: comment.transcript_engine,
                segments: segmentsOf(comment),
              },
            })),
        };
        named.set(row.id, {
          recording: memory.audioFile,
          recordingMissing: memory.audioMissing === true,
          photos: photos.flatMap((photo) =>
            photo.file ? [{ file: photo.file, width: photo.width, height: photo.height }] : [],
          ),
          comments: new Map(memory.comments.map((comment) => [comment.id, comment.audioFile])),
        });
        chunk += `${first ? "" : ","}\n${JSON.stringify(memory)}`;
        first = false;
      }
      yield chunk;
    }
    yield "\n]}\n";
  }

  /**
   * index.html: the memories memories.json holds, newest first, read again in batches with the
   * names memories.json gave their files (a memory made while the backup streamed is in neither).
   */
  private async *index(
    journalId: string,
    language: Language,
    exportedAt: string,
    named: Map<string, NamedFiles>,
  ): AsyncGenerator<string> {
    yield indexStart(named.size, exportedAt, language);
    let before: { recordedAt: string; seq: number } | null = null;
    for (;;) {
      const rows = await this.repo.batchNewestFirst(journalId, before, BATCH_SIZE);
      const last = rows[rows.length - 1];
      if (!last) break;
      before = { recordedAt: last.recorded_at, seq: last.seq };
      const shown = rows.filter((row) => named.has(row.id));
      const comments = await this.comments.listForMemories(shown.map((row) => row.id));
      const storytellers = await this.storytellersOf(shown);
      let chunk = "";
      for (const row of shown) {
        const files = named.get(row.id) as NamedFiles;
        const memory = toMemoryDto(row, [], storytellers.get(row.storyteller_id ?? ""));
        chunk += indexMemory(
          {
            ...memory,
            ...files,
            comments: comments
              .filter((comment) => comment.memory_id === row.id && files.comments.has(comment.id))
              .map((comment) => ({
                name: comment.commenter_name,
                transcript: comment.transcript,
                recording: files.comments.get(comment.id) ?? null,
              })),
          },
          language,
        );
      }
      yield chunk;
      if (rows.length < BATCH_SIZE) break;
    }
    yield indexEnd();
  }

  /**
   * Throws StorageUnavailableError when the audio storage cannot be reached, so a backup asked
   * for during an outage is refused before its first byte (503) rather than cut part-way.
   */
  checkStorage(): Promise<void> {
    return this.storage.check();
  }

  /**
   * The zip stream of a journal, for the organizer `userId`: memories.json, then each recording and photo as memories.json
   * names it, then index.html. A file missing when its batch is read is marked in memories.json
   * and skipped. Any other failure (the storage or database becoming unreachable, a file that
   * cannot be read to its end) destroys the stream with the error: the download is cut and the
   * browser reports it failed. It never ends as a complete-looking zip with a truncated file.
   */
  stream(of: BackupOf): Readable {
    const { userId, journalId } = of;
    const zip = new ZipFile();
    const exportedAt = new Date().toISOString();
    const mtime = new Date(exportedAt);
    const output = zip.outputStream as Readable;
    const fail = (error: Error) => {
      if (!output.destroyed) output.destroy(error);
    };
    const named = new Map<string, NamedFiles>();
    const entry = (name: string, source: () => AsyncGenerator<string>) =>
      zip.addReadStreamLazy(name, { mtime }, (cb) => {
        const stream = Readable.from(source());
        // yazl pipes the entry without listening for its errors.
        stream.on("error", fail);
        cb(null, stream);
      });
    entry(
      "memories.json",
      async function* (this: MemoriesBackup) {
        yield* this.json(of, exportedAt, zip, { mtime, userId, fail }, named);
        // Every file is named and queued: the page that shows them closes the zip.
        entry(INDEX_FILE, () => this.index(journalId, of.language, exportedAt, named));
        zip.end();
      }.bind(this),
    );
    zip.on("error", (error: Error) => output.destroy(error));
    return output;
  }

  /** A stored file as an uncompressed zip entry, opened only when the zip reaches it. */
  private addFile(zip: ZipFile, zipPath: string, storageKey: string, context: FileContext): void {
    zip.addReadStreamLazy(zipPath, { mtime: context.mtime, compress: false }, (cb) => {
      const source = this.storage.read(storageKey);
      source.on("error", (error) => {
        this.log.warn({ err: error, storageKey, userId: context.userId }, "backup cut");
        context.fail(error);
      });
      cb(null, source);
    });
  }
}
