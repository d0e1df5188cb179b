import { PassThrough, Readable } from "node:stream";
import type { FastifyBaseLogger } from "fastify";
import { ZipFile } from "yazl";
import type { Comment, Memory } from "../../shared/schemas";
import type { AudioService } from "../audio/audio.service";
import { type CommentRow, toCommentDto } from "../comments/comments.repo";
import type { CommentsService } from "../comments/comments.service";
import type { AudioStorage } from "../storage/audio-storage";
import { type MemoriesRepo, type MemoryRow, toMemoryDto } from "./memories.repo";

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

export type BackupComment = Comment & BackupAudioRef;
export type BackupMemory = Memory & BackupAudioRef & { comments: BackupComment[] };

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
 * A user's whole journal as a streamed zip: `memories.json` (every memory with its comments, in
 * the API's field names plus where each audio file sits in the zip) and `audio/*` stored without
 * compression. Memory stays bounded: the database is read in batches and each audio file is opened
 * only when the zip reaches it; yazl switches to ZIP64 by itself past 4 GB.
 */
export class MemoriesBackup {
  constructor(
    private readonly repo: MemoriesRepo,
    private readonly comments: Pick<CommentsService, "listForMemories">,
    private readonly audio: Pick<AudioService, "findMany">,
    private readonly storage: AudioStorage,
    private readonly log: Pick<FastifyBaseLogger, "warn"> = { warn() {} },
  ) {}

  /** Yields each batch of memories with their comments and audio metadata. */
  private async *batches(userId: string): AsyncGenerator<{
    memories: MemoryRow[];
    comments: CommentRow[];
    audio: Map<string, AudioInfo>;
  }> {
    let afterSeq = 0;
    for (;;) {
      const memories = await this.repo.batchForBackup(userId, afterSeq, BATCH_SIZE);
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
      yield { memories, comments, audio };
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
          comments: batch.comments
            .filter((comment) => comment.memory_id === row.id)
            .map((comment) => ({ ...toCommentDto(comment), ...ref(comment.audio_id) })),
        };
        chunk += `${first ? "" : ","}\n${JSON.stringify(memory)}`;
        first = false;
      }
      yield chunk;
    }
    yield "\n]}\n";
  }

  /**
   * The file's bytes; if reading fails part-way (the file vanished after the check), the entry
   * ends there and the log says which, instead of an unhandled stream error ending the process.
   */
  private readSafely(storageKey: string, userId: string): Readable {
    const out = new PassThrough();
    let source: Readable;
    try {
      source = this.storage.read(storageKey);
    } catch (error) {
      this.log.warn({ err: error, storageKey, userId }, "backup: audio file could not be read");
      out.end();
      return out;
    }
    source.on("error", (error) => {
      this.log.warn({ err: error, storageKey, userId }, "backup: audio file could not be read");
      out.end();
    });
    source.pipe(out);
    return out;
  }

  /** The zip stream for `userId`; a missing audio file is marked in memories.json and skipped. */
  stream(userId: string): Readable {
    const zip = new ZipFile();
    const exportedAt = new Date().toISOString();
    const mtime = new Date(exportedAt);
    zip.addReadStreamLazy("memories.json", { mtime }, (cb) => {
      cb(null, Readable.from(this.json(userId, exportedAt)));
    });
    const output = zip.outputStream as Readable;
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
            zip.addReadStreamLazy(info.zipPath, { mtime, compress: false }, (cb) => {
              cb(null, this.readSafely(info.storageKey, userId));
            });
          }
        }
        zip.end();
      } catch (error) {
        output.destroy(error as Error);
      }
    })();
    zip.on("error", (error: Error) => output.destroy(error));
    return output;
  }
}
