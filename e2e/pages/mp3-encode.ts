// A page (served by Vite in tests and benches) that drives the app's real MP3 worker in Chromium.
import { convertToMp3, encodeInWorker } from "../../src/client/features/recorder/convert-to-mp3";

/** A 440 Hz tone as 16-bit mono PCM. */
function tone(seconds: number, sampleRate: number): Int16Array {
  const pcm = new Int16Array(Math.round(seconds * sampleRate));
  for (let i = 0; i < pcm.length; i++) {
    pcm[i] = Math.round(Math.sin((2 * Math.PI * 440 * i) / sampleRate) * 0.3 * 32767);
  }
  return pcm;
}

/** A WAV file of the tone, as a recording would arrive from MediaRecorder. */
function wav(pcm: Int16Array, sampleRate: number): Blob {
  const header = new DataView(new ArrayBuffer(44));
  const text = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) header.setUint8(at + i, s.charCodeAt(i));
  };
  text(0, "RIFF");
  header.setUint32(4, 36 + pcm.byteLength, true);
  text(8, "WAVE");
  text(12, "fmt ");
  header.setUint32(16, 16, true);
  header.setUint16(20, 1, true);
  header.setUint16(22, 1, true);
  header.setUint32(24, sampleRate, true);
  header.setUint32(28, sampleRate * 2, true);
  header.setUint16(32, 2, true);
  header.setUint16(34, 16, true);
  text(36, "data");
  header.setUint32(40, pcm.byteLength, true);
  return new Blob([header, pcm as BlobPart], { type: "audio/wav" });
}

declare global {
  interface Window {
    encodeTone(seconds: number, sampleRate: number): Promise<{ mp3: number[]; ms: number }>;
    convertWav(seconds: number, sampleRate: number): Promise<{ mp3: number[]; type: string }>;
  }
}

window.encodeTone = async (seconds, sampleRate) => {
  const pcm = tone(seconds, sampleRate);
  const started = performance.now();
  const mp3 = await encodeInWorker(pcm, sampleRate);
  return { mp3: Array.from(mp3), ms: performance.now() - started };
};

window.convertWav = async (seconds, sampleRate) => {
  const blob = await convertToMp3(wav(tone(seconds, sampleRate), sampleRate), sampleRate);
  return { mp3: Array.from(new Uint8Array(await blob.arrayBuffer())), type: blob.type };
};

const ready = document.getElementById("ready");
if (ready) ready.textContent = "ready";
