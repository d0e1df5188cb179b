// MP3 encoding speed in Chromium: the app's real worker (wasm-media-encoders) on 60 s of audio.
// Prints times real time, beside a floor measured in the same run (a 0.1 s encode: worker
// messaging and encoder set-up, which every recording pays once).
import { openEncoderPage } from "../e2e/mp3-page";

const print = (line: string) => process.stdout.write(`${line}\n`);

const SECONDS = 60;
const SAMPLE_RATE = 48000;
const RUNS = 3;

const encoder = await openEncoderPage();
try {
  // Warm up: load the WebAssembly and JIT the page code.
  await encoder.page.evaluate(() => window.encodeTone(1, 48000).then(() => undefined));
  const floor: number[] = [];
  const full: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    floor.push(
      await encoder.page.evaluate(([rate]) => window.encodeTone(0.1, rate).then((r) => r.ms), [
        SAMPLE_RATE,
      ] as const),
    );
    full.push(
      await encoder.page.evaluate(
        ([seconds, rate]) => window.encodeTone(seconds, rate).then((r) => r.ms),
        [SECONDS, SAMPLE_RATE] as const,
      ),
    );
  }
  const best = Math.min(...full);
  const median = [...full].sort((a, b) => a - b)[Math.floor(full.length / 2)] ?? best;
  print(
    `mp3-encode: ${SECONDS} s of mono ${SAMPLE_RATE} Hz audio to 128 kbps MP3 in a Web Worker (Chromium)`,
  );
  print(
    `  median ${median.toFixed(0)} ms = ${((SECONDS * 1000) / median).toFixed(1)}x real time (best ${((SECONDS * 1000) / best).toFixed(1)}x)`,
  );
  print(
    `  floor: 0.1 s encode round trip ${Math.min(...floor).toFixed(1)} ms (worker messaging and set-up)`,
  );
} finally {
  await encoder.close();
}
