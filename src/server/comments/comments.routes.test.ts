import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { COMMENTER_NAME_MAX_LENGTH } from "../../shared/constants";
import { ERROR_MESSAGES } from "../../shared/messages";
import type { Comment } from "../../shared/schemas";
import { MemoriesRepo } from "../memories/memories.repo";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { defaultStubHandler, type OpenAiStub, startOpenAiStub } from "../test/openai-stub";
import { fixture, upload, visitorCookie } from "../test/upload-helpers";

/** A provider's error text with details a user must never see. */
const LEAKY_DETAIL = "whisper down: cannot open /srv/whisper/models/large-v3.bin (CUDA error 2)";

describe.each(DATABASE_KINDS)("spoken comments (%s)", (kind) => {
  let t: TestApp;
  let stub: OpenAiStub;
  let owner: TestUser;
  let privateOwner: TestUser;
  let other: TestUser;
  let publicMemoryId: string;
  let privateMemoryId: string;
  let mp3: Buffer;

  beforeAll(async () => {
    stub = await startOpenAiStub();
    t = await createTestApp({
      kind,
      env: {
        AI_PROVIDER: "openai",
        OPENAI_API_KEY: "sk-test",
        OPENAI_BASE_URL: stub.baseURL,
        OPENAI_MAX_RETRIES: "0",
        RATE_LIMIT_COMMENTS_PER_HOUR: "1000",
      },
    });
    owner = await createUserWithSession(t, { isPublic: true });
    privateOwner = await createUserWithSession(t, { isPublic: false });
    other = await createUserWithSession(t);
    const memories = new MemoriesRepo(t.database.db, t.database.kind);
    publicMemoryId = (
      await memories.insert({
        userId: owner.user.id,
        audioId: null,
        status: "saved",
        title: "Beach",
      })
    ).id;
    privateMemoryId = (
      await memories.insert({ userId: privateOwner.user.id, audioId: null, status: "saved" })
    ).id;
    mp3 = await fixture("tone.mp3");
  });
  afterAll(async () => {
    await t.cleanup();
    await stub.close();
  });
  beforeEach(() => {
    stub.handle(defaultStubHandler);
  });

  /** Uploads audio as `cookie` (or a new visitor) and returns its url and the cookie to use. */
  async function uploadAs(cookie?: string): Promise<{ url: string; cookie: string }> {
    const res = await upload(t, mp3, cookie ? { cookie } : {});
    expect(res.statusCode).toBe(201);
    return { url: res.json().url, cookie: cookie ?? visitorCookie(res) };
  }

  function post(memoryId: string, body: unknown, cookie?: string) {
    return t.app.inject({
      method: "POST",
      url: `/api/memories/${memoryId}/comments`,
      payload: body as object,
      headers: cookie ? { cookie } : {},
    });
  }

  function list(memoryId: string, cookie?: string) {
    return t.app.inject({
      method: "GET",
      url: `/api/memories/${memoryId}/comments`,
      headers: cookie ? { cookie } : {},
    });
  }

  async function waitForComment(id: string, memoryId: string): Promise<Comment> {
    for (let i = 0; i < 200; i++) {
      await t.app.worker.drain();
      const found = (list(memoryId, owner.cookie) as Promise<{ json(): Comment[] }>).then((r) =>
        r.json().find((c) => c.id === id),
      );
      const comment = await found;
      if (comment && comment.status !== "processing") return comment;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("comment never processed");
  }

  it("lets a visitor comment on a public memory; the server transcribes it", async () => {
    const { url, cookie } = await uploadAs();
    const res = await post(publicMemoryId, { commenterName: "  Grandma  ", audioUrl: url }, cookie);
    expect(res.statusCode).toBe(201);
    const created = res.json() as Comment;
    expect(created).toMatchObject({
      commenterName: "Grandma",
      status: "processing",
      audioUrl: url,
    });
    const done = await waitForComment(created.id, publicMemoryId);
    expect(done.status).toBe("saved");
    expect(done.transcript).toContain("sandcastle");
    const transcription = stub.requests.find((r) => r.path.endsWith("/audio/transcriptions"));
    expect(transcription?.form?.fields.model).toBe("whisper-1");
  });

  it("lets a logged-in user comment and lists newest first", async () => {
    const { url } = await uploadAs(other.cookie);
    const res = await post(
      publicMemoryId,
      { commenterName: "Uncle Bob", audioUrl: url },
      other.cookie,
    );
    expect(res.statusCode).toBe(201);
    const comments = (await list(publicMemoryId)).json() as Comment[];
    expect(comments[0]?.commenterName).toBe("Uncle Bob");
    expect(comments.length).toBeGreaterThanOrEqual(2);
  });

  it("refuses a private memory and a missing one with 404, storing nothing", async () => {
    const { url, cookie } = await uploadAs();
    for (const id of [privateMemoryId, "no-such-memory"]) {
      const res = await post(id, { commenterName: "Eve", audioUrl: url }, cookie);
      expect(res.statusCode).toBe(404);
      expect((await list(id, cookie)).statusCode).toBe(404);
    }
    expect((await list(privateMemoryId, privateOwner.cookie)).json()).toEqual([]);
  });

  it.each([
    ["a blank name", { commenterName: "", audioUrl: "/api/audio/x" }],
    ["a whitespace-only name", { commenterName: "   ", audioUrl: "/api/audio/x" }],
    [
      "an over-long name",
      { commenterName: "x".repeat(COMMENTER_NAME_MAX_LENGTH + 1), audioUrl: "/api/audio/x" },
    ],
    ["a missing name", { audioUrl: "/api/audio/x" }],
    ["a missing audioUrl", { commenterName: "Ann" }],
    ["a wrong type", { commenterName: 42, audioUrl: "/api/audio/x" }],
  ])("answers 400 for %s", async (_label, body) => {
    const before = ((await list(publicMemoryId)).json() as Comment[]).length;
    const res = await post(publicMemoryId, body, other.cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toMatch(/^body\./);
    expect(((await list(publicMemoryId)).json() as Comment[]).length).toBe(before);
  });

  it("refuses audio that someone else uploaded or that is already used", async () => {
    const { url } = await uploadAs(other.cookie);
    const stranger = await uploadAs();
    expect(
      (await post(publicMemoryId, { commenterName: "Mallory", audioUrl: url }, stranger.cookie))
        .statusCode,
    ).toBe(400);
    expect(
      (await post(publicMemoryId, { commenterName: "Bob", audioUrl: url }, other.cookie))
        .statusCode,
    ).toBe(201);
    const again = await post(publicMemoryId, { commenterName: "Bob", audioUrl: url }, other.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: "audio.already_used",
      message: ERROR_MESSAGES["audio.already_used"],
    });
  });

  it("keeps the audio when transcription fails and marks the comment failed", async () => {
    stub.handle((request) =>
      request.path.endsWith("/audio/transcriptions")
        ? { status: 500, body: { error: { message: LEAKY_DETAIL } } }
        : defaultStubHandler(request),
    );
    const { url, cookie } = await uploadAs();
    const created = (
      await post(publicMemoryId, { commenterName: "Ann", audioUrl: url }, cookie)
    ).json() as Comment;
    // The worker retries with backoff first; make this its final attempt for the test.
    await t.database.db
      .updateTable("jobs")
      .set({ attempts: 4 })
      .where("target_id", "=", created.id)
      .execute();
    const done = await waitForComment(created.id, publicMemoryId);
    expect(done.status).toBe("failed");
    // Anyone who can see the memory sees this: a product message, never the provider's text.
    expect(done.error).toBe("transcribe.failed");
    const seenByVisitor = ((await list(publicMemoryId)).json() as Comment[]).find(
      (c) => c.id === created.id,
    );
    expect(JSON.stringify(seenByVisitor)).not.toMatch(/srv|CUDA|whisper/);
    const audio = await t.app.inject({ method: "GET", url, headers: { cookie: owner.cookie } });
    expect(audio.statusCode).toBe(200);
  });

  it("lets only the memory's owner remove a comment, deleting its audio", async () => {
    const { url, cookie } = await uploadAs();
    const created = (
      await post(publicMemoryId, { commenterName: "Zed", audioUrl: url }, cookie)
    ).json() as Comment;
    const path = `/api/memories/${publicMemoryId}/comments/${created.id}`;
    const filesBefore = (await readdir(t.config.audioDir)).length;
    expect(
      (await t.app.inject({ method: "DELETE", url: path, headers: { cookie } })).statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: "DELETE", url: path, headers: { cookie: other.cookie } }))
        .statusCode,
    ).toBe(403);
    const removed = await t.app.inject({
      method: "DELETE",
      url: path,
      headers: { cookie: owner.cookie },
    });
    expect(removed.statusCode).toBe(204);
    expect(
      ((await list(publicMemoryId)).json() as Comment[]).some((c) => c.id === created.id),
    ).toBe(false);
    expect((await readdir(t.config.audioDir)).length).toBe(filesBefore - 1);
    expect(
      (await t.app.inject({ method: "GET", url, headers: { cookie: owner.cookie } })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: "DELETE", url: path, headers: { cookie: owner.cookie } }))
        .statusCode,
    ).toBe(404);
  });

  it("stores a transcript with NUL and other control characters cleaned out", async () => {
    stub.handle((request) =>
      request.path.endsWith("/audio/transcriptions")
        ? { body: { text: "Hello\u0000 Gran\u0007dma,\r\nwe miss\u001b you.\tLove" } }
        : defaultStubHandler(request),
    );
    const { url, cookie } = await uploadAs();
    const created = (
      await post(publicMemoryId, { commenterName: "Controls", audioUrl: url }, cookie)
    ).json() as Comment;
    const done = await waitForComment(created.id, publicMemoryId);
    expect(done).toMatchObject({
      status: "saved",
      transcript: "Hello Grandma,\nwe miss you.\tLove",
    });
  });

  it("says no speech was detected for a blank transcript", async () => {
    stub.handle((request) =>
      request.path.endsWith("/audio/transcriptions")
        ? { body: { text: "   " } }
        : defaultStubHandler(request),
    );
    const { url, cookie } = await uploadAs();
    const created = (
      await post(publicMemoryId, { commenterName: "Quiet", audioUrl: url }, cookie)
    ).json() as Comment;
    const done = await waitForComment(created.id, publicMemoryId);
    expect(done).toMatchObject({ status: "failed", error: "transcribe.no_speech" });
  });
});

