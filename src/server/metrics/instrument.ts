import type { Readable } from "node:stream";
import type { AiProviders, CallOptions } from "../ai/ai";
import type { AudioStorage, ByteRange } from "../storage/audio-storage";
import type { AiOperation, Metrics, StorageOperation } from "./metrics";

/**
 * The storage with every failed operation counted (`storage_errors_total`), whichever backend it
 * is: one decorator applied in compose.ts instead of counting inside each backend.
 */
export function countStorageErrors(
  storage: AudioStorage,
  metrics: Pick<Metrics, "storageError">,
): AudioStorage {
  const counted = async <T>(operation: StorageOperation, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      metrics.storageError(operation);
      throw error;
    }
  };
  return {
    description: storage.description,
    write: (key: string, source: Readable) => counted("write", () => storage.write(key, source)),
    read: (key: string, range?: ByteRange) => {
      let stream: Readable;
      try {
        stream = storage.read(key, range);
      } catch (error) {
        metrics.storageError("read");
        throw error;
      }
      // A read fails on the stream (a missing file, a dropped connection), not on the call. The
      // consumer (pipeline(), reply.send) keeps its own error listener and sees the same error.
      stream.once("error", () => metrics.storageError("read"));
      return stream;
    },
    size: (key: string) => counted("size", () => storage.size(key)),
    delete: (key: string) => counted("delete", () => storage.delete(key)),
    checkWritable: () => counted("checkWritable", () => storage.checkWritable()),
    check: () => counted("check", () => storage.check()),
    sweepTemporaryFiles: (now: Date) => counted("sweep", () => storage.sweepTemporaryFiles(now)),
    list: async function* () {
      try {
        yield* storage.list();
      } catch (error) {
        metrics.storageError("list");
        throw error;
      }
    },
  };
}

/**
 * The AI providers with every call timed and its errors counted (`ai_call_duration_seconds`,
 * `ai_call_errors_total`). A call the caller aborted (a worker that lost its lease) is counted as
 * aborted, not as the provider's error.
 */
export function timeAiCalls(ai: AiProviders, metrics: Pick<Metrics, "aiCall">): AiProviders {
  const timed = async <T>(
    operation: AiOperation,
    options: CallOptions | undefined,
    call: () => Promise<T>,
  ): Promise<T> => {
    const began = performance.now();
    const seconds = () => (performance.now() - began) / 1000;
    try {
      const result = await call();
      metrics.aiCall(ai.name, operation, "ok", seconds());
      return result;
    } catch (error) {
      metrics.aiCall(ai.name, operation, options?.signal?.aborted ? "aborted" : "error", seconds());
      throw error;
    }
  };
  const { transcriber, textModel } = ai;
  return {
    name: ai.name,
    transcriber: {
      transcribe: (audio, options) =>
        timed("transcribe", options, () => transcriber.transcribe(audio, options)),
    },
    textModel: {
      summarize: (transcript, options) =>
        timed("summarize", options, () => textModel.summarize(transcript, options)),
      score: (transcript, options) =>
        timed("score", options, () => textModel.score(transcript, options)),
      tags: (transcript, now, options) =>
        timed("tags", options, () => textModel.tags(transcript, now, options)),
    },
  };
}
