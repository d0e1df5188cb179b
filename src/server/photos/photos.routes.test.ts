import { Readable } from "node:stream";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_MESSAGES, MESSAGES } from "../../shared/messages";
import { PHOTO_SIZES, PHOTOS_PER_MEMORY } from "../../shared/photos";
import type { Memory, MemoryPage, Photo } from "../../shared/schemas";
import type { CreatedShareLink } from "../../shared/share-links";
import { MemoriesRepo } from "../memories/memories.repo";
import { SHARE_COOKIE } from "../share-links/share-cookie";
import type { AudioStorage } from "../storage/audio-storage";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type StorageKind, type TestApp } from "../test/harness";
import { exifTags, heicHead, pngBomb, testJpeg, withExif } from "../test/image-fixtures";
import { fixture, multipart, postOverSocket } from "../test/upload-helpers";

async function keysIn(storage: AudioStorage): Promise<string[]> {
  const keys: string[] = [];
  for await (const file of storage.list()) keys.push(file.key);
  return keys.sort();
}

const CASES: [string, StorageKind][] = [
  ...DATABASE_KINDS.map((kind): [string, StorageKind] => [kind, "local"]),
  ["sqlite", "s3"],
];

describe.each(CASES)("photos of a memory (%s, %s storage)", (kind, storage) => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let memoryId: string;
  let jpeg: Buffer;
  let repo: MemoriesRepo;

  beforeAll(async () => {
    t = await createTestApp({
      kind: kind as "sqlite" | "postgres",
      storage,
      env: { PHOTO_MAX_BYTES: String(2 * 1024 * 1024), RATE_LIMIT_SHARE_OPEN_PER_MINUTE: "1000" },
    });
    owner = await createUserWithSession(t, { isPublic: false });
    other = await createUserWithSession(t, { isPublic: true });
    repo = new MemoriesRepo(t.database.db, t.database.kind);
    memoryId = await newMemory();
    jpeg = await testJpeg();
  }, 60_000);
  afterAll(async () => t?.cleanup());

  async function newMemory(userId = owner.user.id): Promise<string> {
    const row = await repo.insert({
      userId,
      audioId: null,
      status: "saved",
      title: "Grandpa's boat",
      transcript: "We sailed to the island.",
    });
    return row.id;
  }

  function addPhoto(
    content: Buffer,
    options: { cookie?: string; memory?: string; field?: string; type?: string } = {},
  ) {
    const body = multipart(content, {
      field: options.field ?? "photo",
      filename: "photo.jpg",
      type: options.type ?? "image/jpeg",
    });
    return t.app.inject({
      method: "POST",
      url: `/api/memories/${options.memory ?? memoryId}/photos`,
      payload: body.payload,
      headers: {
        ...body.headers,
        ...(options.cookie === "" ? {} : { cookie: options.cookie ?? owner.cookie }),
      },
    });
  }

  function get(url: string, cookie?: string) {
    return t.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });
  }

  async function memoryPhotos(id = memoryId): Promise<Photo[]> {
    const res = await get(`/api/memories/${id}`, owner.cookie);
    expect(res.statusCode).toBe(200);
    return res.json<Memory>().photos;
  }

  it("adds a photo (201), serves three JPEG sizes made by us, and lists it on the memory", async () => {
    const res = await addPhoto(jpeg, { type: "application/octet-stream" });
    expect(res.statusCode).toBe(201);
    const photo = res.json<Photo>();
    expect(photo).toEqual({
      id: expect.any(String),
      url: `/api/photos/${photo.id}`,
      width: 1200,
      height: 900,
    });
    expect(await memoryPhotos()).toEqual([photo]);

    for (const [size, longest] of [
      ["thumb", PHOTO_SIZES.thumb],
      ["medium", 1200],
      ["full", 1200],
    ] as const) {
      const image = await get(`${photo.url}?size=${size}`, owner.cookie);
      expect(image.statusCode).toBe(200);
      expect(image.headers["content-type"]).toBe("image/jpeg");
      expect(image.headers["x-content-type-options"]).toBe("nosniff");
      const meta = await sharp(image.rawPayload).metadata();
      expect(meta.format).toBe("jpeg");
      expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(longest);
    }
    // Without a size, the full image.
    const full = await get(photo.url, owner.cookie);
    expect((await sharp(full.rawPayload).metadata()).width).toBe(1200);
    expect((await get(`${photo.url}?size=huge`, owner.cookie)).statusCode).toBe(400);

    const list = await get("/api/memories", owner.cookie);
    const item = list.json<MemoryPage>().items.find((m) => m.id === memoryId);
    expect(item?.photos).toEqual([photo]);
  });

  it("applies the orientation and strips GPS, serials and XMP from what it stores", async () => {
    const tagged = await withExif(await testJpeg(400, 300));
    expect(JSON.stringify(await exifTags(tagged))).toContain("GPSLatitude");
    const res = await addPhoto(tagged);
    expect(res.statusCode).toBe(201);
    const photo = res.json<Photo>();
    // Orientation 6 (turned 90 degrees): the stored pixels stand upright.
    expect(photo).toMatchObject({ width: 300, height: 400 });
    for (const size of ["full", "medium", "thumb"]) {
      const image = (await get(`${photo.url}?size=${size}`, owner.cookie)).rawPayload;
      const tags = await exifTags(image);
      const names = Object.keys(tags).join(" ");
      expect(names).not.toMatch(/GPS|Serial|XMP|Orientation|Creator|IFD|ICC/);
      expect(JSON.stringify(tags)).not.toMatch(/CAM-SERIAL|Grandpa|51\.5/);
    }
    await t.app.inject({
      method: "DELETE",
      url: `/api/memories/${memoryId}/photos/${photo.id}`,
      headers: { cookie: owner.cookie },
    });
  });

  it("keeps PNG transparency on white and accepts WebP", async () => {
    const png = await sharp({
      create: { width: 200, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const webp = await sharp(jpeg).webp().toBuffer();
    const id = await newMemory();
    for (const image of [png, webp]) {
      expect((await addPhoto(image, { memory: id })).statusCode).toBe(201);
    }
    const [first] = await memoryPhotos(id);
    const pixel = await sharp((await get(`${first?.url}?size=thumb`, owner.cookie)).rawPayload)
      .raw()
      .toBuffer();
    expect([...pixel.subarray(0, 3)].every((value) => value > 245)).toBe(true);
  });

  it.each([
    ["an MP3", async () => fixture("tone.mp3"), ERROR_MESSAGES["photo.not_an_image"]],
    [
      "text",
      async () => Buffer.from("just some words, not an image"),
      ERROR_MESSAGES["photo.not_an_image"],
    ],
    [
      "a GIF",
      async () =>
        sharp(await testJpeg(50, 50))
          .gif()
          .toBuffer(),
      ERROR_MESSAGES["photo.not_an_image"],
    ],
    ["a HEIC photo", async () => heicHead(), ERROR_MESSAGES["photo.heic"]],
    [
      "a truncated JPEG",
      async () => (await testJpeg()).subarray(0, 5000),
      ERROR_MESSAGES["photo.unreadable"],
    ],
    ["a decompression bomb", async () => pngBomb(), ERROR_MESSAGES["photo.too_many_pixels"]],
  ])("refuses %s with 400 and keeps nothing", async (_, make, message) => {
    const id = await newMemory();
    const before = await keysIn(t.storage);
    const res = await addPhoto(await make(), { memory: id });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await memoryPhotos(id)).toEqual([]);
    expect(await keysIn(t.storage)).toEqual(before);
  });

  it("refuses a photo over PHOTO_MAX_BYTES (413), the wrong field and no file (400)", async () => {
    const id = await newMemory();
    const before = await keysIn(t.storage);
    const big = await sharp(
      Buffer.alloc(1500 * 1500 * 3).map(() => Math.random() * 255),
      {
        raw: { width: 1500, height: 1500, channels: 3 },
      },
    )
      .png()
      .toBuffer();
    expect(big.length).toBeGreaterThan(2 * 1024 * 1024);
    const tooBig = await addPhoto(big, { memory: id });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toBe(MESSAGES.tooLarge);
    const wrongField = await addPhoto(jpeg, { memory: id, field: "audio" });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().message).toBe(ERROR_MESSAGES["photo.required"]);
    const json = await t.app.inject({
      method: "POST",
      url: `/api/memories/${id}/photos`,
      headers: { cookie: owner.cookie },
      payload: { photo: "x" },
    });
    expect(json.statusCode).toBe(400);
    expect(await memoryPhotos(id)).toEqual([]);
    expect(await keysIn(t.storage)).toEqual(before);
  });

  it("refuses a photo cut off in its first bytes with 400 over a real connection, and keeps nothing", async () => {
    const id = await newMemory();
    const before = await keysIn(t.storage);
    for (const content of [Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(0), jpeg]) {
      const response = await postOverSocket(
        t,
        `/api/memories/${id}/photos`,
        Buffer.concat([
          Buffer.from(
            '--XX\r\nContent-Disposition: form-data; name="photo"; filename="p.jpg"\r\n\r\n',
          ),
          content,
        ]),
        { "content-type": "multipart/form-data; boundary=XX", cookie: owner.cookie },
      );
      expect(response.statusCode, response.body).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({
        code: "upload_incomplete",
        field: "photo",
      });
    }
    expect(await memoryPhotos(id)).toEqual([]);
    expect(await keysIn(t.storage)).toEqual(before);
  });

  it("refuses a photo over PHOTO_MAX_BYTES with 413 when the limit falls between two chunks, and keeps nothing", async () => {
    const id = await newMemory();
    const before = await keysIn(t.storage);
    const limit = t.config.PHOTO_MAX_BYTES;
    const big = await sharp(
      Buffer.alloc(1500 * 1500 * 3).map(() => Math.random() * 255),
      {
        raw: { width: 1500, height: 1500, channels: 3 },
      },
    )
      .jpeg({ quality: 100 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(limit);
    const body = multipart(big, { field: "photo", filename: "photo.jpg", type: "image/jpeg" });
    const head = body.payload.indexOf("\r\n\r\n") + 4;
    // The first chunk ends exactly at the limit; the parser flags the file cut only on the next.
    async function* chunks() {
      yield body.payload.subarray(0, head + limit);
      await new Promise((resolve) => setTimeout(resolve, 50));
      yield body.payload.subarray(head + limit);
    }
    const res = await t.app.inject({
      method: "POST",
      url: `/api/memories/${id}/photos`,
      payload: Readable.from(chunks(), { objectMode: false }),
      headers: { ...body.headers, cookie: owner.cookie },
    });
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().message).toBe(MESSAGES.tooLarge);
    expect(await memoryPhotos(id)).toEqual([]);
    expect(await keysIn(t.storage)).toEqual(before);
  });

  it("holds at most 10 photos per memory, reorders them (first is the cover) and removes one", async () => {
    const id = await newMemory();
    const small = await testJpeg(64, 48);
    const added: Photo[] = [];
    for (let i = 0; i < PHOTOS_PER_MEMORY; i++) {
      const res = await addPhoto(small, { memory: id });
      expect(res.statusCode).toBe(201);
      added.push(res.json<Photo>());
    }
    const eleventh = await addPhoto(small, { memory: id });
    expect(eleventh.statusCode).toBe(400);
    expect(eleventh.json().message).toBe(ERROR_MESSAGES["photo.too_many"]);

    const reversed = added.map((p) => p.id).reverse();
    const put = (ids: string[], cookie = owner.cookie) =>
      t.app.inject({
        method: "PUT",
        url: `/api/memories/${id}/photos`,
        headers: { cookie },
        payload: { ids },
      });
    const reordered = await put(reversed);
    expect(reordered.statusCode).toBe(200);
    expect(reordered.json<{ photos: Photo[] }>().photos.map((p) => p.id)).toEqual(reversed);
    expect((await memoryPhotos(id)).map((p) => p.id)).toEqual(reversed);
    // Every photo exactly once, or nothing changes.
    for (const ids of [reversed.slice(1), [...reversed.slice(1), reversed[1] as string], []]) {
      const bad = await put(ids);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(ERROR_MESSAGES["photo.order_mismatch"]);
    }
    expect((await put(reversed, other.cookie)).statusCode).toBe(404);
    expect((await memoryPhotos(id)).map((p) => p.id)).toEqual(reversed);

    // Removing the cover makes the next one the cover, and frees a place.
    const cover = reversed[0] as string;
    const coverRow = (await memoryPhotos(id))[0] as Photo;
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/memories/${id}/photos/${cover}`,
      headers: { cookie: owner.cookie },
    });
    expect(removed.statusCode).toBe(200);
    expect((await memoryPhotos(id)).map((p) => p.id)).toEqual(reversed.slice(1));
    expect((await get(coverRow.url, owner.cookie)).statusCode).toBe(404);
    const again = await t.app.inject({
      method: "DELETE",
      url: `/api/memories/${id}/photos/${cover}`,
      headers: { cookie: owner.cookie },
    });
    expect(again.statusCode).toBe(404);
    const added11 = await addPhoto(small, { memory: id });
    expect(added11.statusCode).toBe(201);
    expect((await memoryPhotos(id)).at(-1)?.id).toBe(added11.json<Photo>().id);
  });

  it("takes photos uploaded in parallel, up to the limit, each at its own position", async () => {
    const memory = await newMemory();
    const results = await Promise.all(
      Array.from({ length: 2 * PHOTOS_PER_MEMORY }, () => addPhoto(jpeg, { memory })),
    );
    const codes = results.map((res) => res.statusCode).sort();
    expect(codes).toEqual([
      ...Array<number>(PHOTOS_PER_MEMORY).fill(201),
      ...Array<number>(PHOTOS_PER_MEMORY).fill(400),
    ]);
    for (const res of results.filter((r) => r.statusCode === 400)) {
      expect(res.json()).toMatchObject({ code: "photo.too_many" });
    }
    const added = results.filter((r) => r.statusCode === 201).map((r) => r.json<Photo>().id);
    expect((await memoryPhotos(memory)).map((p) => p.id).sort()).toEqual(added.sort());
  });

  it("answers exactly like missing to anyone who may not see the memory; only the owner changes", async () => {
    const id = await newMemory();
    const photo = (await addPhoto(jpeg, { memory: id })).json<Photo>();
    const missing = await get("/api/photos/no-such-photo?size=thumb", other.cookie);
    expect(missing.statusCode).toBe(404);
    for (const cookie of [other.cookie, undefined]) {
      const res = await get(`${photo.url}?size=thumb`, cookie);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(missing.json());
    }
    // Changes: 401 logged out, 404 for a memory another may not see.
    expect((await addPhoto(jpeg, { memory: id, cookie: "" })).statusCode).toBe(401);
    expect((await addPhoto(jpeg, { memory: id, cookie: other.cookie })).statusCode).toBe(404);
    const foreignDelete = await t.app.inject({
      method: "DELETE",
      url: `/api/memories/${id}/photos/${photo.id}`,
      headers: { cookie: other.cookie },
    });
    expect(foreignDelete.statusCode).toBe(404);

    // A public profile's saved memory: everyone sees the photo, only its owner changes it.
    const publicMemory = await newMemory(other.user.id);
    const theirs = (
      await addPhoto(jpeg, { memory: publicMemory, cookie: other.cookie })
    ).json<Photo>();
    expect((await get(`${theirs.url}?size=medium`)).statusCode).toBe(200);
    expect((await get(`${theirs.url}?size=medium`, owner.cookie)).statusCode).toBe(200);
    expect((await addPhoto(jpeg, { memory: publicMemory })).statusCode).toBe(403);
    const notTheirs = await t.app.inject({
      method: "DELETE",
      url: `/api/memories/${publicMemory}/photos/${theirs.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(notTheirs.statusCode).toBe(403);
    // A photo id under another memory is not that memory's.
    const crossed = await t.app.inject({
      method: "DELETE",
      url: `/api/memories/${id}/photos/${theirs.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(crossed.statusCode).toBe(404);
  });

  it("opens a private profile's photos to a share link until it is revoked", async () => {
    const id = await newMemory();
    const photo = (await addPhoto(jpeg, { memory: id })).json<Photo>();
    const created = await t.app.inject({
      method: "POST",
      url: "/api/share-links",
      headers: { cookie: owner.cookie },
      payload: { label: "Grandma" },
    });
    const link = created.json<CreatedShareLink>();
    const opened = await get(new URL(link.url).pathname);
    expect(opened.statusCode).toBe(303);
    const shareCookie = `${SHARE_COOKIE}=${opened.cookies.find((c) => c.name === SHARE_COOKIE)?.value}`;
    const seen = await get(`${photo.url}?size=medium`, shareCookie);
    expect(seen.statusCode).toBe(200);
    expect(seen.headers["content-type"]).toBe("image/jpeg");
    const memory = await get(`/api/memories/${id}`, shareCookie);
    expect(memory.json<Memory>().photos).toEqual([photo]);
    // The link opens seeing, never changing.
    expect((await addPhoto(jpeg, { memory: id, cookie: shareCookie })).statusCode).toBe(401);

    await t.app.inject({
      method: "DELETE",
      url: `/api/share-links/${link.id}`,
      headers: { cookie: owner.cookie },
    });
    expect((await get(`${photo.url}?size=medium`, shareCookie)).statusCode).toBe(404);
  });

  it("deleting the memory, then the account, removes the photos' files", async () => {
    const user = await createUserWithSession(t);
    const first = await newMemory(user.user.id);
    const second = await newMemory(user.user.id);
    const before = await keysIn(t.storage);
    const photo = (await addPhoto(jpeg, { memory: first, cookie: user.cookie })).json<Photo>();
    await addPhoto(jpeg, { memory: second, cookie: user.cookie });
    expect((await keysIn(t.storage)).length).toBe(before.length + 6);

    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/memories/${first}`,
      headers: { cookie: user.cookie },
    });
    expect(deleted.statusCode).toBe(200);
    expect((await get(photo.url, user.cookie)).statusCode).toBe(404);
    expect((await keysIn(t.storage)).length).toBe(before.length + 3);

    const gone = await t.app.inject({
      method: "DELETE",
      url: "/api/user",
      headers: { cookie: user.cookie },
      payload: { confirm: "delete", currentPassword: user.password },
    });
    expect(gone.statusCode).toBe(200);
    expect(await keysIn(t.storage)).toEqual(before);
  });

  it("lists the photo files as kept for the instance check", async () => {
    const id = await newMemory();
    const photo = (await addPhoto(jpeg, { memory: id })).json<Photo>();
    const labels: string[] = [];
    for (const owner of t.services.storedFiles) {
      for await (const reference of owner.references()) labels.push(reference.label);
    }
    expect(labels.filter((label) => label.startsWith(`photo ${photo.id} `))).toHaveLength(3);
  });
});

describe("photo rate limit", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_PHOTOS_PER_HOUR: "2" } });
  });
  afterAll(async () => t?.cleanup());

  it("answers 429 with the product's words past RATE_LIMIT_PHOTOS_PER_HOUR", async () => {
    const user = await createUserWithSession(t);
    const memory = await new MemoriesRepo(t.database.db, t.database.kind).insert({
      userId: user.user.id,
      audioId: null,
      status: "saved",
    });
    const small = await testJpeg(64, 48);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const body = multipart(small, { field: "photo", filename: "p.jpg", type: "image/jpeg" });
      const res = await t.app.inject({
        method: "POST",
        url: `/api/memories/${memory.id}/photos`,
        payload: body.payload,
        headers: { ...body.headers, cookie: user.cookie },
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(res.json().message).toBe(MESSAGES.tooManyRequests);
    }
    expect(statuses).toEqual([201, 201, 429]);
  });
});
