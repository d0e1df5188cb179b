import { createHash, randomBytes } from "node:crypto";
import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { CreateMultipartUploadCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { makeTempDir, STORAGE_KINDS, type StorageKind } from "../test/harness";
import { startTestS3, type TestS3 } from "../test/s3-server";
import type { AudioStorage } from "./audio-storage";
import { LocalAudioStorage, TEMPORARY_FILE_GRACE_MS } from "./local-storage";
import { S3AudioStorage } from "./s3-storage";

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.stop();
});

interface Opened {
  storage: AudioStorage;
  /** Anything an interrupted write left: temporary files, or unfinished multipart uploads. */
  leftovers(): Promise<number>;
  /**
   * Starts writing `data` under `key` and resolves once part of it is stored and the rest held:
   * a write in progress. `release` lets the rest through; `done` is the write.
   */
  heldWrite(key: string, data: Buffer): Promise<{ release(): void; done: Promise<unknown> }>;
  cleanup(): Promise<void>;
}

async function openStorage(kind: StorageKind, prefix = "audio"): Promise<Opened> {
  if (kind === "local") {
    const root = await makeTempDir("vmj-storage-");
    const dir = path.join(root, "audio");
    const storage = new LocalAudioStorage(dir);
    await storage.checkWritable();
    return {
      storage,
      leftovers: async () => (await readdir(dir)).filter((n) => n.startsWith(".")).length,
      heldWrite: async (key, data) => {
        const source = new PassThrough();
        const done = storage.write(key, source);
        const half = data.length / 2;
        source.write(data.subarray(0, half));
        await vi.waitFor(async () => {
          const temporary = (await readdir(dir)).filter((n) => n.startsWith(".tmp-"));
          expect(temporary).toHaveLength(1);
          expect((await stat(path.join(dir, temporary[0] ?? ""))).size).toBe(half);
        });
        return { release: () => source.end(data.subarray(half)), done };
      },
      cleanup: () => rm(root, { recursive: true, force: true }),
    };
  }
  const settings = await s3.createBucket(prefix);
  const storage = new S3AudioStorage(settings);
  await storage.checkWritable();
  return {
    storage,
    leftovers: () => s3.unfinishedUploads(settings.bucket),
    heldWrite: async (key, data) => {
      const held = s3.holdNextWrite(settings.bucket);
      const done = storage.write(key, Readable.from([data]));
      return { release: (await held).release, done };
    },
    cleanup: async () => storage.client.destroy(),
  };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A source that sends `bytes` random bytes and then fails, as an upload over the size limit does. */
function failingSource(bytes: number, error: Error): Readable {
  async function* chunks() {
    for (let sent = 0; sent < bytes; sent += 1024 * 1024) yield randomBytes(1024 * 1024);
    throw error;
  }
  return Readable.from(chunks());
}

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const list = async (storage: AudioStorage) => {
  const files = [];
  for await (const file of storage.list()) files.push(file);
  return files.sort((a, b) => a.key.localeCompare(b.key));
};

describe.each(STORAGE_KINDS)("audio storage on %s", (kind) => {
  it("stores a stream, reads it whole and by inclusive range, and reports its size", async () => {
    const { storage, cleanup } = await openStorage(kind);
    try {
      const data = randomBytes(300_000);
      expect(
        await storage.write(
          "abc.webm",
          Readable.from([data.subarray(0, 1000), data.subarray(1000)]),
        ),
      ).toEqual({
        bytes: data.length,
      });
      expect(await storage.size("abc.webm")).toBe(data.length);
      expect((await readAll(storage.read("abc.webm"))).equals(data)).toBe(true);
      const part = await readAll(storage.read("abc.webm", { start: 10, end: 19 }));
      expect(part.equals(data.subarray(10, 20))).toBe(true);
      const tail = await readAll(
        storage.read("abc.webm", { start: data.length - 1, end: data.length - 1 }),
      );
      expect([...tail]).toEqual([data[data.length - 1]]);
    } finally {
      await cleanup();
    }
  });

  it("streams a recording larger than one multipart part intact (10 MB)", async () => {
    const { storage, cleanup, leftovers } = await openStorage(kind);
    try {
      const data = randomBytes(10 * 1024 * 1024);
      const chunks = [];
      for (let at = 0; at < data.length; at += 64 * 1024)
        chunks.push(data.subarray(at, at + 64 * 1024));
      expect((await storage.write("big.mp3", Readable.from(chunks))).bytes).toBe(data.length);
      expect(sha256(await readAll(storage.read("big.mp3")))).toBe(sha256(data));
      expect(await leftovers()).toBe(0);
    } finally {
      await cleanup();
    }
  });

  it("reports a missing file as null size, an erroring read, and a harmless delete", async () => {
    const { storage, cleanup } = await openStorage(kind);
    try {
      expect(await storage.size("missing.webm")).toBeNull();
      await expect(readAll(storage.read("missing.webm"))).rejects.toThrow();
      await storage.delete("missing.webm");
      await storage.write("gone.webm", Readable.from([Buffer.from("sound")]));
      await storage.delete("gone.webm");
      expect(await storage.size("gone.webm")).toBeNull();
    } finally {
      await cleanup();
    }
  });

  it("keeps nothing when the source fails, small or past a multipart part, and throws its error", async () => {
    const { storage, cleanup, leftovers } = await openStorage(kind);
    try {
      const tooLarge = Object.assign(new Error("too large"), { statusCode: 413 });
      await expect(storage.write("small.webm", failingSource(1024 * 1024, tooLarge))).rejects.toBe(
        tooLarge,
      );
      // 20 MB: two 8 MB parts are in the bucket when the source fails; the upload is aborted.
      await expect(
        storage.write("large.webm", failingSource(20 * 1024 * 1024, tooLarge)),
      ).rejects.toBe(tooLarge);
      expect(await storage.size("small.webm")).toBeNull();
      expect(await storage.size("large.webm")).toBeNull();
      expect(await list(storage)).toEqual([]);
      expect(await leftovers()).toBe(0);
    } finally {
      await cleanup();
    }
  });

  it("lists stored files with their sizes, never probes or another prefix's files", async () => {
    const first = await openStorage(kind, "one");
    const second = await openStorage(kind, "two");
    try {
      await first.storage.write("a.webm", Readable.from([Buffer.alloc(10)]));
      await first.storage.write("b.mp3", Readable.from([Buffer.alloc(20)]));
      await second.storage.write("c.ogg", Readable.from([Buffer.alloc(30)]));
      expect(await list(first.storage)).toEqual([
        { key: "a.webm", bytes: 10 },
        { key: "b.mp3", bytes: 20 },
      ]);
      expect(await list(second.storage)).toEqual([{ key: "c.ogg", bytes: 30 }]);
    } finally {
      await first.cleanup();
      await second.cleanup();
    }
  });

  it("shows nothing of a file being written until it is complete", async () => {
    const { storage, cleanup, heldWrite } = await openStorage(kind);
    let writing: Awaited<ReturnType<Opened["heldWrite"]>> | undefined;
    try {
      await storage.write("done.webm", Readable.from([Buffer.alloc(10)]));
      const data = randomBytes(16_000);
      writing = await heldWrite("writing.webm", data);
      expect(await list(storage)).toEqual([{ key: "done.webm", bytes: 10 }]);
      expect(await storage.size("writing.webm")).toBeNull();
      await expect(readAll(storage.read("writing.webm"))).rejects.toThrow();
      writing.release();
      await writing.done;
      expect(await list(storage)).toEqual([
        { key: "done.webm", bytes: 10 },
        { key: "writing.webm", bytes: data.length },
      ]);
      expect((await readAll(storage.read("writing.webm"))).equals(data)).toBe(true);
    } finally {
      writing?.release();
      await writing?.done.catch(() => undefined);
      await cleanup();
    }
  });

  it("refuses keys the server could not have made", async () => {
    const { storage, cleanup } = await openStorage(kind);
    try {
      for (const key of ["../escape.webm", "a/b.webm", "", ".probe-x"]) {
        expect(() => storage.read(key)).toThrow(/Invalid storage key/);
        await expect(storage.size(key)).rejects.toThrow(/Invalid storage key/);
      }
    } finally {
      await cleanup();
    }
  });

  it("passes its health check while reachable", async () => {
    const { storage, cleanup } = await openStorage(kind);
    try {
      await expect(storage.check()).resolves.toBeUndefined();
    } finally {
      await cleanup();
    }
  });
});

describe("S3 audio storage", () => {
  it("aborts multipart uploads a crashed instance left, after the grace period only", async () => {
    const settings = await s3.createBucket("audio");
    const storage = new S3AudioStorage(settings);
    try {
      await storage.client.send(
        new CreateMultipartUploadCommand({ Bucket: settings.bucket, Key: "audio/crashed.webm" }),
      );
      expect(await s3.unfinishedUploads(settings.bucket)).toBe(1);
      expect(await storage.sweepTemporaryFiles(new Date())).toBe(0);
      const later = new Date(Date.now() + TEMPORARY_FILE_GRACE_MS + 1000);
      expect(await storage.sweepTemporaryFiles(later)).toBe(1);
      expect(await s3.unfinishedUploads(settings.bucket)).toBe(0);
    } finally {
      storage.client.destroy();
    }
  });

  it("names the setting to fix when the bucket cannot be used at start-up", async () => {
    const settings = await s3.createBucket();
    const cases: [Partial<typeof settings>, RegExp][] = [
      [{ bucket: "no-such-bucket" }, /Check STORAGE_URL/],
      // s3rver checks the key id (not v4 signatures, so not the secret).
      [{ accessKeyId: "NOBODY" }, /Check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/],
      [{ endpoint: "http://127.0.0.1:1" }, /Check S3_ENDPOINT/],
    ];
    for (const [change, message] of cases) {
      const storage = new S3AudioStorage({ ...settings, ...change });
      try {
        await expect(storage.checkWritable()).rejects.toThrow(message);
        await expect(storage.check()).rejects.toThrow();
      } finally {
        storage.client.destroy();
      }
    }
  });
});
