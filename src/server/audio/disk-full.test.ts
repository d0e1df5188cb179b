import { execFileSync } from "node:child_process";
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../shared/messages";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { fixture, upload } from "../test/upload-helpers";

/** A 64 kB file system over the audio folder, as a full data disk; mounting needs root. */
function mountTinyDisk(dir: string): boolean {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const canMount = process.getuid?.() === 0;

// Mounting a small file system needs root (CI runs as root); elsewhere this file is skipped.
describe.skipIf(!canMount).each(DATABASE_KINDS)("a full data disk (%s)", (kind) => {
  let t: TestApp;
  let mounted = false;
  beforeAll(async () => {
    t = await createTestApp({ kind });
    mounted = mountTinyDisk(t.config.audioDir);
  });
  afterAll(async () => {
    if (mounted) execFileSync("umount", [t.config.audioDir]);
    await t?.cleanup();
  });

  it("answers 507 with the product's words, keeps nothing, and takes uploads again once there is room", async () => {
    expect(mounted).toBe(true);
    const tooBig = Buffer.concat([await fixture("tone.wav"), Buffer.alloc(256 * 1024)]);
    const full = await upload(t, tooBig, { type: "audio/wav" });
    expect(full.statusCode).toBe(507);
    expect(full.json()).toEqual({ code: "storage_full", message: MESSAGES.storageFull });
    expect(await readdir(t.config.audioDir)).toEqual([]);
    const rows = await t.database.db.selectFrom("audio_files").select("id").execute();
    expect(rows).toEqual([]);

    const small = await upload(t, await fixture("tone.mp3"));
    expect(small.statusCode).toBe(201);
  });
});
