import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** A published whisper.cpp model this product knows how to fetch and check. */
export interface ModelEntry {
  file: string;
  bytes: number;
  /**
   * SHA-256 of the file on the whisper.cpp model host (huggingface.co/ggerganov/whisper.cpp, the Git
   * LFS object id shown on each file's page). The same values are pinned by independent projects
   * (a Nix list of whisper models gives base as sha256-YO1bw90U7qhWST0zQ0m0BXgt3K8AKNS130CINF+6Lv4=,
   * tiny as sha256-vgfgSOHlma1GNByNKhNWRQl6U4IhZ4t6zdGxkZxuGyE=; app model catalogues list the hex
   * with these sizes); whisper.cpp's models/README.md lists the SHA-1 below for the same files.
   */
  sha256: string;
  sha1: string;
}

/** Multilingual models only: the language is detected and kept on the memory. */
export const WHISPER_MODELS = {
  tiny: {
    file: "ggml-tiny.bin",
    bytes: 77_691_713,
    sha256: "be07e048e1e599ad46341c8d2a135645097a538221678b7acdd1b1919c6e1b21",
    sha1: "bd577a113a864445d4c299885e0cb97d4ba92b5f",
  },
  base: {
    file: "ggml-base.bin",
    bytes: 147_951_465,
    sha256: "60ed5bc3dd14eea856493d334349b405782ddcaf0028d4b5df4088345fba2efe",
    sha1: "465707469ff3a37a2b9b8d8f89f2f99de7299dac",
  },
} as const satisfies Record<string, ModelEntry>;

export type ModelName = keyof typeof WHISPER_MODELS;
export const DEFAULT_WHISPER_MODEL: ModelName = "base";
export const DEFAULT_MODEL_HOST = "https://huggingface.co/ggerganov/whisper.cpp/resolve/main";

export function isModelName(value: string): value is ModelName {
  return Object.hasOwn(WHISPER_MODELS, value);
}

/** The command an administrator runs to get a model (start-up says it when none is present). */
export function downloadCommand(name: ModelName = DEFAULT_WHISPER_MODEL): string {
  return `npm run models -- download ${name}`;
}

/** Where models live: DATA_DIR/models. */
export function modelsDir(dataDir: string): string {
  return path.join(dataDir, "models");
}

/** WHISPER_MODEL as a file: a known name ("base") under DATA_DIR/models, else a path. */
export function modelPath(setting: string, dataDir: string): string {
  return isModelName(setting)
    ? path.join(modelsDir(dataDir), WHISPER_MODELS[setting].file)
    : path.resolve(setting);
}

// ggml tensor types: bytes per block and values per block (whisper.cpp's quantized models too).
const TENSOR_TYPES: Record<number, [bytes: number, values: number]> = {
  0: [4, 1],
  1: [2, 1],
  2: [18, 32],
  3: [20, 32],
  6: [22, 32],
  7: [24, 32],
  8: [34, 32],
};

/** What a model file's header says, once its layout checked out. */
export interface ModelInfo {
  vocab: number;
  state: number;
  audioLayers: number;
  textLayers: number;
  multilingual: boolean;
}

/**
 * Checks a model file's whole layout without loading its weights: magic, hyper-parameters, every
 * tensor header and that each tensor's data is there. whisper.cpp itself accepts a file cut short
 * (it treats a model without tensors as an empty test model) and aborts its process on others, so
 * this is what tells an administrator that a model is damaged. Throws a sentence saying what is wrong.
 */
