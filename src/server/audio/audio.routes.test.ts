import { readdir } from "node:fs/promises";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_RECORDING_BYTES } from "../../shared/constants";
import { ERROR_MESSAGES, MESSAGES } from "../../shared/messages";
import { VISITOR_COOKIE } from "../auth/session.service";
import { newId, nowIso } from "../ids";
import { ownJournalId, ownMemberId } from "../journals/journals.repo";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { fixture, postOverSocket, upload, visitorCookie } from "../test/upload-helpers";
import { AudioRepo } from "./audio.repo";
import { audioIdFromUrl } from "./audio.service";

async function filesIn(t: TestApp): Promise<string[]> {
  return readdir(t.config.audioDir);
}

async function audioRowCount(t: TestApp): Promise<number> {
  const rows = await t.database.db.selectFrom("audio_files").select("id").execute();
  return rows.length;
}

describe.each(DATABASE_KINDS)("audio upload and serving (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ kind });
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it.each([
    ["tone.wav", "audio/wav", "audio/wav"],
    ["tone.mp3", "audio/mpeg", "audio/mpeg"],
    ["tone-noid3.mp3", "audio/mpeg", "audio/mpeg"],
    ["tone.webm", "audio/webm", "audio/webm"],
    // What Chromium's MediaRecorder writes (Segment and Cluster of unknown size).
    ["chrome-recorder.webm", "audio/webm", "audio/webm"],
    ["tone.ogg", "audio/ogg", "audio/ogg"],
    ["tone.m4a", "audio/mp4", "audio/mp4"],
    // The declared type and name are ignored: the bytes decide.
    ["tone.ogg", "application/octet-stream", "audio/ogg"],
  ])("stores %s declared as %s and serves it as %s", async (name, declared, served) => {
    const bytes = await fixture(name);
    const before = (await filesIn(t)).length;
    const response = await upload(t, bytes, { filename: "x.bin", type: declared });
    expect(response.statusCode).toBe(201);
    const body = response.json<{ url: string; id: string }>();
    expect(body.url).toBe(`/api/audio/${body.id}`);
    const files = await filesIn(t);
    expect(files).toHaveLength(before + 1);
    expect(files.some((f) => f.startsWith(".tmp"))).toBe(false);

    const get = await t.app.inject({
      method: "GET",
      url: body.url,
      headers: { cookie: visitorCookie(response) },
    });
    expect(get.statusCode).toBe(200);
    expect(get.headers["content-type"]).toBe(served);
    expect(get.headers["x-content-type-options"]).toBe("nosniff");
    expect(get.headers["accept-ranges"]).toBe("bytes");
    expect(Number(get.headers["content-length"])).toBe(bytes.length);
    expect(get.rawPayload.equals(bytes)).toBe(true);
  });

  it("accepts uploads far over the JSON body limit (a long recording) within UPLOAD_MAX_BYTES", async () => {
    const long = Buffer.concat([await fixture("tone.wav"), Buffer.alloc(6 * 1024 * 1024)]);
    const response = await upload(t, long, { type: "audio/wav" });
    expect(response.statusCode).toBe(201);
    const row = await t.database.db
      .selectFrom("audio_files")
      .select(["bytes", "content_type"])
      .where("id", "=", response.json().id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ bytes: long.length, content_type: "audio/wav" });
  });

  it("stores a recording sent again with the same upload key only once", async () => {
    const user = await createUserWithSession(t);
    const other = await createUserWithSession(t);
    const bytes = await fixture("tone.mp3");
    const uploadKey = "6f1c2d3e-aaaa-bbbb-cccc-1234567890ab";
    const before = (await filesIn(t)).length;
    const first = await upload(t, bytes, { cookie: user.cookie, uploadKey });
    expect(first.statusCode).toBe(201);
    const again = await upload(t, bytes, { cookie: user.cookie, uploadKey });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await filesIn(t)).length).toBe(before + 1);
    // Another uploader's key space is separate.
    const theirs = await upload(t, bytes, { cookie: other.cookie, uploadKey });
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().id).not.toBe(first.json().id);
    expect(
      (await upload(t, bytes, { cookie: user.cookie, uploadKey: "bad key!" })).statusCode,
    ).toBe(400);
  });

  it("refuses a renamed non-audio file with 400 and stores nothing", async () => {
    const filesBefore = await filesIn(t);
    const rowsBefore = await audioRowCount(t);
    const response = await upload(t, await fixture("not-audio.mp3"), {
      filename: "song.mp3",
      type: "audio/mpeg",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "audio.not_audio" });
    expect(await filesIn(t)).toEqual(filesBefore);
    expect(await audioRowCount(t)).toBe(rowsBefore);
  });

  it.each([
    ["a 3-byte file holding only 'ID3'", async () => Buffer.from("ID3"), "audio.too_short"],
    [
      "a real WAV cut to 1023 bytes",
      async () => (await fixture("tone.wav")).subarray(0, MIN_RECORDING_BYTES - 1),
      "audio.too_short",
    ],
    [
      "an ID3 tag followed by no audio",
      async () =>
        Buffer.concat([
          Buffer.from("ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0010"),
          Buffer.alloc(4000, 0x41),
        ]),
      "audio.unreadable",
    ],
    [
      "a WebM header followed by no audio",
      async () =>
        Buffer.concat([(await fixture("tone.webm")).subarray(0, 0x24), Buffer.alloc(4000, 0x41)]),
      "audio.unreadable",
    ],
  ] as const)("refuses %s with a clear 400 and stores nothing", async (_name, content, code) => {
    const filesBefore = await filesIn(t);
    const rowsBefore = await audioRowCount(t);
    const response = await upload(t, await content());
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code, message: ERROR_MESSAGES[code] });
    expect(await filesIn(t)).toEqual(filesBefore);
    expect(await audioRowCount(t)).toBe(rowsBefore);
  });

  it("accepts a real recording of exactly the minimum size", async () => {
    const wav = (await fixture("tone.wav")).subarray(0, MIN_RECORDING_BYTES);
    expect((await upload(t, wav)).statusCode).toBe(201);
  });

  it("refuses an empty file, a missing file, a wrong field and a non-multipart body", async () => {
    expect((await upload(t, Buffer.alloc(0))).statusCode).toBe(400);
    expect((await upload(t, await fixture("tone.wav"), { field: "file" })).statusCode).toBe(400);
    const json = await t.app.inject({ method: "POST", url: "/api/upload", payload: { a: 1 } });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ code: "audio.file_required" });
    const boundary = "xyz";
    const noFile = await t.app.inject({
      method: "POST",
      url: "/api/upload",
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    expect(noFile.statusCode).toBe(400);
  });

  it.each([
    ["no boundary", "multipart/form-data", async () => Buffer.from("whatever")],
    ["an empty boundary", "multipart/form-data; boundary=", async () => Buffer.from("--\r\n")],
    [
      "a part cut off before its headers end",
      "multipart/form-data; boundary=xyz",
      async () =>
        Buffer.from('--xyz\r\nContent-Disposition: form-data; name="audio"; filename="a.mp3"'),
    ],
    [
      "a recording cut off (no closing boundary)",
      "multipart/form-data; boundary=xyz",
      async () =>
        Buffer.concat([
          Buffer.from(
            '--xyz\r\nContent-Disposition: form-data; name="audio"; filename="a.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n',
          ),
          (await fixture("tone.mp3")).subarray(0, 2000),
        ]),
    ],
  ])(
    "refuses a malformed multipart body (%s) with 400 and stores nothing",
    async (_name, type, body) => {
      const filesBefore = await filesIn(t);
      const rowsBefore = await audioRowCount(t);
      const response = await t.app.inject({
        method: "POST",
        url: "/api/upload",
        payload: await body(),
        headers: { "content-type": type },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: "upload_incomplete", field: "audio" });
      expect(await filesIn(t)).toEqual(filesBefore);
      expect(await audioRowCount(t)).toBe(rowsBefore);
    },
  );

  it("refuses a recording cut off in its first bytes with 400 over a real connection, and stores nothing", async () => {
    const filesBefore = await filesIn(t);
    const rowsBefore = await audioRowCount(t);
    for (const content of ["ID3abc", "ID3", ""]) {
      const response = await postOverSocket(
        t,
        "/api/upload",
        Buffer.from(
          `--XX\r\nContent-Disposition: form-data; name="audio"; filename="a"\r\n\r\n${content}`,
        ),
        { "content-type": "multipart/form-data; boundary=XX" },
      );
      expect(response.statusCode, response.body).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({
        code: "upload_incomplete",
        field: "audio",
      });
    }
    expect(await filesIn(t)).toEqual(filesBefore);
    expect(await audioRowCount(t)).toBe(rowsBefore);
  });

  describe("Range requests", () => {
    let url: string;
    let cookie: string;
    let bytes: Buffer;
    beforeAll(async () => {
      bytes = await fixture("tone.wav");
      const response = await upload(t, bytes);
      url = response.json().url;
      cookie = visitorCookie(response);
    });

    it.each([
      ["bytes=0-99", 0, 99],
      ["bytes=100-", 100, 16043],
      ["bytes=-44", 16000, 16043],
      ["bytes=16000-99999", 16000, 16043],
    ])("%s answers 206 with the right bytes", async (range, start, end) => {
      const response = await t.app.inject({ method: "GET", url, headers: { cookie, range } });
      expect(response.statusCode).toBe(206);
      expect(response.headers["content-range"]).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(Number(response.headers["content-length"])).toBe(end - start + 1);
      expect(response.rawPayload.equals(bytes.subarray(start, end + 1))).toBe(true);
    });

    it.each(["bytes=20000-", "bytes=50-10", "bytes=x-y"])("%s answers 416", async (range) => {
      const response = await t.app.inject({ method: "GET", url, headers: { cookie, range } });
      expect(response.statusCode).toBe(416);
      expect(response.headers["content-range"]).toBe(`bytes */${bytes.length}`);
    });

    it("answers HEAD with the headers and no body", async () => {
      const response = await t.app.inject({ method: "HEAD", url, headers: { cookie } });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("audio/wav");
      expect(Number(response.headers["content-length"])).toBe(bytes.length);
      expect(response.rawPayload.length).toBe(0);
    });
  });

  describe("who may hear which audio", () => {
    let owner: TestUser;
    let other: TestUser;
    let wav: Buffer;
    beforeAll(async () => {
      owner = await createUserWithSession(t);
      other = await createUserWithSession(t);
      wav = await fixture("tone.wav");
    });

    async function status(url: string, cookie?: string): Promise<number> {
      const response = await t.app.inject({
        method: "GET",
        url,
        headers: cookie ? { cookie } : {},
      });
      return response.statusCode;
    }

    async function uploadAs(cookie: string): Promise<{ url: string; id: string }> {
      const response = await upload(t, wav, { cookie });
      expect(response.statusCode).toBe(201);
      return response.json();
    }

    async function insertMemory(fields: {
      userId: string | null;
      anonHash?: string | null;
      audioId: string | null;
      status?: string;
    }): Promise<string> {
      const id = newId();
      const now = nowIso();
      await t.database.db
        .insertInto("memories")
        .values({
          id,
          user_id: fields.userId,
          journal_id: fields.userId && ownJournalId(fields.userId),
          storyteller_id: fields.userId && ownMemberId(fields.userId),
          anon_owner_hash: fields.anonHash ?? null,
          claim_expires_at: null,
          audio_id: fields.audioId,
          title: "A day at the beach",
          transcript: "",
          summary: "",
          scores: "{}",
          duration: 1,
          recorded_at: now,
          tags: "[]",
          status: fields.status ?? "saved",
          stage: null,
          error: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      if (fields.audioId)
        await new AudioRepo(t.database.db).attach(fields.audioId, { kind: "memory", id });
      return id;
    }

    async function setPublic(userId: string, isPublic: boolean): Promise<void> {
      await t.database.db
        .updateTable("users")
        .set({ is_public: isPublic ? 1 : 0 })
        .where("id", "=", userId)
        .execute();
    }

    it("an unreferenced upload is visible only to the session that uploaded it", async () => {
      const anonymous = await upload(t, wav);
      const url = anonymous.json().url;
      expect(await status(url, visitorCookie(anonymous))).toBe(200);
      expect(await status(url)).toBe(404);
      expect(await status(url, `${VISITOR_COOKIE}=${"a".repeat(43)}`)).toBe(404);
      expect(await status(url, owner.cookie)).toBe(404);

      const mine = await uploadAs(owner.cookie);
      expect(await status(mine.url, owner.cookie)).toBe(200);
      expect(await status(mine.url, other.cookie)).toBe(404);
      expect(await status(mine.url)).toBe(404);
      // Looks exactly like audio that does not exist.
      const missing = await t.app.inject({ method: "GET", url: "/api/audio/nope" });
      const hidden = await t.app.inject({ method: "GET", url: mine.url });
      expect(hidden.statusCode).toBe(missing.statusCode);
      expect(hidden.json()).toEqual(missing.json());
      expect(hidden.json()).toEqual({ code: "not_found", message: MESSAGES.notFound });
    });

    it("a saved memory of a public profile is heard by everyone; unsaved or private only by the owner", async () => {
      await setPublic(owner.user.id, true);
      const audio = await uploadAs(owner.cookie);
      const memoryId = await insertMemory({ userId: owner.user.id, audioId: audio.id });
      expect(await status(audio.url, owner.cookie)).toBe(200);
      expect(await status(audio.url, other.cookie)).toBe(200);
      expect(await status(audio.url)).toBe(200);

      await t.database.db
        .updateTable("memories")
        .set({ status: "processing" })
        .where("id", "=", memoryId)
        .execute();
      expect(await status(audio.url, owner.cookie)).toBe(200);
      expect(await status(audio.url, other.cookie)).toBe(404);
      expect(await status(audio.url)).toBe(404);

      await t.database.db
        .updateTable("memories")
        .set({ status: "saved" })
        .where("id", "=", memoryId)
        .execute();
      await setPublic(owner.user.id, false);
      expect(await status(audio.url, owner.cookie)).toBe(200);
      expect(await status(audio.url, other.cookie)).toBe(404);
      expect(await status(audio.url)).toBe(404);
      await setPublic(owner.user.id, true);
    });

    it("an anonymous memory's audio is heard only by the browser that recorded it", async () => {
      const response = await upload(t, wav);
      const cookie = visitorCookie(response);
      const { id, url } = response.json();
      const row = await t.database.db
        .selectFrom("audio_files")
        .select("owner_anon_hash")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      await insertMemory({ userId: null, anonHash: row.owner_anon_hash, audioId: id });
      expect(await status(url, cookie)).toBe(200);
      expect(await status(url)).toBe(404);
      expect(await status(url, other.cookie)).toBe(404);
    });

    it("a comment's audio follows its memory", async () => {
      const memoryId = await insertMemory({ userId: owner.user.id, audioId: null });
      const commenter = await upload(t, wav);
      const comment = commenter.json<{ id: string; url: string }>();
      const commentId = newId();
      await new AudioRepo(t.database.db).attach(comment.id, { kind: "comment", id: commentId });
      await t.database.db
        .insertInto("comments")
        .values({
          id: commentId,
          memory_id: memoryId,
          commenter_name: "Grandma",
          audio_id: comment.id,
          transcript: "",
          status: "saved",
          error: null,
          created_at: nowIso(),
        })
        .execute();
      await setPublic(owner.user.id, true);
      expect(await status(comment.url)).toBe(200);
      expect(await status(comment.url, other.cookie)).toBe(200);
      await setPublic(owner.user.id, false);
      expect(await status(comment.url, owner.cookie)).toBe(200);
      expect(await status(comment.url)).toBe(404);
      expect(await status(comment.url, visitorCookie(commenter))).toBe(404);
      await setPublic(owner.user.id, true);
    });
  });

  describe("the service other features call", () => {
    it("findUploadForOwner finds only the uploader's own upload", async () => {
      const service = t.services.audio;
      const user = await createUserWithSession(t);
      const mine = (await upload(t, await fixture("tone.mp3"), { cookie: user.cookie })).json();
      expect(
        (await service.findUploadForOwner(mine.url, { userId: user.user.id, visitorHash: null }))
          ?.id,
      ).toBe(mine.id);
      expect(
        await service.findUploadForOwner(mine.url, { userId: "someone-else", visitorHash: null }),
      ).toBeNull();
      expect(
        await service.findUploadForOwner("/api/audio/missing", {
          userId: user.user.id,
          visitorHash: null,
        }),
      ).toBeNull();
      expect(audioIdFromUrl(`http://example.com${mine.url}`)).toBe(mine.id);
      expect(audioIdFromUrl("/elsewhere/x")).toBeNull();
    });

    it("an upload whose account was deleted while it streamed answers 401 and keeps no file", async () => {
      const service = t.services.audio;
      const before = await filesIn(t);
      // The state the race ends in: the session was valid when the upload began, the user is gone.
      const stored = service.storeUpload({
        source: Readable.from([await fixture("tone.mp3")]),
        maxBytes: 1024 * 1024,
        owner: { userId: "deleted-meanwhile" },
        wasTruncated: () => false,
      });
      await expect(stored).rejects.toMatchObject({
        statusCode: 401,
        message: MESSAGES.notLoggedIn,
      });
      expect(await filesIn(t)).toEqual(before);
    });

    it("deleteRows removes the row in a transaction, removeFiles the file after", async () => {
      const service = t.services.audio;
      const response = await upload(t, await fixture("tone.ogg"));
      const { id } = response.json();
      const row = await service.findById(id);
      expect(row).not.toBeNull();
      expect(await filesIn(t)).toContain(row?.storage_key);
      const keys = await t.database.db
        .transaction()
        .execute((trx) => service.deleteRows([id], trx));
      expect(keys).toEqual([row?.storage_key]);
      expect(await service.findById(id)).toBeNull();
      expect(await filesIn(t)).toContain(row?.storage_key);
      await service.removeFiles(keys);
      expect(await filesIn(t)).not.toContain(row?.storage_key);
    });
  });
});

