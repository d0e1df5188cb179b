import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeMp3, openEncoderPage } from "./mp3-page";

describe("the MP3 worker in Chromium", () => {
  let encoder: Awaited<ReturnType<typeof openEncoderPage>>;
  beforeAll(async () => {
    encoder = await openEncoderPage();
  });
  afterAll(async () => {
    await encoder?.close();
  });

  it.each([48000, 44100, 22050])(
    "encodes 5 s of 16-bit mono PCM at %i Hz into an MP3 of 5 s",
    async (sampleRate) => {
      const { mp3 } = await encoder.page.evaluate(
        ([seconds, rate]) => window.encodeTone(seconds, rate),
        [5, sampleRate] as const,
      );
      const bytes = Uint8Array.from(mp3);
      expect(bytes.length).toBeGreaterThan(1000);
      const decoded = await decodeMp3(bytes);
      expect(decoded.sampleRate).toBe(sampleRate);
      expect(decoded.seconds).toBeGreaterThan(4.95);
      expect(decoded.seconds).toBeLessThan(5.1);
      // A 0.3 amplitude sine has an RMS of about 0.21: the sound survived, not silence.
      expect(decoded.rms).toBeGreaterThan(0.15);
      expect(decoded.rms).toBeLessThan(0.26);
      // 128 kbps mono: about 16 KB per second.
      expect(bytes.length / 5).toBeGreaterThan(14_000);
      expect(bytes.length / 5).toBeLessThan(18_000);
    },
  );

  it("decodes a recording on the page and converts it to MP3 of the same length", async () => {
    const { mp3, type } = await encoder.page.evaluate(() => window.convertWav(3, 48000));
    expect(type).toBe("audio/mpeg");
    const decoded = await decodeMp3(Uint8Array.from(mp3));
    expect(decoded.seconds).toBeGreaterThan(2.95);
    expect(decoded.seconds).toBeLessThan(3.1);
  });
});
