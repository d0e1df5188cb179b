import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import type { Memory, Photo, RestoreResult } from "../../shared/schemas";
import { MemoriesRepo } from "../memories/memories.repo";
import type { BackupMemory } from "../memories/memories-backup";
import type { AudioStorage } from "../storage/audio-storage";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { downloadBackup, restoreBackup } from "../test/backup-helpers";
import { createTestApp, type TestApp } from "../test/harness";
import { exifTags, testJpeg, withExif } from "../test/image-fixtures";
import { multipart } from "../test/upload-helpers";

async function makeZip(files: Map<string, Buffer>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, data] of files) zip.addBuffer(data, name, { compress: false });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function keysIn(storage: AudioStorage): Promise<string[]> {
  const keys: string[] = [];
  for await (const file of storage.list()) keys.push(file.key);
  return keys.sort();
}

/** A saved memory with two photos, the second made the cover, through the API. */
async function memoryWithPhotos(t: TestApp, owner: TestUser): Promise<Photo[]> {
  const memory = await new MemoriesRepo(t.database.db, t.database.kind).insert({
    userId: owner.user.id,
    audioId: null,
    status: "saved",
    title: "The lighthouse",
    transcript: "We climbed all the stairs.",
  });
  const added: Photo[] = [];
  for (const image of [await testJpeg(900, 600), await testJpeg(500, 700)]) {
    const body = multipart(image, { field: "photo", filename: "p.jpg", type: "image/jpeg" });
    const res = await t.app.inject({
      method: "POST",
      url: `/api/memories/${memory.id}/photos`,
      payload: body.payload,
      headers: { ...body.headers, cookie: owner.cookie },
    });
    expect(res.statusCode).toBe(201);
    added.push(res.json<Photo>());
  }
  const ordered = [added[1], added[0]] as Photo[];
  const put = await t.app.inject({
    method: "PUT",
    url: `/api/memories/${memory.id}/photos`,
    headers: { cookie: owner.cookie },
    payload: { ids: ordered.map((photo) => photo.id) },
  });
  expect(put.statusCode).toBe(200);
  return ordered;
}

