import { Readable } from "node:stream";
import { ZipFile } from "yazl";
import type { Comment, Memory } from "../../shared/schemas";
import { toCommentDto } from "../comments/comments.repo";
import type { AudioStorage } from "../storage/audio-storage";
import { type CommentRow, type MemoriesRepo, type MemoryRow, toMemoryDto } from "./memories.repo";

/** Memories read from the database per query while the zip streams. */
const BATCH_SIZE = 200;

/** Version of the memories.json layout, for whoever restores from it. */
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupAudioRef {
  /** Path of the audio inside the zip, e.g. `audio/<audio id>.mp3`. */
  audioFile: string | null;
  audioContentType: string | null;
  audioBytes: number | null;
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
    private readonly storage: AudioStorage,
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
      const comments = await this.repo.commentsFor(memories.map((memory) => memory.id));
      const audioIds = [...memories, ...comments]
        .map((row) => row.audio_id)
        .filter((id): id is string => id !== null);
      const files = await this.repo.audioFiles(audioIds);
      const audio = new Map(
        files.map((file) => [
          file.id,
          {
            storageKey: file.storage_key,
            contentType: file.content_type,
            bytes: Number(file.bytes),
            zipPath: `audio/${file.id}.${extensionOf(file.storage_key)}`,
          },
        ]),
      );
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

  /** The zip stream for `userId`; errors (a vanished audio file) end the stream with an error. */
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
            zip.addReadStreamLazy(info.zipPath, { mtime, compress: false }, (cb) => {
              try {
                cb(null, this.storage.read(info.storageKey));
              } catch (error) {
                cb(error as Error, undefined as unknown as Readable);
              }
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
