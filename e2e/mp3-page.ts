import path from "node:path";
import { MPEGDecoder } from "mpg123-decoder";
import type { Browser, Page } from "playwright-core";
import { createServer, type ViteDevServer } from "vite";
import { freePort, launchBrowser } from "./harness";

/** Serves e2e/pages with Vite (real worker and WebAssembly handling) and opens the encoder page. */
export async function openEncoderPage(): Promise<{
  page: Page;
  close(): Promise<void>;
}> {
  const root = path.resolve(import.meta.dirname, "pages");
  const server: ViteDevServer = await createServer({
    configFile: false,
    root,
    logLevel: "silent",
    server: {
      host: "127.0.0.1",
      port: await freePort(),
      strictPort: true,
      fs: { allow: [path.resolve(import.meta.dirname, "..")] },
    },
  });
  await server.listen();
  const browser: Browser = await launchBrowser();
  const page = await browser.newPage();
  const address = server.resolvedUrls?.local[0] ?? "";
  await page.goto(`${address}mp3-encode.html`);
  await page.waitForFunction(
    () => document.getElementById("ready")?.textContent === "ready",
    null,
    {
      timeout: 60_000,
    },
  );
  return {
    page,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

/** Decodes an MP3 and reports its duration and loudness. */
export async function decodeMp3(
  bytes: Uint8Array,
): Promise<{ seconds: number; sampleRate: number; rms: number }> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const { channelData, samplesDecoded, sampleRate, errors } = decoder.decode(bytes);
    if (errors.length > 0) throw new Error(`MP3 decode errors: ${JSON.stringify(errors[0])}`);
    const left = channelData[0] ?? new Float32Array();
    let sum = 0;
    for (const sample of left) sum += sample * sample;
    return {
      seconds: samplesDecoded / sampleRate,
      sampleRate,
      rms: Math.sqrt(sum / Math.max(1, left.length)),
    };
  } finally {
    decoder.free();
  }
}
