/// <reference lib="webworker" />
// Encodes PCM to MP3 off the main thread, so the page never freezes. Workers have no AudioContext:
// the page decodes the recording and transfers the 16-bit samples here.
import { createEncoder, type WasmMediaEncoder } from "wasm-media-encoders";
// The package's own export for this path is misspelled; Vite's ?url gives the file's URL.
import mp3WasmUrl from "wasm-media-encoders/wasm/mp3?url";
import { encodeMp3 } from "./encode-mp3";

export interface EncodeRequest {
  pcm: Int16Array;
  sampleRate: number;
}
export type EncodeResponse = { ok: true; mp3: ArrayBuffer } | { ok: false; error: string };

// Fetch and compile the WebAssembly as soon as the worker starts (when recording starts), so a
// connection lost while recording does not stop the conversion.
let encoder: Promise<WasmMediaEncoder<"audio/mpeg">> | undefined = createEncoder(
  "audio/mpeg",
  mp3WasmUrl,
);
encoder.catch(() => {
  encoder = undefined;
});

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = async (event: MessageEvent<EncodeRequest>) => {
  try {
    encoder ??= createEncoder("audio/mpeg", mp3WasmUrl);
    const mp3 = encodeMp3(await encoder, event.data.pcm, event.data.sampleRate);
    const response: EncodeResponse = { ok: true, mp3: mp3.buffer as ArrayBuffer };
    scope.postMessage(response, [mp3.buffer as ArrayBuffer]);
  } catch (error) {
    encoder = undefined;
    const response: EncodeResponse = { ok: false, error: String(error) };
    scope.postMessage(response);
  }
};
