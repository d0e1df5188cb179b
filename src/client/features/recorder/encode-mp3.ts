import type { WasmMediaEncoder } from "wasm-media-encoders";

/** MP3 settings: mono at 128 kbps (spec 9's bitrate). */
export const MP3_KBPS = 128;
/** Sample rates an MP3 can carry; any other source rate is resampled by LAME to 44.1 kHz. */
const MP3_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;
type Mp3Rate = (typeof MP3_RATES)[number];
/** Samples handed to the encoder at once (a multiple of the 1152-sample frame). */
const BLOCK = 1152 * 64;

/** Encodes 16-bit mono PCM at `sampleRate` into one MP3 file. */
export function encodeMp3(
  encoder: WasmMediaEncoder<"audio/mpeg">,
  pcm: Int16Array,
  sampleRate: number,
): Uint8Array {
  const outputSampleRate: Mp3Rate = (MP3_RATES as readonly number[]).includes(sampleRate)
    ? (sampleRate as Mp3Rate)
    : 44100;
  encoder.configure({ channels: 1, sampleRate, bitrate: MP3_KBPS, outputSampleRate });
  const parts: Uint8Array[] = [];
  let total = 0;
  const keep = (data: Uint8Array) => {
    // The encoder owns `data` and reuses it: copy.
    if (data.length === 0) return;
    parts.push(data.slice());
    total += data.length;
  };
  const block = new Float32Array(BLOCK);
  for (let offset = 0; offset < pcm.length; offset += BLOCK) {
    const length = Math.min(BLOCK, pcm.length - offset);
    for (let i = 0; i < length; i++) block[i] = (pcm[offset + i] ?? 0) / 32768;
    keep(encoder.encode([length === BLOCK ? block : block.subarray(0, length)]));
  }
  keep(encoder.finalize());
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
