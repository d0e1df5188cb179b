import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import {
  defaultStubHandler,
  type OpenAiStub,
  type StubHandler,
  startOpenAiStub,
} from "../src/server/test/openai-stub";
import type { Memory, MemoryCreateBody } from "../src/shared/schemas";
import { type ApiClient, serverFixture } from "./api-client";
import {
  fakeMicrophoneArgs,
  launchBrowser,
  makeSpeechWav,
  type RunningServer,
  startServer,
} from "./harness";

/** The server environment that points the `openai` provider at a local stub. */
export function openAiEnv(stub: OpenAiStub): Record<string, string> {
  return { AI_PROVIDER: "openai", OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: stub.baseURL };
}

/** What a browser journey runs on: the AI stub, the built server and Chromium. */
export interface JourneySetup {
  /** A temporary folder of its own (the speech WAV lives here). */
  workDir: string;
  stub: OpenAiStub;
  server: RunningServer;
  browser: Browser;
  /** How long the fake microphone speaks, in seconds (0 without `speech`). */
  speechSeconds: number;
  /** Closes the browser, stops the server and the stub, and removes the folders. */
  close(): Promise<void>;
}

/**
 * Starts the local OpenAI-compatible stub, the built server pointed at it, and Chromium whose fake
 * microphone speaks `speech` once (no fake microphone without it). What started is stopped again
 * if a later step fails.
 */
export async function startJourney(options: {
  /** Prefix of the temporary folder, to tell runs apart. */
  name: string;
  speech?: string;
  stub?: StubHandler;
  /** More server environment, over the stub's. */
  env?: Record<string, string | undefined>;
}): Promise<JourneySetup> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), `vmj-${options.name}-`));
  let stub: OpenAiStub | undefined;
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await server?.cleanup();
    await stub?.close();
    await rm(workDir, { recursive: true, force: true });
  };
  try {
    let speechSeconds = 0;
    let browserArgs: string[] = [];
    if (options.speech !== undefined) {
      const speech = makeSpeechWav(workDir, options.speech);
      speechSeconds = speech.seconds;
      browserArgs = fakeMicrophoneArgs(speech.wav);
    }
    stub = await startOpenAiStub(options.stub ?? defaultStubHandler);
    server = await startServer({ ...openAiEnv(stub), ...options.env });
    browser = await launchBrowser(browserArgs);
    return { workDir, stub, server, browser, speechSeconds, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Uploads the test tone as a memory's audio and creates the memory with POST /api/memories. */
export async function seedMemory(
  owner: ApiClient,
  memory: Omit<MemoryCreateBody, "audioUrl" | "recordedAt"> & { recordedAt?: string },
): Promise<Memory> {
  const upload = await owner.upload(await serverFixture("tone.mp3"));
  if (upload.status !== 201) throw new Error(`upload failed: ${upload.status}`);
  const { url } = (await upload.json()) as { url: string };
  const created = await owner.json<Memory>("POST", "/api/memories", {
    recordedAt: new Date().toISOString(),
    ...memory,
    audioUrl: url,
  });
  if (created.status !== 201) {
    throw new Error(`creating a memory failed: ${created.status} ${JSON.stringify(created.data)}`);
  }
  return created.data;
}

/**
 * Whether `bytes` start like an MP3 file: an optional ID3v2 tag, then an MPEG audio frame header
 * (11 sync bits, a valid version, layer, bitrate and sample rate).
 */
export function looksLikeMp3(bytes: Buffer): boolean {
  let offset = 0;
  if (bytes.subarray(0, 3).toString("latin1") === "ID3" && bytes.length >= 10) {
    // The tag size is 4 "syncsafe" bytes of 7 bits each, after the 10-byte header.
    const size =
      ((bytes[6] ?? 0) << 21) | ((bytes[7] ?? 0) << 14) | ((bytes[8] ?? 0) << 7) | (bytes[9] ?? 0);
    offset = 10 + size;
  }
  const [b0, b1, b2] = [bytes[offset], bytes[offset + 1], bytes[offset + 2]];
  if (b0 === undefined || b1 === undefined || b2 === undefined) return false;
  const sync = b0 === 0xff && (b1 & 0xe0) === 0xe0;
  const version = (b1 >> 3) & 0b11; // 01 is reserved
  const layer = (b1 >> 1) & 0b11; // 00 is reserved
  const bitrate = b2 >> 4; // 1111 is invalid
  const sampleRate = (b2 >> 2) & 0b11; // 11 is reserved
  return sync && version !== 1 && layer !== 0 && bitrate !== 0b1111 && sampleRate !== 0b11;
}
