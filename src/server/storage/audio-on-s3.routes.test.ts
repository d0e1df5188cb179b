import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../shared/messages";
import type { Memory } from "../../shared/schemas";
import { speechMp3 } from "../test/audio-fixtures";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { downloadBackup, restoreBackup } from "../test/backup-helpers";
import { createTestApp, type TestApp } from "../test/harness";
import { type OpenAiStub, startOpenAiStub, stubProviders } from "../test/openai-stub";
import { fixture, upload, visitorCookie } from "../test/upload-helpers";
import type { AudioStorage } from "./audio-storage";

/** The keys in the bucket (under the app's prefix), sorted. */
async function keysIn(storage: AudioStorage): Promise<string[]> {
  const keys: string[] = [];
  for await (const file of storage.list()) keys.push(file.key);
  return keys.sort();
}

/**
 * Everything that touches audio, through HTTP, with audio in an S3-compatible bucket (s3rver in
 * this process): upload, playback with Range and permissions, the pipeline and comment jobs,
 * backup, restore, deletion and the sweep of unattached uploads. The folder backend is covered by
 * the feature tests themselves.
 */
describe("audio in an S3 bucket, through the app", () => {
  let t: TestApp;
  let stub: OpenAiStub;
  let owner: TestUser;
  let mp3: Buffer;

  beforeAll(async () => {
    stub = await startOpenAiStub();
    mp3 = await speechMp3("We went to the beach.");
    t = await createTestApp({
      storage: "s3",
      // Over one 8 MB multipart part, so a refused upload has parts in the bucket to abort.
      env: { UPLOAD_MAX_BYTES: String(9 * 1024 * 1024), WORKER_CONCURRENCY: "0" },
      deps: { ai: stubProviders(stub) },
    });
    owner = await createUserWithSession(t, { isPublic: false });
  });
  afterAll(async () => {
    await t?.cleanup();
    await stub?.close();
  });

  it("selects the bucket from STORAGE_URL, and reports it reachable for health checks", async () => {
    expect(t.config.storage.kind).toBe("s3");
    expect(t.storage.description).toMatch(/^s3:\/\/vmj-/);
    const health = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(health.statusCode).toBe(200);
  });

  it("stores an upload sniffed by its bytes and plays it with Range, to the uploader only", async () => {
    const bytes = await fixture("tone.ogg");
    const response = await upload(t, bytes, { type: "application/octet-stream" });
    expect(response.statusCode).toBe(201);
    const { url } = response.json<{ url: string }>();
    const cookie = visitorCookie(response);

    const whole = await t.app.inject({ method: "GET", url, headers: { cookie } });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers["content-type"]).toBe("audio/ogg");
    expect(whole.rawPayload.equals(bytes)).toBe(true);

    const part = await t.app.inject({
      method: "GET",
      url,
      headers: { cookie, range: "bytes=100-199" },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 100-199/${bytes.length}`);
    expect(part.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);

    const suffix = await t.app.inject({
      method: "GET",
      url,
      headers: { cookie, range: "bytes=-10" },
    });
    expect(suffix.rawPayload.equals(bytes.subarray(bytes.length - 10))).toBe(true);

    const beyond = await t.app.inject({
      method: "GET",
      url,
      headers: { cookie, range: `bytes=${bytes.length}-` },
    });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers["content-range"]).toBe(`bytes */${bytes.length}`);

    // Another browser, or nobody: 404, exactly as for audio that does not exist.
    expect((await t.app.inject({ method: "GET", url })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: "GET", url, headers: { cookie: owner.cookie } })).statusCode,
    ).toBe(404);
  });

  it("refuses what is not audio, and what is too large, leaving nothing in the bucket", async () => {
    const before = await keysIn(t.storage);
    const notAudio = await upload(t, Buffer.alloc(5000, 7));
    expect(notAudio.statusCode).toBe(400);

    // 12 MB: the first 8 MB part reaches the bucket before the limit cuts the stream.
    const big = Buffer.concat([await fixture("tone.wav"), Buffer.alloc(12 * 1024 * 1024, 1)]);
    const tooLarge = await upload(t, big);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({ code: "too_large", message: MESSAGES.tooLarge });
    expect(await keysIn(t.storage)).toEqual(before);
    expect(await t.bucket?.server.unfinishedUploads(t.bucket.settings.bucket)).toBe(0);
  });

  it("processes a memory and a spoken comment from the bucket, backs up, restores and deletes", async () => {
    stub.requests.length = 0;
    const uploaded = await upload(t, mp3, { cookie: owner.cookie });
    const created = await t.app.inject({
      method: "POST",
      url: "/api/memories/process",
      headers: { cookie: owner.cookie },
      payload: { audioUrl: uploaded.json<{ url: string }>().url },
    });
    expect(created.statusCode).toBe(201);
    const memory = created.json<Memory>();
    expect(await t.app.worker.drain()).toBe(1);
    const saved = await t.app.inject({
      method: "GET",
      url: `/api/memories/${memory.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(saved.json<Memory>().status).toBe("saved");
    // The transcriber got the recording's bytes, read from the bucket.
    const transcription = stub.requests.find((r) => r.path.endsWith("/audio/transcriptions"));
    expect(transcription?.form?.file?.bytes).toBe(mp3.length);

    const commentAudio = await upload(t, mp3, { cookie: owner.cookie });
    const comment = await t.app.inject({
      method: "POST",
      url: `/api/memories/${memory.id}/comments`,
      headers: { cookie: owner.cookie },
      payload: { commenterName: "Grandma", audioUrl: commentAudio.json<{ url: string }>().url },
    });
    expect(comment.statusCode).toBe(201);
    expect(await t.app.worker.drain()).toBe(1);
    const comments = await t.app.inject({
      method: "GET",
      url: `/api/memories/${memory.id}/comments`,
      headers: { cookie: owner.cookie },
    });
    expect(comments.json<{ transcript: string }[]>()[0]?.transcript).toBeTruthy();

    // The backup streams both recordings out of the bucket.
    const { zip, files } = await downloadBackup(t, owner.cookie);
    const audioEntries = [...files.entries()].filter(([name]) => name.startsWith("audio/"));
    expect(audioEntries).toHaveLength(2);
    for (const [, bytes] of audioEntries) expect(bytes.equals(mp3)).toBe(true);

    // Restored into another account: new objects in the bucket, playable.
    const other = await createUserWithSession(t);
    const before = (await keysIn(t.storage)).length;
    const restored = await restoreBackup(t, other.cookie, zip);
    expect(restored.statusCode).toBe(200);
    expect((await keysIn(t.storage)).length).toBe(before + 2);
    const list = await t.app.inject({
      method: "GET",
      url: "/api/memories",
      headers: { cookie: other.cookie },
    });
    const restoredMemory = list.json<{ items: Memory[] }>().items[0];
    const played = await t.app.inject({
      method: "GET",
      url: restoredMemory?.audioUrl ?? "",
      headers: { cookie: other.cookie },
    });
    expect(played.rawPayload.equals(mp3)).toBe(true);

    // Deleting the memory deletes its audio and its comment's audio from the bucket.
    const keysBefore = await keysIn(t.storage);
    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/memories/${memory.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(deleted.statusCode).toBeLessThan(300);
    expect((await keysIn(t.storage)).length).toBe(keysBefore.length - 2);
  });

  it("deletes every recording of a deleted account from the bucket", async () => {
    const leaving = await createUserWithSession(t);
    const before = await keysIn(t.storage);
    const saved = await upload(t, mp3, { cookie: leaving.cookie });
    const memory = await t.app.inject({
      method: "POST",
      url: "/api/memories",
      headers: { cookie: leaving.cookie },
      payload: {
        title: "A day out",
        audioUrl: saved.json<{ url: string }>().url,
        transcript: "We went to the beach.",
        summary: "We went to the beach.",
        recordedAt: "2026-05-01T10:00:00.000Z",
      },
    });
    expect(memory.statusCode).toBe(201);
    // And one upload never made into a memory.
    await upload(t, await fixture("tone.mp3"), { cookie: leaving.cookie });
    expect((await keysIn(t.storage)).length).toBe(before.length + 2);
    const deleted = await t.app.inject({
      method: "DELETE",
      url: "/api/user",
      headers: { cookie: leaving.cookie },
      payload: { confirm: "delete", currentPassword: leaving.password },
    });
    expect(deleted.statusCode).toBe(200);
    expect(await keysIn(t.storage)).toEqual(before);
  });

  it("sweeps an upload never attached, object and all, after the retention period", async () => {
    const uploaded = await upload(t, await fixture("tone.mp3"), { cookie: owner.cookie });
    expect(uploaded.statusCode).toBe(201);
    const before = await keysIn(t.storage);
    expect(await t.services.audio.sweepUnattached(new Date(Date.now() - 60_000))).toBe(0);
    expect(await t.services.audio.sweepUnattached(new Date(Date.now() + 60_000))).toBeGreaterThan(
      0,
    );
    const after = await keysIn(t.storage);
    expect(after.length).toBeLessThan(before.length);
    const gone = await t.app.inject({
      method: "GET",
      url: uploaded.json<{ url: string }>().url,
      headers: { cookie: owner.cookie },
    });
    expect(gone.statusCode).toBe(404);
  });
});
