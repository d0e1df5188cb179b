import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Comment, Memory } from "../../shared/schemas";
import { SHARE_COOKIE } from "../share-links/share-cookie";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { STUB_TRANSCRIPT, stubProviders } from "../test/openai-stub";
import { upload } from "../test/upload-helpers";
import { expectCuesInOrder, parseVtt, spokenRecordingFixture } from "../test/webvtt";

const spoken = spokenRecordingFixture();

describe.each(DATABASE_KINDS)("a spoken comment's captions (%s)", (kind) => {
  let t: TestApp;
  let publicOwner: TestUser;
  let privateOwner: TestUser;
  let stranger: TestUser;
  let onPublic: Comment;
  let onPrivate: Comment;

  const inject = (method: "GET" | "POST", url: string, cookie?: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload ? { payload } : {}),
    });
  const captionsUrl = (comment: Comment) =>
    `/api/memories/${comment.memoryId}/comments/${comment.id}/captions.vtt`;

  /** A saved memory of `owner`'s with a spoken comment by them, transcribed. */
  async function commentedMemory(owner: TestUser): Promise<Comment> {
    const recording = await upload(t, spoken.mp3, {
      cookie: owner.cookie,
      filename: "m.mp3",
      type: "audio/mpeg",
    });
    const memory = (
      await inject("POST", "/api/memories/process", owner.cookie, {
        audioUrl: recording.json<{ url: string }>().url,
      })
    ).json<Memory>();
    const said = await upload(t, spoken.mp3, {
      cookie: owner.cookie,
      filename: "c.mp3",
      type: "audio/mpeg",
    });
    const comment = await inject("POST", `/api/memories/${memory.id}/comments`, owner.cookie, {
      commenterName: "Nana",
      audioUrl: said.json<{ url: string }>().url,
    });
    expect(comment.statusCode).toBe(201);
    expect(await t.app.worker.drain()).toBe(2);
    return comment.json<Comment>();
  }

  beforeAll(async () => {
    t = await createTestApp({
      kind,
      env: { WORKER_CONCURRENCY: "0" },
      deps: { ai: stubProviders(spoken.stub) },
    });
    publicOwner = await createUserWithSession(t, { isPublic: true });
    privateOwner = await createUserWithSession(t, { isPublic: false });
    stranger = await createUserWithSession(t);
    onPublic = await commentedMemory(publicOwner);
    onPrivate = await commentedMemory(privateOwner);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("serves valid WebVTT, cues in order and inside the comment's audio", async () => {
    const response = await inject("GET", captionsUrl(onPublic), publicOwner.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/vtt; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("private, no-cache");
    const cues = parseVtt(response.body);
    expect(cues).toHaveLength(2);
    expect(cues.map((cue) => cue.text).join(" ")).toBe(STUB_TRANSCRIPT);
    expectCuesInOrder(cues, spoken.mp3Seconds);
  });

  it("answers exactly as the comment's audio: owner, visitors of a public profile, share links", async () => {
    const link = await inject("POST", "/api/share-links", privateOwner.cookie, { label: "Gran" });
    expect(link.statusCode).toBe(201);
    const opened = await inject("GET", new URL(link.json<{ url: string }>().url).pathname);
    const holder = opened.cookies.find((c) => c.name === SHARE_COOKIE);
    expect(holder).toBeDefined();
    const linkCookie = `${SHARE_COOKIE}=${holder?.value}`;

    const cases: [Comment, string | undefined, number][] = [
      [onPublic, publicOwner.cookie, 200],
      [onPublic, stranger.cookie, 200],
      [onPublic, undefined, 200],
      [onPrivate, privateOwner.cookie, 200],
      [onPrivate, linkCookie, 200],
      [onPrivate, stranger.cookie, 404],
      [onPrivate, undefined, 404],
    ];
    for (const [comment, cookie, status] of cases) {
      const captions = await inject("GET", captionsUrl(comment), cookie);
      const audio = await inject("GET", comment.audioUrl, cookie);
      expect([captions.statusCode, audio.statusCode]).toEqual([status, status]);
      if (status === 200) expect(parseVtt(captions.body)).toHaveLength(2);
    }
  });

  it("is a 404 for a comment that is not the memory's, or is not there", async () => {
    const elsewhere = `/api/memories/${onPublic.memoryId}/comments/${onPrivate.id}/captions.vtt`;
    for (const cookie of [publicOwner.cookie, privateOwner.cookie]) {
      expect((await inject("GET", elsewhere, cookie)).statusCode).toBe(404);
    }
    const missing = `/api/memories/${onPublic.memoryId}/comments/no-such-comment/captions.vtt`;
    expect((await inject("GET", missing, publicOwner.cookie)).statusCode).toBe(404);
  });
});