async function fullBytes(t: TestApp, photo: Photo, cookie: string): Promise<Buffer> {
  const res = await t.app.inject({
    method: "GET",
    url: `${photo.url}?size=full`,
    headers: { cookie },
  });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

async function ownMemories(t: TestApp, cookie: string): Promise<Memory[]> {
  const res = await t.app.inject({ method: "GET", url: "/api/memories", headers: { cookie } });
  return res.json<{ items: Memory[] }>().items;
}

describe.each([
  ["sqlite", "postgres"],
  ["postgres", "sqlite"],
] as const)("photos in a backup from %s restored into %s", (from, to) => {
  let source: TestApp;
  let target: TestApp;
  beforeAll(async () => {
    [source, target] = await Promise.all([
      createTestApp({ kind: from }),
      createTestApp({ kind: to, storage: to === "sqlite" ? "s3" : "local" }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([source?.cleanup(), target?.cleanup()]);
  });

  it("holds each photo's full size as stored, and restore brings them back byte-equal, in order, once", async () => {
    const owner = await createUserWithSession(source);
    const photos = await memoryWithPhotos(source, owner);
    const originals = await Promise.all(photos.map((p) => fullBytes(source, p, owner.cookie)));

    const { zip, files } = await downloadBackup(source, owner.cookie);
    const manifest = JSON.parse(files.get("memories.json")?.toString() ?? "") as {
      memories: BackupMemory[];
    };
    const listed = manifest.memories[0]?.photos ?? [];
    expect(listed.map((p) => p.id)).toEqual(photos.map((p) => p.id));
    for (const [index, photo] of listed.entries()) {
      // Named by the memory's recorded day and title, the cover first.
      const day = manifest.memories[0]?.recordedAt.slice(0, 10);
      expect(photo.file).toBe(`photos/${day} The lighthouse ${index + 1}.jpg`);
      expect(photo.bytes).toBe(originals[index]?.length);
      expect(files.get(photo.file ?? "")?.equals(originals[index] as Buffer)).toBe(true);
    }

    const restorer = await createUserWithSession(target);
    const restored = await restoreBackup(target, restorer.cookie, zip);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<RestoreResult>()).toEqual({ imported: 1, skipped: 0, failed: [] });
    const [memory] = await ownMemories(target, restorer.cookie);
    expect(memory?.photos.map((p) => [p.width, p.height])).toEqual(
      photos.map((p) => [p.width, p.height]),
    );
    for (const [index, photo] of (memory?.photos ?? []).entries()) {
      expect(
        (await fullBytes(target, photo, restorer.cookie)).equals(originals[index] as Buffer),
      ).toBe(true);
      const thumb = await target.app.inject({
        method: "GET",
        url: `${photo.url}?size=thumb`,
        headers: { cookie: restorer.cookie },
      });
      expect(thumb.statusCode).toBe(200);
    }

    // Again: skipped, and no second copy of any file.
    const keys = await keysIn(target.storage);
    const again = await restoreBackup(target, restorer.cookie, zip);
    expect(again.json<RestoreResult>()).toEqual({ imported: 0, skipped: 1, failed: [] });
    expect(await keysIn(target.storage)).toEqual(keys);
  });
});

describe("photos in a damaged or altered backup", () => {
  let t: TestApp;
  let owner: TestUser;
  let good: Map<string, Buffer>;
  let manifest: { memories: BackupMemory[] };
  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUserWithSession(t);
    await memoryWithPhotos(t, owner);
    good = (await downloadBackup(t, owner.cookie)).files;
    manifest = JSON.parse(good.get("memories.json")?.toString() ?? "");
  });
  afterAll(async () => t?.cleanup());

  const photoFile = () => manifest.memories[0]?.photos[0]?.file as string;

  /** Refused as a bad file (which file and why goes to the log), keeping nothing. */
  async function expectRefused(files: Map<string, Buffer>) {
    const victim = await createUserWithSession(t);
    const keys = await keysIn(t.storage);
    const res = await restoreBackup(t, victim.cookie, await makeZip(files));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: "backup.bad_file" });
    expect(await ownMemories(t, victim.cookie)).toEqual([]);
    expect(await keysIn(t.storage)).toEqual(keys);
  }

  it("refuses a photo that is not an image, one of another size than listed, and one not listed", async () => {
    const name = photoFile();
    const size = good.get(name)?.length ?? 0;
    await expectRefused(new Map([...good, [name, Buffer.alloc(size, 0x41)]]));
    await expectRefused(
      new Map([...good, [name, Buffer.concat([good.get(name) as Buffer, Buffer.alloc(5)])]]),
    );
    await expectRefused(new Map([...good, ["photos/extra.jpg", good.get(name) as Buffer]]));
    await expectRefused(new Map([...good].filter(([file]) => file !== name)));
  });

  it("makes a photo that carries metadata again, so what it serves has none", async () => {
    const tagged = await withExif(await testJpeg(400, 300), 1);
    const altered = structuredClone(manifest);
    const first = altered.memories[0]?.photos[0];
    if (!first) throw new Error("no photo in the backup");
    first.bytes = tagged.length;
    const files = new Map([
      ...good,
      [first.file as string, tagged],
      ["memories.json", Buffer.from(JSON.stringify(altered))],
    ]);
    const restorer = await createUserWithSession(t);
    const res = await restoreBackup(t, restorer.cookie, await makeZip(files));
    expect(res.json<RestoreResult>()).toEqual({ imported: 1, skipped: 0, failed: [] });
    const [memory] = await ownMemories(t, restorer.cookie);
    const cover = memory?.photos[0] as Photo;
    const served = await fullBytes(t, cover, restorer.cookie);
    expect(served.equals(tagged)).toBe(false);
    expect(JSON.stringify(await exifTags(served))).not.toMatch(/GPS|CAM-SERIAL/);
  });
});
