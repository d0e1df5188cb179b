import { chmod, mkdir, readdir, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../test/harness";
import { LocalAudioStorage, TEMPORARY_FILE_GRACE_MS } from "./local-storage";

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe("LocalAudioStorage", () => {
  let root: string;
  let dir: string;

  beforeEach(async () => {
    root = await makeTempDir("vmj-storage-");
    dir = path.join(root, "data", "audio");
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("creates its folders for the service's user only (0700) and writes files 0600", async () => {
    const storage = new LocalAudioStorage(dir);
    await storage.checkWritable();
    await storage.write("abc.webm", Readable.from([Buffer.from("sound")]));
    expect(await modeOf(path.join(root, "data"))).toBe(0o700);
    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(path.join(dir, "abc.webm"))).toBe(0o600);
  });

  it("tightens an audio folder an earlier version created world-readable", async () => {
    await mkdir(dir, { recursive: true });
    await chmod(dir, 0o755);
    await new LocalAudioStorage(dir).checkWritable();
    expect(await modeOf(dir)).toBe(0o700);
  });

  it("sweeps partial uploads a crash left behind at start-up, and keeps live ones", async () => {
    await mkdir(dir, { recursive: true });
    const crashed = path.join(dir, ".tmp-crashed");
    const live = path.join(dir, ".tmp-live");
    const stored = path.join(dir, "kept.webm");
    for (const file of [crashed, live, stored]) await writeFile(file, "partial");
    const longAgo = new Date(Date.now() - 60 * 60 * 1000);
    // A stored recording is never swept, however old.
    await utimes(crashed, longAgo, longAgo);
    await utimes(stored, longAgo, longAgo);

    await new LocalAudioStorage(dir).checkWritable();

    expect((await readdir(dir)).sort()).toEqual([".tmp-live", "kept.webm"]);
  });

  it("sweeps temporary files by age when run again later, and counts them", async () => {
    const storage = new LocalAudioStorage(dir);
    await storage.checkWritable();
    await writeFile(path.join(dir, ".tmp-a"), "partial");
    await writeFile(path.join(dir, ".tmp-b"), "partial");
    expect(await storage.sweepTemporaryFiles(new Date())).toBe(0);
    const later = new Date(Date.now() + TEMPORARY_FILE_GRACE_MS + 1000);
    expect(await storage.sweepTemporaryFiles(later)).toBe(2);
    expect(await readdir(dir)).toEqual([]);
    // Running again (or on a second instance at once) is harmless.
    expect(await storage.sweepTemporaryFiles(later)).toBe(0);
  });
});