export async function inspectModel(file: string): Promise<ModelInfo> {
  const handle = await open(file, "r").catch(() => {
    throw new Error(`the Whisper model ${file} is missing`);
  });
  try {
    const size = (await handle.stat()).size;
    let offset = 0;
    // Headers are read through a 1 MB window (the vocabulary alone is 50,000 small records);
    // tensor data is skipped, never read.
    let window = Buffer.alloc(0);
    let windowStart = 0;
    const read = async (bytes: number): Promise<Buffer> => {
      if (offset + bytes > size) throw new Error(`the Whisper model ${file} is cut short`);
      if (offset < windowStart || offset + bytes > windowStart + window.length) {
        window = Buffer.alloc(Math.min(size - offset, Math.max(bytes, 1 << 20)));
        await handle.read(window, 0, window.length, offset);
        windowStart = offset;
      }
      const start = offset - windowStart;
      offset += bytes;
      return window.subarray(start, start + bytes);
    };
    const int32s = async (count: number) => {
      const b = await read(4 * count);
      return Array.from({ length: count }, (_, i) => b.readInt32LE(4 * i));
    };
    const [magic] = await int32s(1);
    if (magic !== 0x67676d6c) throw new Error(`${file} is not a whisper.cpp model`);
    const [vocab = 0, , state = 0, , audioLayers = 0, , , , textLayers = 0] = await int32s(11);
    const [mels = 0, fft = 0] = await int32s(2);
    offset += 4 * mels * fft;
    const [words = 0] = await int32s(1);
    for (let i = 0; i < words; i++) {
      const [length = 0] = await int32s(1);
      offset += length;
    }
    let tensors = 0;
    while (offset < size) {
      const [dims = 0, nameLength = 0, type = -1] = await int32s(3);
      const shape = await int32s(dims);
      offset += nameLength;
      const layout = TENSOR_TYPES[type];
      if (!layout || dims < 1 || dims > 4) throw new Error(`${file} has an unknown tensor type`);
      const values = shape.reduce((a, b) => a * b, 1);
      offset += (values / layout[1]) * layout[0];
      if (offset > size) throw new Error(`the Whisper model ${file} is cut short`);
      tensors += 1;
    }
    // Encoder: 5 + 15 per layer + 2; decoder: 2 + 24 per layer + 2 (whisper.cpp's tensor list).
    const expected = 11 + 15 * audioLayers + 24 * textLayers;
    if (tensors !== expected) {
      throw new Error(`the Whisper model ${file} is cut short (${tensors} of ${expected} tensors)`);
    }
    return { vocab, state, audioLayers, textLayers, multilingual: vocab >= 51865 };
  } finally {
    await handle.close();
  }
}

export interface DownloadOptions {
  name: ModelName;
  dataDir: string;
  /** The model host (tests serve a file locally). */
  host?: string;
  /** Overrides the pinned entry (tests use a small generated file). */
  entry?: ModelEntry;
  onProgress?: (received: number, total: number) => void;
  /** Aborting it stops the download; nothing is left behind. */
  signal?: AbortSignal;
}

/**
 * Fetches a model from its public host into DATA_DIR/models, checking its size, SHA-256 and SHA-1
 * against the values pinned here before it takes the model's place: a damaged or altered download
 * is deleted and never used. Returns the model's path.
 */
export async function downloadModel(options: DownloadOptions): Promise<string> {
  const entry = options.entry ?? WHISPER_MODELS[options.name];
  const dir = modelsDir(options.dataDir);
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, entry.file);
  await removeAbandonedPartials(dir, entry.file);
  const partial = path.join(dir, `.${entry.file}.${randomBytes(6).toString("hex")}.partial`);
  const url = `${(options.host ?? DEFAULT_MODEL_HOST).replace(/\/$/, "")}/${entry.file}`;
  const response = await fetch(url, { redirect: "follow", signal: options.signal });
  if (!response.ok || !response.body) {
    throw new Error(`Download of ${url} failed: HTTP ${response.status}`);
  }
  const sha256 = createHash("sha256");
  const sha1 = createHash("sha1");
  let received = 0;
  try {
    await pipeline(
      Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>),
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          received += chunk.length;
          if (received > entry.bytes) throw new Error(`${url} is larger than ${entry.bytes} bytes`);
          sha256.update(chunk);
          sha1.update(chunk);
          options.onProgress?.(received, entry.bytes);
          yield chunk;
        }
      },
      createWriteStream(partial, { mode: 0o600 }),
    );
    const digest = sha256.digest("hex");
    if (received !== entry.bytes || digest !== entry.sha256 || sha1.digest("hex") !== entry.sha1) {
      throw new Error(
        `Checksum mismatch for ${entry.file}: got ${received} bytes with SHA-256 ${digest}, expected ${entry.bytes} bytes with SHA-256 ${entry.sha256}. The file was deleted.`,
      );
    }
    await rename(partial, target);
    return target;
  } finally {
    await rm(partial, { force: true });
  }
}

/** A partial download not written to for this long was left by a killed download, not a running one. */
const ABANDONED_PARTIAL_MS = 10 * 60 * 1000;

/** Deletes what killed downloads of this model left (a download still running writes all the time). */
async function removeAbandonedPartials(dir: string, file: string): Promise<void> {
  const cutoff = Date.now() - ABANDONED_PARTIAL_MS;
  for (const name of await readdir(dir)) {
    if (!name.startsWith(`.${file}.`) || !name.endsWith(".partial")) continue;
    const leftover = path.join(dir, name);
    const info = await stat(leftover).catch(() => null);
    if (info && info.mtimeMs < cutoff) await rm(leftover, { force: true });
  }
}

/** Whether a file exists (a model named in WHISPER_MODEL, for instance). */
export async function fileExists(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}