describe("a comment whose offline speech engine is missing", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { AI_PROVIDER: "local", POCKETSPHINX_BIN: "/srv/secret/bin/pocketsphinx_continuous" },
    });
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("shows a product message, not the server's path or set-up instructions", async () => {
    const owner = await createUserWithSession(t, { isPublic: true });
    const memoryId = (
      await new MemoriesRepo(t.database.db, t.database.kind).insert({
        userId: owner.user.id,
        audioId: null,
        status: "saved",
      })
    ).id;
    const uploaded = await upload(t, await fixture("tone.mp3"));
    const created = await t.app.inject({
      method: "POST",
      url: `/api/memories/${memoryId}/comments`,
      payload: { commenterName: "Ann", audioUrl: uploaded.json().url },
      headers: { cookie: visitorCookie(uploaded) },
    });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as Comment).id;
    // The worker retries with backoff first; make this its final attempt for the test.
    await t.database.db
      .updateTable("jobs")
      .set({ attempts: 4 })
      .where("target_id", "=", id)
      .execute();
    await t.app.worker.drain();
    const listed = await t.app.inject({ method: "GET", url: `/api/memories/${memoryId}/comments` });
    const comment = (listed.json() as Comment[]).find((c) => c.id === id);
    expect(comment?.status).toBe("failed");
    expect(comment?.error).toBe("transcribe.failed");
    expect(listed.body).not.toMatch(/srv|apt-get|pocketsphinx/);
  });
});
