import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../test/harness";
import { startTestS3, type TestS3 } from "../test/s3-server";
import type { AudioStorage } from "./audio-storage";
import { LocalAudioStorage } from "./local-storage";
import { S3AudioStorage } from "./s3-storage";
import { copyAudio } from "./storage-copy";

let s3: TestS3;
let root: string;
beforeAll(async () => {
  s3 = await startTestS3();
  root = await makeTempDir("vmj-copy-");
});
afterAll(async () => {
  await s3?.stop();
  await rm(root, { recursive: true, force: true });
});

async function readAll(storage: AudioStorage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function folderWith(name: string, files: Record<string, Buffer>): Promise<LocalAudioStorage> {
  const folder = new LocalAudioStorage(path.join(root, name));
  await folder.checkWritable();
  for (const [key, data] of Object.entries(files)) await folder.write(key, Readable.from([data]));
  return folder;
}

describe("copying audio from a folder into a bucket", () => {
  it("copies every file verified, resumes without copying again, and repairs a differing copy", async () => {
    const files = {
      "a.webm": randomBytes(2000),
      "b.mp3": randomBytes(9 * 1024 * 1024),
      "c.ogg": randomBytes(10),
    };
    const folder = await folderWith("copy", files);
    const settings = await s3.createBucket("journal");
    const bucket = new S3AudioStorage(settings);
    try {
      const first = await copyAudio(folder, bucket);
      expect(first).toMatchObject({ copied: 3, alreadyThere: 0, failed: [] });
      for (const [key, data] of Object.entries(files)) {
        expect((await readAll(bucket, key)).equals(data)).toBe(true);
      }
      // An interrupted or repeated run only checks what is already there.
      expect(await copyAudio(folder, bucket)).toMatchObject({ copied: 0, alreadyThere: 3 });
      // A copy with the right size but other bytes (a bad earlier write) is copied again.
      await bucket.write("a.webm", Readable.from([randomBytes(2000)]));
      expect(await copyAudio(folder, bucket)).toMatchObject({ copied: 1, alreadyThere: 2 });
      expect((await readAll(bucket, "a.webm")).equals(files["a.webm"])).toBe(true);
    } finally {
      bucket.client.destroy();
    }
  });

  it("reports a file that cannot be read and copies the rest", async () => {
    const folder = await folderWith("broken", {
      "ok.webm": randomBytes(100),
      "gone.webm": randomBytes(100),
    });
    const settings = await s3.createBucket();
    const bucket = new S3AudioStorage(settings);
    // Listed, then gone before it is read (deleted meanwhile).
    const flaky: AudioStorage = Object.assign(Object.create(folder), {
      read: (key: string) => (key === "gone.webm" ? folder.read("missing.webm") : folder.read(key)),
    });
    try {
      const report = await copyAudio(flaky, bucket);
      expect(report.copied).toBe(1);
      expect(report.failed.map((f) => f.key)).toEqual(["gone.webm"]);
      expect(await bucket.size("gone.webm")).toBeNull();
    } finally {
      bucket.client.destroy();
    }
  });

  it("runs as `npm run admin -- copy-files file: s3://bucket/prefix` (file: is DATA_DIR/audio)", async () => {
    await folderWith("audio", { "x.webm": randomBytes(500) });
    const settings = await s3.createBucket();
    const cli = path.join(import.meta.dirname, "..", "admin", "admin-cli.ts");
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ["--import", "tsx", cli, ...args], {
          env: { PATH: process.env.PATH ?? "", ...s3.env(settings), DATA_DIR: root },
        });
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
        });
        child.stderr.on("data", (chunk: Buffer) => {
          out += chunk.toString();
        });
        child.on("exit", (code) => resolve({ code, out }));
      });
    const copied = await run(["copy-files", "file:", `s3://${settings.bucket}/audio`]);
    expect(copied.out).toContain("Done: 1 copied (500 bytes), 0 already there, 0 failed.");
    expect(copied.out).toContain(`Set STORAGE_URL=s3://${settings.bucket}/audio and restart.`);
    expect(copied.code).toBe(0);
    const usage = await run(["copy-files", "file:"]);
    expect(usage.code).toBe(2);
    expect(usage.out).toContain("copy-files <from> <to>");
  }, 60_000);
});
