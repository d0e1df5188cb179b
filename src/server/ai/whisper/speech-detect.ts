/**
 * Energy-based voice activity detection, run before Whisper because Whisper invents text for
 * silence and steady noise ("Thank you for watching."). A frame counts as voiced when it is well
 * above the recording's own noise floor and above an absolute floor, so a quiet room, a hum or a
 * fan (loud but steady) are not speech, while words, which rise and fall, are.
 */
export interface SpeechEstimate {
  /** Seconds of frames that look like speech. */
  voicedSeconds: number;
  /** The quietest tenth of the recording, in dBFS. */
  noiseFloorDb: number;
  /** The loudest frame, in dBFS. */
  peakDb: number;
}

const FRAME_SECONDS = 0.03;
/** Quieter than this is silence whatever the floor (a muted microphone, digital silence). */
const ABSOLUTE_FLOOR_DB = -50;
/** Speech rises this far above the pauses between words (6 dB: speech 5 dB over room noise). */
const ABOVE_FLOOR_DB = 6;
/** Less voiced audio than this (a click, a cough) is not a memory worth transcribing. */
export const MIN_VOICED_SECONDS = 0.3;

export function estimateSpeech(samples: Float32Array, sampleRate: number): SpeechEstimate {
  const frame = Math.max(1, Math.round(sampleRate * FRAME_SECONDS));
  const levels: number[] = [];
  for (let start = 0; start + frame <= samples.length; start += frame) {
    let sum = 0;
    for (let i = start; i < start + frame; i++) {
      const v = samples[i] ?? 0;
      sum += v * v;
    }
    levels.push(10 * Math.log10(sum / frame + 1e-12));
  }
  if (levels.length === 0) return { voicedSeconds: 0, noiseFloorDb: -120, peakDb: -120 };
  const sorted = [...levels].sort((a, b) => a - b);
  const noiseFloorDb = sorted[Math.floor(sorted.length * 0.1)] ?? -120;
  const threshold = Math.max(ABSOLUTE_FLOOR_DB, noiseFloorDb + ABOVE_FLOOR_DB);
  const voiced = levels.filter((level) => level > threshold).length;
  return {
    voicedSeconds: voiced * FRAME_SECONDS,
    noiseFloorDb,
    peakDb: sorted.at(-1) ?? -120,
  };
}

/** Whether the recording holds enough speech to be worth transcribing. */
export function hasSpeech(samples: Float32Array, sampleRate: number): boolean {
  return estimateSpeech(samples, sampleRate).voicedSeconds >= MIN_VOICED_SECONDS;
}
