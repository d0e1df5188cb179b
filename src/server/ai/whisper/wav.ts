/** 16 kHz mono 16-bit PCM, the WAV that `toWav16kMono` writes and Whisper expects. */
export const WHISPER_SAMPLE_RATE = 16_000;

/**
 * The samples of a 16-bit PCM mono WAV as floats in [-1, 1] (Whisper's input). Walks the RIFF
 * chunks rather than assuming a 44-byte header: ffmpeg may add a LIST chunk.
 */
export function wavSamples(wav: Buffer): Float32Array {
  if (wav.toString("ascii", 0, 4) !== "RIFF" || wav.toString("ascii", 8, 12) !== "WAVE") {
    throw new Error("not a WAV file");
  }
  let offset = 12;
  let format: { channels: number; rate: number; bits: number } | null = null;
  while (offset + 8 <= wav.length) {
    const id = wav.toString("ascii", offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt ") {
      format = {
        channels: wav.readUInt16LE(body + 2),
        rate: wav.readUInt32LE(body + 4),
        bits: wav.readUInt16LE(body + 14),
      };
    } else if (id === "data") {
      if (format?.bits !== 16 || format.channels !== 1) {
        throw new Error("expected 16-bit mono PCM");
      }
      // ffmpeg streaming to a pipe writes a placeholder size: take what is there.
      const end = Math.min(wav.length, body + size) & ~1;
      const count = (end - body) / 2;
      const samples = new Float32Array(count);
      for (let i = 0; i < count; i++) samples[i] = wav.readInt16LE(body + 2 * i) / 32768;
      return samples;
    }
    offset = body + size + (size % 2);
  }
  throw new Error("WAV file has no data");
}
