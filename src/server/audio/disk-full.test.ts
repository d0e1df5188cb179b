import { execFileSync } from "node:child_process";
import { mkdir, readdir } from "node:fs/promises";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../shared/messages";
import { newId, nowIso } from "../ids";
import { MemoriesRepo } from "../memories/memories.repo";
import { createUserWithSession } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { testJpeg } from "../test/image-fixtures";
import { fixture, multipart, upload } from "../test/upload-helpers";

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

  it("answers 507 to a photo and keeps nothing", async () => {
    expect(mounted).toBe(true);
    const owner = await createUserWithSession(t);
    const memory = await new MemoriesRepo(t.database.db, t.database.kind).insert({
      userId: owner.user.id,
      audioId: null,
      status: "saved",
      title: "Boat",
    });
    // Fill what the small upload left: the photo's sizes cannot all be written.
    const filler = Buffer.concat([await fixture("tone.wav"), Buffer.alloc(24 * 1024)]);
    await upload(t, filler);
    const before = await readdir(t.config.audioDir);
    const body = multipart(await testJpeg(), { field: "photo", type: "image/jpeg" });
    const response = await t.app.inject({
      method: "POST",
      url: `/api/memories/${memory.id}/photos`,
      payload: body.payload,
      headers: { ...body.headers, cookie: owner.cookie },
    });
    expect(response.statusCode, response.body).toBe(507);
    expect(response.json()).toEqual({ code: "storage_full", message: MESSAGES.storageFull });
    expect(await readdir(t.config.audioDir)).toEqual(before);
    const photos = await t.database.db.selectFrom("memory_photos").select("id").execute();
    expect(photos).toEqual([]);
  });
});

describe.skipIf(!canMount).each(DATABASE_KINDS)("a full disk under a restore (%s)", (kind) => {
  let t: TestApp;
  let tmp: string;
  let mounted = false;
  beforeAll(async () => {
    t = await createTestApp({ kind });
    tmp = path.join(t.config.dataDir, "tmp");
    await mkdir(tmp, { recursive: true });
    mounted = mountTinyDisk(tmp);
  });
  afterAll(async () => {
    if (mounted) execFileSync("umount", [tmp]);
    await t?.cleanup();
  });

  it("answers 507 while the backup is spooled, and imports nothing", async () => {
    expect(mounted).toBe(true);
    const owner = await createUserWithSession(t);
    const body = multipart(Buffer.alloc(256 * 1024, 1), {
      field: "backup",
      filename: "b.zip",
      type: "application/zip",
    });
    const response = await t.app.inject({
      method: "POST",
      url: "/api/restore",
      payload: body.payload,
      headers: { ...body.headers, cookie: owner.cookie },
    });
    expect(response.statusCode, response.body).toBe(507);
    expect(response.json()).toEqual({ code: "storage_full", message: MESSAGES.storageFull });
    expect(await readdir(tmp)).toEqual([]);
  });
});

describe("a full SQLite database", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ kind: "sqlite" });
  });
  afterAll(async () => t?.cleanup());

  it("answers 507 to an upload and keeps no file", async () => {
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(t.database.db);
    // No page may be added, and the pages there are filled with rows like an upload's.
    await sql.raw(`pragma max_page_count = ${rows[0]?.page_count}`).execute(t.database.db);
    for (;;) {
      const id = newId();
      const filled = await t.database.db
        .insertInto("audio_files")
        .values({
          id,
          storage_key: `${newId()}.wav`,
          content_type: "audio/wav",
          bytes: 1,
          owner_user_id: null,
          owner_anon_hash: "x".repeat(64),
          attached_to: null,
          upload_key: null,
          created_at: nowIso(),
        })
        .execute()
        .then(() => true)
        .catch((error: { code?: string }) => {
          expect(error.code).toBe("SQLITE_FULL");
          return false;
        });
      if (!filled) break;
    }
    const response = await upload(
      t,
      Buffer.concat([await fixture("tone.wav"), Buffer.alloc(64 * 1024, 1)]),
    );
    expect(response.statusCode, response.body).toBe(507);
    expect(response.json()).toEqual({ code: "storage_full", message: MESSAGES.storageFull });
    expect(await readdir(t.config.audioDir)).toEqual([]);
  });
});
