import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The Chromium flags for a fake microphone that "speaks" the given WAV file once. */
export function fakeMicrophoneArgs(wavPath: string): string[] {
  return [
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    `--use-file-for-fake-audio-capture=${wavPath}%noloop`,
  ];
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === "object") resolve(address.port);
        else reject(new Error("no port"));
      });
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  logs: string[];
  stop(signal?: NodeJS.Signals): Promise<void>;
  cleanup(): Promise<void>;
}

/**
 * Starts the built app (`dist/server/main.js`, or another build's `entry`) as the README does, on
 * its own port and data folder.
 */
export async function startServer(
  /** More environment; `undefined` leaves a variable unset (e.g. APP_URL). */
  env: Record<string, string | undefined> = {},
  existing?: { dataDir: string; port: number },
  entry = "dist/server/main.js",
): Promise<RunningServer> {
  const dataDir = existing?.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), "vmj-e2e-")));
  const port = existing?.port ?? (await freePort());
  const logs: string[] = [];
  const child = spawn(process.execPath, [entry], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      APP_URL: `http://127.0.0.1:${port}`,
      // Journeys never fetch a Whisper model from the internet (the local provider would).
      WHISPER_AUTO_DOWNLOAD: "false",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d: Buffer) => logs.push(d.toString()));
  child.stderr?.on("data", (d: Buffer) => logs.push(d.toString()));
  let stopping = false;
  // A server that dies under a test (a crash, or killed from outside) says so, with its logs.
  child.on("exit", (code, signal) => {
    logs.push(`[server exited: code ${code}, signal ${signal}]\n`);
    if (!stopping)
      console.error(`The server on port ${port} exited unexpectedly:\n${logs.join("")}`);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited: ${logs.join("")}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`Server did not start: ${logs.join("")}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    stopping = true;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill(signal);
    await exited;
  };
  return {
    url,
    port,
    dataDir,
    process: child,
    logs,
    stop,
    cleanup: async () => {
      await stop();
      if (!existing) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * Gives a browser context the cookies an API client holds (its `cookieHeader()`, e.g. the session
 * it logged in with), so the context's pages are that user's.
 */
export async function addClientCookies(
  context: BrowserContext,
  serverUrl: string,
  cookieHeader: string,
): Promise<void> {
  const cookies = cookieHeader
    .split("; ")
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf("=");
      return {
        name: pair.slice(0, at),
        value: pair.slice(at + 1),
        url: serverUrl,
        httpOnly: true,
        sameSite: "Lax" as const,
      };
    });
  await context.addCookies(cookies);
}

/** A page that records console errors and failed requests so a test can assert there were none. */
export async function newPage(
  browser: Browser,
  /** Context options, e.g. a phone's `viewport`. */
  options?: BrowserContextOptions,
): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    // A 4xx answer from our API (401 from /api/user when logged out, 404 for a missing profile)
    // is handled by the app; Chromium still logs it. Script errors and 5xx are kept.
    const url = msg.location().url;
    const expected4xx =
      /^Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text()) &&
      new URL(url || "http://x/").pathname.startsWith("/api/");
    if (!expected4xx) consoleErrors.push(msg.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));
  return { context, page, consoleErrors };
}

/**
 * Console errors other than Chromium's notes about 401 and 404 answers: the app asks GET /api/user
 * to learn it is logged out (401) and opens shared links to memories that may be gone (404).
 */
export function unexpectedConsoleErrors(errors: string[]): string[] {
  return errors.filter(
    (text) =>
      !/^Failed to load resource: the server responded with a status of 40[14]\b/.test(text),
  );
}

/**
 * Waits until the confetti after a saved memory has fallen: canvas-confetti draws on a canvas it
 * appends to <body> and removes when its last particle is gone. For end-state screenshots.
 */
export async function confettiSettled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => ![...document.body.children].some((element) => element.tagName === "CANVAS"),
    undefined,
    { timeout: 30_000 },
  );
}

/** Speaks `text` into a WAV for the fake microphone, padded with silence; returns its path and length. */
export function makeSpeechWav(dir: string, text: string): { wav: string; seconds: number } {
  const raw = path.join(dir, "speech-raw.wav");
  const wav = path.join(dir, "speech.wav");
  execFileSync("espeak-ng", ["-w", raw, text]);
  // Padding with silence stops Chromium repeating the last 10 ms once the file ends.
  execFileSync("sox", [raw, wav, "pad", "0", "0.5"]);
  return { wav, seconds: Number(execFileSync("soxi", ["-D", raw]).toString().trim()) };
}
