import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOWNLOAD_CHECK_HEADER, PAGE_SIZE, SEARCH_MAX_LENGTH } from "../../shared/constants";
import type { Memory, MemoryPage } from "../../shared/schemas";
import { VISITOR_COOKIE } from "../auth/session.service";
import { CommentsRepo } from "../comments/comments.repo";
import { hashToken, newId, newSecretToken, nowIso } from "../ids";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { unzip } from "../test/zip";
import { MemoriesRepo } from "./memories.repo";

const editBody = {
  title: "Edited title",
  transcript: "Edited transcript",
  summary: "Edited summary",
  recordedAt: "2024-06-01T12:30:00.000Z",
  tags: ["one", "two"],
};

describe.each(DATABASE_KINDS)("memories API on %s", (kind) => {
  let t: TestApp;
  let repo: MemoriesRepo;
  beforeAll(async () => {
    t = await createTestApp({ kind });
    repo = new MemoriesRepo(t.database.db, t.database.kind);
  });
  afterAll(async () => t.cleanup());

  async function addAudio(owner: string, bytes: Buffer, ext = "mp3") {
    const id = newId();
    const key = `${id}.${ext}`;
    await t.storage.write(key, Readable.from([bytes]));
    await t.database.db
      .insertInto("audio_files")
      .values({
        id,
        storage_key: key,
        content_type: ext === "mp3" ? "audio/mpeg" : "audio/webm",
        bytes: bytes.length,
        owner_user_id: owner,
        owner_anon_hash: null,
        created_at: nowIso(),
      })
      .execute();
    return { id, key };
  }

  async function addComment(memoryId: string, name: string, audioId: string | null) {
    const id = newId();
    await t.database.db
      .insertInto("comments")
      .values({
        id,
        memory_id: memoryId,
        commenter_name: name,
        audio_id: audioId,
        transcript: `${name} says hello`,
        status: "saved",
        error: null,
        created_at: nowIso(),
      })
      .execute();
    return id;
  }

  const get = (url: string, cookie?: string) =>
    t.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });

  describe("authorization matrix", () => {
    type Actor = "owner" | "other" | "anonymous";
    const actors: Actor[] = ["owner", "other", "anonymous"];
    const profiles = [true, false];
    const people: Record<string, { owner: TestUser; other: TestUser }> = {};
    beforeAll(async () => {
      for (const isPublic of profiles) {
        people[String(isPublic)] = {
          owner: await createUserWithSession(t, { isPublic }),
          other: await createUserWithSession(t, { isPublic: true }),
        };
      }
    });
    const cookieOf = (isPublic: boolean, actor: Actor) =>
      actor === "anonymous" ? undefined : people[String(isPublic)]?.[actor].cookie;
    const ownerOf = (isPublic: boolean) => people[String(isPublic)]?.owner as TestUser;
    const newMemory = async (isPublic: boolean) =>
      repo.insert({
        userId: ownerOf(isPublic).user.id,
        audioId: null,
        title: "Matrix castle",
        status: "saved",
      });

    const visible = (isPublic: boolean, actor: Actor) => actor === "owner" || isPublic;

    for (const isPublic of profiles) {
      for (const actor of actors) {
        const label = `${actor} on a ${isPublic ? "public" : "private"} profile`;

        it(`GET /api/memories/:id as ${label}`, async () => {
          const memory = await newMemory(isPublic);
          const res = await get(`/api/memories/${memory.id}`, cookieOf(isPublic, actor));
          expect(res.statusCode).toBe(visible(isPublic, actor) ? 200 : 404);
          if (res.statusCode === 200) expect(res.json<Memory>().id).toBe(memory.id);
          else expect(res.json()).toEqual({ code: "not_found", message: "Not found" });
        });

        it(`PUT /api/memories/:id as ${label}`, async () => {
          const memory = await newMemory(isPublic);
          const res = await t.app.inject({
            method: "PUT",
            url: `/api/memories/${memory.id}`,
            headers: cookieOf(isPublic, actor) ? { cookie: cookieOf(isPublic, actor) } : {},
            payload: editBody,
          });
          const expected =
            actor === "owner" ? 200 : actor === "anonymous" ? 401 : isPublic ? 403 : 404;
          expect(res.statusCode).toBe(expected);
          expect(res.json()).toHaveProperty(expected === 200 ? "title" : "message");
          const after = await repo.findById(memory.id);
          expect(after?.title).toBe(actor === "owner" ? "Edited title" : "Matrix castle");
        });

        it(`DELETE /api/memories/:id as ${label}`, async () => {
          const memory = await newMemory(isPublic);
          const res = await t.app.inject({
            method: "DELETE",
            url: `/api/memories/${memory.id}`,
            headers: cookieOf(isPublic, actor) ? { cookie: cookieOf(isPublic, actor) } : {},
          });
          const expected =
            actor === "owner" ? 200 : actor === "anonymous" ? 401 : isPublic ? 403 : 404;
          expect(res.statusCode).toBe(expected);
          expect(Boolean(await repo.findById(memory.id))).toBe(actor !== "owner");
        });

        it.each(["/api/users/{u}/memories", "/api/users/{u}/memories/search?q=matrix"])(
          `GET %s as ${label}`,
          async (template) => {
            const memory = await newMemory(isPublic);
            const url = template.replace("{u}", ownerOf(isPublic).user.username);
            const res = await get(url, cookieOf(isPublic, actor));
            expect(res.statusCode).toBe(visible(isPublic, actor) ? 200 : 404);
            if (res.statusCode === 200) {
              expect(res.json<MemoryPage>().items.map((item) => item.id)).toContain(memory.id);
            }
          },
        );

        it.each(["/api/memories", "/api/memories/search?q=matrix", "/api/backup-memories"])(
          `GET %s as ${label} shows only the caller's own`,
          async (url) => {
            const memory = await newMemory(isPublic);
            const res = await get(url, cookieOf(isPublic, actor));
            if (actor === "anonymous") {
              expect(res.statusCode).toBe(401);
              expect(res.json()).toEqual({ code: "not_logged_in", message: "Not logged in" });
              return;
            }
            expect(res.statusCode).toBe(200);
            if (url.includes("backup")) {
              const files = await unzip(res.rawPayload);
              const json = JSON.parse(files.get("memories.json")?.toString() ?? "{}") as {
                memories: { id: string }[];
              };
              expect(json.memories.some((m) => m.id === memory.id)).toBe(actor === "owner");
            } else {
              const ids = res.json<MemoryPage>().items.map((item) => item.id);
              expect(ids.includes(memory.id)).toBe(actor === "owner");
            }
          },
        );
      }
    }

    it("hides processing and failed memories from everyone but the owner", async () => {
      const owner = ownerOf(true);
      const other = people.true?.other as TestUser;
      for (const status of ["processing", "failed"] as const) {
        const memory = await repo.insert({ userId: owner.user.id, audioId: null, status });
        expect((await get(`/api/memories/${memory.id}`, owner.cookie)).statusCode).toBe(200);
        expect((await get(`/api/memories/${memory.id}`, other.cookie)).statusCode).toBe(404);
        expect((await get(`/api/memories/${memory.id}`)).statusCode).toBe(404);
        const list = await get(`/api/users/${owner.user.username}/memories`);
        expect(list.json<MemoryPage>().items.map((item) => item.id)).not.toContain(memory.id);
        const own = await get(`/api/memories`, owner.cookie);
        expect(own.json<MemoryPage>().items.map((item) => item.id)).toContain(memory.id);
      }
    });

    it("shows an anonymous recording only to the browser that made it", async () => {
      const token = newSecretToken();
      const memory = await repo.insert({
        userId: null,
        anonOwnerHash: hashToken(token),
        audioId: null,
        status: "saved",
      });
      const visitor = `${VISITOR_COOKIE}=${token}`;
      expect((await get(`/api/memories/${memory.id}`, visitor)).statusCode).toBe(200);
      expect((await get(`/api/memories/${memory.id}`)).statusCode).toBe(404);
      const stranger = `${VISITOR_COOKIE}=${newSecretToken()}`;
      expect((await get(`/api/memories/${memory.id}`, stranger)).statusCode).toBe(404);
      expect((await get(`/api/memories/${memory.id}`, ownerOf(true).cookie)).statusCode).toBe(404);
      const put = await t.app.inject({
        method: "PUT",
        url: `/api/memories/${memory.id}`,
        headers: { cookie: visitor },
        payload: editBody,
      });
      expect(put.statusCode).toBe(401);
    });

    it("answers 404 for a missing memory and a missing profile", async () => {
      const cookie = ownerOf(true).cookie;
      expect((await get(`/api/memories/${newId()}`, cookie)).statusCode).toBe(404);
      const put = await t.app.inject({
        method: "PUT",
        url: `/api/memories/${newId()}`,
        headers: { cookie },
        payload: editBody,
      });
      expect(put.statusCode).toBe(404);
      expect((await get(`/api/users/nobody-here/memories`)).statusCode).toBe(404);
      expect((await get(`/api/users/nobody-here/memories/search?q=a`)).statusCode).toBe(404);
    });
  });

  describe("PUT rules", () => {
    let owner: TestUser;
    beforeAll(async () => {
      owner = await createUserWithSession(t);
    });
    const put = (id: string, payload: unknown) =>
      t.app.inject({
        method: "PUT",
        url: `/api/memories/${id}`,
        headers: { cookie: owner.cookie },
        payload: payload as Record<string, unknown>,
      });

    it("trims tags, drops blanks and duplicates, and ignores id, owner and audio", async () => {
      const audio = await addAudio(owner.user.id, Buffer.from("abc"));
      const memory = await repo.insert({
        userId: owner.user.id,
        audioId: audio.id,
        status: "saved",
        scores: { overall: 8 },
      });
      const other = await createUserWithSession(t);
      const res = await put(memory.id, {
        ...editBody,
        recordedAt: "2024-06-01T14:30:00+02:00",
        // Nine entries, but blanks and duplicates drop out before the limit of 5 counts.
        tags: [" beach ", "", "beach", "sun", "  ", "moon", "stars", "\t", "sky"],
        id: "hijack",
        user_id: other.user.id,
        audioUrl: "/api/audio/other",
        scores: { overall: 1 },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json<Memory>();
      expect(body).toMatchObject({
        id: memory.id,
        user_id: owner.user.id,
        audioUrl: `/api/audio/${audio.id}`,
        title: "Edited title",
        recordedAt: "2024-06-01T12:30:00.000Z",
        tags: ["beach", "sun", "moon", "stars", "sky"],
      });
      expect(body.scores.overall).toBe(8);
      expect(res.json()).toEqual((await get(`/api/memories/${memory.id}`, owner.cookie)).json());
    });

    it("removes the memory's question when the body clears it, and keeps it when the body leaves it out", async () => {
      const memory = await repo.insert({
        userId: owner.user.id,
        audioId: null,
        status: "saved",
        question: "What was your first job?",
      });
      const kept = await put(memory.id, editBody);
      expect(kept.statusCode).toBe(200);
      expect(kept.json<Memory>().question).toBe("What was your first job?");
      const cleared = await put(memory.id, { ...editBody, question: null });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json<Memory>().question).toBeNull();
      expect((await repo.findById(memory.id))?.question).toBeNull();
      // Only clearing: a question cannot be written onto a memory by an edit.
      const set = await put(memory.id, { ...editBody, question: "Made up" });
      expect(set.statusCode).toBe(400);
      expect(set.json()).toMatchObject({ field: "body.question" });
    });

    it("saves only blank tags as no tags (blanks are dropped)", async () => {
      const memory = await repo.insert({
        userId: owner.user.id,
        audioId: null,
        tags: ["keep"],
        status: "saved",
      });
      const res = await put(memory.id, { ...editBody, tags: ["", "   "] });
      expect(res.statusCode).toBe(200);
      expect(res.json<Memory>().tags).toEqual([]);
    });

    it.each([
      [
        "six distinct tags",
        { tags: ["1", "2", "3", "4", "5", "6"] },
        "tags",
        "memory.too_many_tags",
      ],
      ["a missing title", { title: undefined }, "title", "invalid_value"],
      ["a bad date", { recordedAt: "yesterday" }, "recordedAt", "invalid_value"],
      ["a long tag", { tags: ["x".repeat(51)] }, "tags", "invalid_value"],
    ])(
      "refuses %s with 400 naming the field and changes nothing",
      async (_label, patch, field, code) => {
        const memory = await repo.insert({
          userId: owner.user.id,
          audioId: null,
          title: "Before",
          tags: ["keep"],
          status: "saved",
        });
        const res = await put(memory.id, { ...editBody, ...patch });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({
          code,
          field: expect.stringMatching(new RegExp(`^body\\.${field}(\\.\\d+)?$`)),
        });
        const after = await repo.findById(memory.id);
        expect(after?.title).toBe("Before");
        expect(after?.tags).toBe(JSON.stringify(["keep"]));
      },
    );
  });

  describe("lists and search", () => {
    let owner: TestUser;
    beforeAll(async () => {
      owner = await createUserWithSession(t, { isPublic: true });
      const start = Date.parse("2023-01-01T00:00:00.000Z");
      for (let i = 0; i < 31; i++) {
        await repo.insert({
          userId: owner.user.id,
          audioId: null,
          title: i === 30 ? "Castles in the sand" : `Walk number ${i}`,
          transcript: i % 2 === 0 ? "we saw a heron" : "rainy day",
          recordedAt: new Date(start + i * 3_600_000).toISOString(),
          status: "saved",
        });
      }
    });

    it("pages 31 memories as 15, 15 and 1 with the total", async () => {
      const sizes: number[] = [];
      for (const page of [1, 2, 3, 4]) {
        const res = await get(`/api/memories?page=${page}`, owner.cookie);
        expect(res.statusCode).toBe(200);
        const body = res.json<MemoryPage>();
        expect(body).toMatchObject({ total: 31, page, pageSize: PAGE_SIZE });
        sizes.push(body.items.length);
      }
      expect(sizes).toEqual([15, 15, 1, 0]);
      const first = (await get(`/api/memories`, owner.cookie)).json<MemoryPage>();
      expect(first.items[0]?.title).toBe("Castles in the sand");
    });

    it("searches own and public memories with prefixes, paged with the total", async () => {
      const own = (await get(`/api/memories/search?q=castl`, owner.cookie)).json<MemoryPage>();
      expect(own.items.map((item) => item.title)).toEqual(["Castles in the sand"]);
      const herons = (
        await get(`/api/memories/search?q=HERON&page=2`, owner.cookie)
      ).json<MemoryPage>();
      expect(herons).toMatchObject({ total: 16, page: 2 });
      expect(herons.items).toHaveLength(1);
      const pub = await get(`/api/users/${owner.user.username}/memories/search?q=heron`);
      expect(pub.json<MemoryPage>().total).toBe(16);
      const blank = (await get(`/api/memories/search?q=`, owner.cookie)).json<MemoryPage>();
      expect(blank.total).toBe(31);
    });

    it.each([
      `"`,
      `grandfather's (beach`,
      `a AND OR NOT b`,
      `NEAR(castle sand)`,
      `castle & | ! <-> :*`,
      `😀🏖️`,
      `%`,
      `\\`,
      "x".repeat(SEARCH_MAX_LENGTH),
    ])("never fails on hostile search %#", async (q) => {
      for (const url of [
        `/api/memories/search?q=${encodeURIComponent(q)}`,
        `/api/users/${owner.user.username}/memories/search?q=${encodeURIComponent(q)}`,
      ]) {
        const res = await get(url, owner.cookie);
        expect(res.statusCode).toBe(200);
        expect(res.json<MemoryPage>().items).toBeInstanceOf(Array);
      }
    });

    it("answers 400 for a 10 kB query and bad pages", async () => {
      const long = await get(`/api/memories/search?q=${"x".repeat(10_000)}`, owner.cookie);
      expect(long.statusCode).toBe(400);
      expect(long.json<{ message: string }>().message).toContain("q");
      for (const page of ["0", "-1", "abc", "1.5"]) {
        const res = await get(`/api/memories?page=${page}`, owner.cookie);
        expect(res.statusCode).toBe(400);
        expect(res.json<{ message: string }>().message).toContain("page");
      }
    });
  });

  describe("delete and backup with audio and comments", () => {
    it("deletes the memory, its comments and their audio files", async () => {
      const owner = await createUserWithSession(t);
      const memoryAudio = await addAudio(owner.user.id, Buffer.from("memory audio"));
      const commentAudio = await addAudio(owner.user.id, Buffer.from("comment audio"), "webm");
      const keep = await addAudio(owner.user.id, Buffer.from("keep me"));
      const memory = await repo.insert({
        userId: owner.user.id,
        audioId: memoryAudio.id,
        status: "saved",
      });
      const kept = await repo.insert({ userId: owner.user.id, audioId: keep.id, status: "saved" });
      await addComment(memory.id, "Nan", commentAudio.id);
      const res = await t.app.inject({
        method: "DELETE",
        url: `/api/memories/${memory.id}`,
        headers: { cookie: owner.cookie },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      expect(await t.storage.size(memoryAudio.key)).toBeNull();
      expect(await t.storage.size(commentAudio.key)).toBeNull();
      expect(await t.storage.size(keep.key)).toBe(7);
      expect(await new CommentsRepo(t.database.db).listForMemories([memory.id])).toEqual([]);
      expect(await repo.findById(kept.id)).toBeDefined();
      expect((await get(`/api/memories/${memory.id}`, owner.cookie)).statusCode).toBe(404);
    });

    it("backs up every memory, comment and audio file intact", async () => {
      const owner = await createUserWithSession(t);
      const expected = new Map<string, Buffer>();
      const memoryIds: string[] = [];
      const commentIds: string[] = [];
      for (let i = 0; i < 5; i++) {
        const bytes = Buffer.from(`memory ${i} ${"♪".repeat(i * 1000)}`);
        const audio = await addAudio(owner.user.id, bytes);
        expected.set(audio.id, bytes);
        const memory = await repo.insert({
          userId: owner.user.id,
          audioId: audio.id,
          title: `Memory ${i}`,
          transcript: `Transcript ${i} "quoted" \n line`,
          summary: `Summary ${i}`,
          tags: [`tag ${i}`],
          scores: { overall: i + 1 },
          duration: i,
          status: i === 4 ? "failed" : "saved",
          error: i === 4 ? "Transcription failed: offline" : null,
        });
        memoryIds.push(memory.id);
        for (let c = 0; c < i % 3; c++) {
          const commentBytes = Buffer.from(`comment ${i}.${c}`);
          const commentAudio = await addAudio(owner.user.id, commentBytes, "webm");
          expected.set(commentAudio.id, commentBytes);
          commentIds.push(await addComment(memory.id, `Friend ${c}`, commentAudio.id));
        }
      }
      const res = await get(`/api/backup-memories`, owner.cookie);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("application/zip");
      expect(res.headers["content-disposition"]).toMatch(
        new RegExp(
          `^attachment; filename="memories-backup-${owner.user.username}-\\d{4}-\\d{2}-\\d{2}\\.zip"$`,
        ),
      );
      const files = await unzip(res.rawPayload);
      const json = JSON.parse(files.get("memories.json")?.toString() ?? "") as {
        version: number;
        userId: string;
        memories: (Memory & {
          audioFile: string;
          audioBytes: number;
          comments: {
            id: string;
            commenterName: string;
            transcript: string;
            audioUrl: string;
            audioFile: string;
          }[];
        })[];
      };
      expect(json.version).toBe(2);
      expect(json.userId).toBe(owner.user.id);
      expect(json.memories.map((m) => m.id).sort()).toEqual([...memoryIds].sort());
      expect(json.memories.flatMap((m) => m.comments.map((c) => c.id)).sort()).toEqual(
        [...commentIds].sort(),
      );
      for (const memory of json.memories) {
        const api = (await get(`/api/memories/${memory.id}`, owner.cookie)).json<Memory>();
        const { audioFile, audioBytes, audioContentType, comments, transcription, ...rest } =
          memory as never as {
            audioFile: string;
            audioBytes: number;
            audioContentType: string;
            comments: unknown[];
            transcription: unknown;
          } & Memory;
        expect(rest).toEqual(api);
        expect(transcription).toEqual({ engine: null, edited: false, segments: [] });
        expect(audioContentType).toBe("audio/mpeg");
        expect(files.get(audioFile)?.length).toBe(audioBytes);
        for (const comment of memory.comments) {
          expect(comment.transcript).toBe(`${comment.commenterName} says hello`);
          expect(files.has(comment.audioFile)).toBe(true);
        }
      }
      // Every audio file is there, byte for byte, and nothing else.
      const audioEntries = [...files.keys()].filter((name) => name.startsWith("audio/"));
      expect(audioEntries).toHaveLength(expected.size);
      // Each named by its memory's recorded day and title (a comment's also by who spoke).
      const fileOf = new Map<string, string>();
      for (const memory of json.memories) {
        const day = memory.recordedAt.slice(0, 10);
        expect(memory.audioFile).toBe(`audio/${day} ${memory.title}.mp3`);
        fileOf.set(memory.audioUrl.split("/").pop() as string, memory.audioFile);
        for (const comment of memory.comments) {
          expect(comment.audioFile).toMatch(
            new RegExp(
              `^audio/${day} ${memory.title} - Comment by ${comment.commenterName}(?: \\(\\d\\))?\\.webm$`,
            ),
          );
          fileOf.set(comment.audioUrl.split("/").pop() as string, comment.audioFile);
        }
      }
      for (const [audioId, bytes] of expected) {
        expect(files.get(fileOf.get(audioId) ?? "")?.equals(bytes)).toBe(true);
      }
    });

    it("answers the download check with 204 and no zip, 401 logged out", async () => {
      const owner = await createUserWithSession(t);
      const check = (cookie?: string) =>
        t.app.inject({
          method: "GET",
          url: "/api/backup-memories",
          headers: { [DOWNLOAD_CHECK_HEADER]: "1", ...(cookie ? { cookie } : {}) },
        });
      const ok = await check(owner.cookie);
      expect(ok.statusCode).toBe(204);
      expect(ok.rawPayload).toHaveLength(0);
      const refused = await check();
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toHaveProperty("message");
    });

    it("backs up an empty journal as a valid zip", async () => {
      const owner = await createUserWithSession(t);
      const res = await get(`/api/backup-memories`, owner.cookie);
      expect(res.statusCode).toBe(200);
      const files = await unzip(res.rawPayload);
      expect([...files.keys()]).toEqual(["memories.json", "index.html"]);
      expect(JSON.parse(files.get("memories.json")?.toString() ?? "").memories).toEqual([]);
    });
  });
});
