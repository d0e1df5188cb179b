// Loaded only when someone records (dynamic import), so the encoder stays out of the first bundle.
import type { EncodeRequest, EncodeResponse } from "./mp3-encoder.worker";

/** Spec 5: decode to 16-bit mono PCM at the source sample rate (on the main thread). */
export async function decodeToPcm(
  recording: Blob,
  sampleRate: number,
): Promise<{ pcm: Int16Array; sampleRate: number }> {
  // An OfflineAudioContext at the source rate decodes without resampling.
  const context = new OfflineAudioContext(1, 1, sampleRate);
  const audio = await context.decodeAudioData(await recording.arrayBuffer());
  const length = audio.length;
  const pcm = new Int16Array(length);
  const channels = Array.from({ length: audio.numberOfChannels }, (_, i) =>
    audio.getChannelData(i),
  );
  for (let i = 0; i < length; i++) {
    let sum = 0;
    for (const channel of channels) sum += channel[i] ?? 0;
    const sample = Math.max(-1, Math.min(1, sum / channels.length));
    pcm[i] = sample < 0 ? sample * 0x8000 : sample * 0x7fff;
  }
  return { pcm, sampleRate: audio.sampleRate };
}

let worker: Worker | undefined;
let queue: Promise<unknown> = Promise.resolve();

function encoderWorker(): Worker {
  worker ??= new Worker(new URL("./mp3-encoder.worker.ts", import.meta.url), { type: "module" });
  return worker;
}

/** Starts the worker (and its WebAssembly download) ahead of need, e.g. when recording starts. */
export function warmUpEncoder(): void {
  encoderWorker();
}

/** Encodes in the Web Worker; one job at a time. */
export function encodeInWorker(pcm: Int16Array, sampleRate: number): Promise<Uint8Array> {
  const job = queue.then(
    () =>
      new Promise<Uint8Array>((resolve, reject) => {
        const w = encoderWorker();
        const onMessage = (event: MessageEvent<EncodeResponse>) => {
          w.removeEventListener("message", onMessage);
          w.removeEventListener("error", onError);
          if (event.data.ok) resolve(new Uint8Array(event.data.mp3));
          else reject(new Error(event.data.error));
        };
        const onError = (event: ErrorEvent) => {
          w.removeEventListener("message", onMessage);
          w.removeEventListener("error", onError);
          worker?.terminate();
          worker = undefined;
          reject(new Error(event.message || "MP3 encoder failed"));
        };
        w.addEventListener("message", onMessage);
        w.addEventListener("error", onError);
        const request: EncodeRequest = { pcm, sampleRate };
        w.postMessage(request, [pcm.buffer]);
      }),
  );
  queue = job.catch(() => undefined);
  return job;
}

/** The recording as an MP3 (mono, 128 kbps). */
export async function convertToMp3(recording: Blob, sourceSampleRate: number): Promise<Blob> {
  const { pcm, sampleRate } = await decodeToPcm(recording, sourceSampleRate);
  if (pcm.length === 0) throw new Error("The recording decoded to no samples");
  const mp3 = await encodeInWorker(pcm, sampleRate);
  return new Blob([mp3 as BlobPart], { type: "audio/mpeg" });
}
