import { Readable } from "node:stream";
import type { FastifyBaseLogger } from "fastify";
import { ZipFile } from "yazl";
import type { Comment, Memory, Photo } from "../../shared/schemas";
import type { TranscriptSegment } from "../../shared/transcript";
import type { AudioService } from "../audio/audio.service";
import { type CommentRow, toCommentDto } from "../comments/comments.repo";
import type { CommentsService } from "../comments/comments.service";
import { ownJournalId } from "../journals/journals.repo";
import { type BackupPhoto, type PhotosService, toPhotoDto } from "../photos/photos.service";
import type { AudioStorage } from "../storage/audio-storage";
import type { MemoriesRepo, MemoryRow } from "./memories.repo";
import { toMemoryDto } from "./memory-dto";
import { segmentsOf } from "./memory-row";

/** Memories read from the database per query while the zip streams. */
const BATCH_SIZE = 200;

/** Version of the memories.json layout, for whoever restores from it. */
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupAudioRef {
  /** Path of the audio inside the zip, e.g. `audio/<audio id>.mp3`. */
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
/** A photo in memories.json: its full size sits in the zip at `file` (`photos/<id>.jpg`). */
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

const photoZipPath = (photo: BackupPhoto) => `photos/${photo.row.id}.jpg`;

function extensionOf(storageKey: string): string {
  const match = /\.([a-z0-9]+)$/.exec(storageKey);
  return match?.[1] ?? "bin";
}

interface AudioInfo {
  storageKey: string;
  contentType: string;
  bytes: number;
  zipPath: string;
  /** The file was not in storage when this batch was read. */
  missing: boolean;
}

/**
 * A user's whole journal as a streamed zip: `memories.json` (every memory with its comments and
 * photos, in the API's field names plus where each file sits in the zip), `audio/*` and
 * `photos/*` (each photo's full size, as stored) without compression. Memory stays bounded: the database is read in batches and each audio file is opened
 * only when the zip reaches it; yazl switches to ZIP64 by itself past 4 GB.
 */
export class MemoriesBackup {
  constructor(
    private readonly repo: MemoriesRepo,
    private readonly comments: Pick<CommentsService, "listForMemories">,
    private readonly audio: Pick<AudioService, "findMany">,
    private readonly photos: Pick<PhotosService, "forBackup">,
    private readonly storage: AudioStorage,
    private readonly log: Pick<FastifyBaseLogger, "warn"> = { warn() {} },
  ) {}

  /** Yields each batch of memories with their comments and audio metadata. */
  private async *batches(userId: string): AsyncGenerator<{
    memories: MemoryRow[];
    comments: CommentRow[];
    audio: Map<string, AudioInfo>;
    photos: BackupPhoto[];
  }> {
    let afterSeq = 0;
    for (;;) {
      const memories = await this.repo.batchForBackup(ownJournalId(userId), afterSeq, BATCH_SIZE);
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
          zipPath: `audio/${file.id}.${extensionOf(file.storage_key)}`,
          missing: (await this.storage.size(file.storage_key)) === null,
        });
      }
      const photos = await this.photos.forBackup(memories.map((memory) => memory.id));
      yield { memories, comments, audio, photos };
      if (memories.length < BATCH_SIZE) return;
    }
  }

  private async *json(userId: string, exportedAt: string): AsyncGenerator<string> {
    yield `{"version":${BACKUP_FORMAT_VERSION},"exportedAt":${JSON.stringify(exportedAt)},"userId":${JSON.stringify(userId)},"memories":[`;
    let first = true;
    for await (const batch of this.batches(userId)) {
      const ref = (audioId: string | null): BackupAudioRef => {
        const info = audioId ? batch.audio.get(audioId) : undefined;
        if (info?.missing || (audioId && !info)) {
          return { audioFile: null, audioContentType: null, audioBytes: null, audioMissing: true };
        }
        return {
          audioFile: info?.zipPath ?? null,
          audioContentType: info?.contentType ?? null,
          audioBytes: info?.bytes ?? null,
        };
      };
      let chunk = "";
      for (const row of batch.memories) {
        const memory: BackupMemory = {
          ...toMemoryDto(row),
          ...ref(row.audio_id),
          photos: batch.photos
            .filter((photo) => photo.row.memory_id === row.id)
            .map((photo) => ({
              ...toPhotoDto(photo.row),
              ...(photo.fullBytes === null
                ? { file: null, bytes: null, missing: true as const }
                : { file: photoZipPath(photo), bytes: photo.fullBytes }),
            })),
          transcription: {
            engine: row.transcript_engine,
            edited: row.transcript_edited === 1,
            segments: segmentsOf(row),
          },
          comments: batch.comments
            .filter((comment) => comment.memory_id === row.id)
            .map((comment) => ({
              ...toCommentDto(comment),
              ...ref(comment.audio_id),
              transcription: {
                engine: comment.transcript_engine,
                segments: segmentsOf(comment),
              },
            })),
        };
        chunk += `${first ? "" : ","}\n${JSON.stringify(memory)}`;
        first = false;
      }
      yield chunk;
    }
    yield "\n]}\n";
  }

  /**
   * Throws StorageUnavailableError when the audio storage cannot be reached, so a backup asked
   * for during an outage is refused before its first byte (503) rather than cut part-way.
   */
  checkStorage(): Promise<void> {
    return this.storage.check();
  }

  /**
   * The zip stream for `userId`; a file missing when its batch is read is marked in memories.json
   * and skipped. Any other failure (the storage or database becoming unreachable, a file that
   * cannot be read to its end) destroys the stream with the error: the download is cut and the
   * browser reports it failed. It never ends as a complete-looking zip with a truncated file.
   */
  stream(userId: string): Readable {
    const zip = new ZipFile();
    const exportedAt = new Date().toISOString();
    const mtime = new Date(exportedAt);
    const output = zip.outputStream as Readable;
    const fail = (error: Error) => {
      if (!output.destroyed) output.destroy(error);
    };
    zip.addReadStreamLazy("memories.json", { mtime }, (cb) => {
      const json = Readable.from(this.json(userId, exportedAt));
      // yazl pipes the entry without listening for its errors.
      json.on("error", fail);
      cb(null, json);
    });
    void (async () => {
      try {
        for await (const batch of this.batches(userId)) {
          for (const info of batch.audio.values()) {
            if (info.missing) {
              this.log.warn(
                { storageKey: info.storageKey, userId },
                "backup: audio file missing from storage; marked in memories.json",
              );
              continue;
            }
            this.addFile(zip, info.zipPath, info.storageKey, { mtime, userId, fail });
          }
          for (const photo of batch.photos) {
            if (photo.fullBytes === null) {
              this.log.warn(
                { storageKey: photo.row.full_key, userId },
                "backup: photo file missing from storage; marked in memories.json",
              );
              continue;
            }
            this.addFile(zip, photoZipPath(photo), photo.row.full_key, { mtime, userId, fail });
          }
        }
        zip.end();
      } catch (error) {
        fail(error as Error);
      }
    })();
    zip.on("error", (error: Error) => output.destroy(error));
    return output;
  }

  /** A stored file as an uncompressed zip entry, opened only when the zip reaches it. */
  private addFile(
    zip: ZipFile,
    zipPath: string,
    storageKey: string,
    context: { mtime: Date; userId: string; fail: (error: Error) => void },
  ): void {
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