describe("upload limits", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { UPLOAD_MAX_BYTES: "4000", RATE_LIMIT_UPLOAD_PER_HOUR: "4" },
    });
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("refuses an upload over UPLOAD_MAX_BYTES with 413 and leaves nothing on disk", async () => {
    const response = await upload(t, await fixture("tone.wav"));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ code: "too_large", message: MESSAGES.tooLarge });
    expect(await filesIn(t)).toEqual([]);
    expect(await audioRowCount(t)).toBe(0);

    // Several megabytes arrive in many chunks: the stream is cut at the limit, not buffered.
    const big = Buffer.concat([await fixture("tone.wav"), Buffer.alloc(3 * 1024 * 1024, 1)]);
    const bigResponse = await upload(t, big);
    expect(bigResponse.statusCode).toBe(413);
    expect(await filesIn(t)).toEqual([]);
    expect(await audioRowCount(t)).toBe(0);
  });

  it("limits uploads per session and IP", async () => {
    const small = await fixture("tone.mp3");
    // The refused uploads above counted too (4 per hour here).
    expect((await upload(t, small)).statusCode).toBe(201);
    expect((await upload(t, small)).statusCode).toBe(201);
    const limited = await upload(t, small);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: "too_many_requests",
      message: MESSAGES.tooManyRequests,
    });
    // A logged-in user has their own allowance.
    const user = await createUserWithSession(t);
    expect((await upload(t, small, { cookie: user.cookie })).statusCode).toBe(201);
  });
});
