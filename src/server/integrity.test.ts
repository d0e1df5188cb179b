import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_MESSAGES, MESSAGES } from "../shared/messages";
import type { Memory } from "../shared/schemas";
import { AudioRepo } from "./audio/audio.repo";
import { createUserWithSession, type TestUser } from "./test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "./test/harness";
import {
  defaultStubHandler,
  type OpenAiStub,
  startOpenAiStub,
  stubProviders,
} from "./test/openai-stub";
import { fixture, upload, visitorCookie } from "./test/upload-helpers";
import { unzip } from "./test/zip";

/**
 * The holes found under attack. Each test here failed before its fix; the races run many
 * times on both databases.
 */
let stub: OpenAiStub;
let wav: Buffer;

beforeAll(async () => {
  stub = await startOpenAiStub();
  wav = await fixture("tone.wav");
});
afterAll(async () => stub.close());

describe.each(DATABASE_KINDS)("integrity under attack (%s)", (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let publicMemoryId: string;

  const inject = (
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    cookie?: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: cookie ? { cookie } : {},
    });

  /** Uploads the fixture; returns its URL and the cookie to use it with (visitor mark included). */
  async function uploadAs(cookie?: string): Promise<{ url: string; cookie: string }> {
    const response = await upload(t, wav, cookie ? { cookie } : {});
    expect(response.statusCode).toBe(201);
    return { url: response.json().url, cookie: cookie ?? visitorCookie(response) };
  }

  async function savedMemory(user: TestUser): Promise<Memory> {
    const { url } = await uploadAs(user.cookie);
    const response = await inject("POST", "/api/memories", user.cookie, {
      title: "Our garden",
      transcript: "We planted tulips.",
      summary: "We planted tulips together.",
      recordedAt: "2026-05-01T10:00:00.000Z",
      audioUrl: url,
    });
    expect(response.statusCode).toBe(201);
    return response.json();
  }

  beforeAll(async () => {
    t = await createTestApp({
      kind,
      deps: { ai: stubProviders(stub) },
      // The races make many requests from one address; the limits have their own tests.
      env: {
        RATE_LIMIT_PROCESS_PER_HOUR: "1000",
        RATE_LIMIT_UPLOAD_PER_HOUR: "1000",
        RATE_LIMIT_COMMENTS_PER_HOUR: "1000",
      },
    });
    owner = await createUserWithSession(t, { isPublic: true });
    publicMemoryId = (await savedMemory(owner)).id;
  });
  afterAll(async () => t.cleanup());

  it("1. a comment's upload cannot become a memory, and the commented memory stays deletable", async () => {
    const memory = await savedMemory(owner);
    // An attacker without an account comments, then reuses the comment's upload.
    const attacker = await uploadAs();
    const comment = await inject("POST", `/api/memories/${memory.id}/comments`, attacker.cookie, {
      commenterName: "Mallory",
      audioUrl: attacker.url,
    });
    expect(comment.statusCode).toBe(201);
    const reuse = await inject("POST", "/api/memories/process", attacker.cookie, {
      audioUrl: attacker.url,
    });
    expect(reuse.statusCode).toBe(409);
    expect(reuse.json()).toEqual({
      code: "audio.already_used",
      message: ERROR_MESSAGES["audio.already_used"],
    });

    const deleted = await inject("DELETE", `/api/memories/${memory.id}`, owner.cookie);
    expect(deleted.statusCode).toBe(200);
    expect((await inject("GET", attacker.url, attacker.cookie)).statusCode).toBe(404);
  });

  it("1b. a memory's upload cannot be used for a comment (409)", async () => {
    const mine = await uploadAs(owner.cookie);
    const created = await inject("POST", "/api/memories/process", owner.cookie, {
      audioUrl: mine.url,
    });
    expect(created.statusCode).toBe(201);
    const comment = await inject("POST", `/api/memories/${publicMemoryId}/comments`, owner.cookie, {
      commenterName: "Me",
      audioUrl: mine.url,
    });
    expect(comment.statusCode).toBe(409);
    expect(comment.json()).toEqual({
      code: "audio.already_used",
      message: ERROR_MESSAGES["audio.already_used"],
    });
  });

  it("2. concurrent uses of one upload make exactly one memory or comment (20 races)", async () => {
    const user = await createUserWithSession(t);
    for (let round = 0; round < 20; round++) {
      const { url } = await uploadAs(user.cookie);
      const attempts = await Promise.all([
        inject("POST", "/api/memories/process", user.cookie, { audioUrl: url }),
        inject("POST", "/api/memories/process", user.cookie, { audioUrl: url }),
        inject("POST", "/api/memories", user.cookie, {
          title: "t",
          transcript: "x",
          summary: "y",
          recordedAt: "2026-05-01T10:00:00.000Z",
          audioUrl: url,
        }),
        inject("POST", `/api/memories/${publicMemoryId}/comments`, user.cookie, {
          commenterName: "Me",
          audioUrl: url,
        }),
      ]);
      const statuses = attempts.map((response) => response.statusCode);
      expect(
        statuses.filter((status) => status === 201),
        `round ${round}: ${statuses}`,
      ).toHaveLength(1);
      for (const status of statuses) expect([200, 201, 409]).toContain(status);
      // Whoever got 200 got the one memory back.
      const ids = new Set(
        attempts
          .filter((response) => response.statusCode === 200 || response.statusCode === 201)
          .map((response) => response.json().id),
      );
      expect(ids.size).toBe(1);
    }
    // Every memory made is the user's and deletable.
    const list = (await inject("GET", "/api/memories?page=1", user.cookie)).json();
    for (const memory of list.items as Memory[]) {
      expect((await inject("DELETE", `/api/memories/${memory.id}`, user.cookie)).statusCode).toBe(
        200,
      );
    }
  });

  it("3. a backup with an audio file missing on disk keeps the server up and marks it", async () => {
    const user = await createUserWithSession(t);
    const kept = await savedMemory(user);
    const lost = await savedMemory(user);
    const audio = await new AudioRepo(t.database.db).findById(lost.audioUrl.split("/").pop() ?? "");
    if (!audio) throw new Error("audio row missing");
    await rm(path.join(t.config.audioDir, audio.storage_key));

    const response = await inject("GET", "/api/backup-memories", user.cookie);
    expect(response.statusCode).toBe(200);
    const files = await unzip(response.rawPayload);
    const json = JSON.parse(files.get("memories.json")?.toString() ?? "{}");
    const byId = new Map<string, Record<string, unknown>>(
      json.memories.map((memory: Record<string, unknown>) => [memory.id, memory]),
    );
    expect(byId.get(lost.id)).toMatchObject({ audioFile: null, audioMissing: true });
    const keptFile = byId.get(kept.id)?.audioFile as string;
    expect(files.get(keptFile)?.equals(wav)).toBe(true);
    // Still serving.
    expect((await inject("GET", "/api/health")).statusCode).toBe(200);
  });

  it("4. a percent-encoded API path meets the cross-site guard and the session lookup", async () => {
    const evil = { origin: "https://evil.example", "content-type": "application/json" };
    for (const url of ["/%61pi/logout", "/a%70i/logout", "/api/logout"]) {
      const response = await t.app.inject({ method: "POST", url, headers: evil, payload: {} });
      expect(response.statusCode, url).toBe(403);
    }
    const upload = await t.app.inject({
      method: "POST",
      url: "/%61pi/upload",
      headers: {
        origin: "https://evil.example",
        "content-type": "multipart/form-data; boundary=x",
      },
      payload: "--x--",
    });
    expect(upload.statusCode).toBe(403);
    expect(upload.cookies).toEqual([]);
    const me = await inject("GET", "/a%70i/user", owner.cookie);
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(owner.user.id);
  });

  it("5. an edit while the memory is processing answers 409, and the pipeline keeps running", async () => {
    const { url } = await uploadAs(owner.cookie);
    const created = (
      await inject("POST", "/api/memories/process", owner.cookie, { audioUrl: url })
    ).json() as Memory;
    const edit = await inject("PUT", `/api/memories/${created.id}`, owner.cookie, {
      title: "My own title",
      transcript: "My words",
      summary: "My summary",
      recordedAt: "2026-05-01T10:00:00.000Z",
      tags: ["mine"],
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json()).toEqual({
      code: "memory.being_processed",
      message: MESSAGES.editWhileProcessing,
    });
    stub.handle(defaultStubHandler);
    await t.app.worker.drain();
    const saved = (await inject("GET", `/api/memories/${created.id}`, owner.cookie)).json();
    expect(saved.status).toBe("saved");
    // Once saved, the owner's edit goes through and stays.
    const later = await inject("PUT", `/api/memories/${created.id}`, owner.cookie, {
      title: "My own title",
      transcript: "My words",
      summary: "My summary",
      recordedAt: "2026-05-01T10:00:00.000Z",
      tags: ["mine"],
    });
    expect(later.statusCode).toBe(200);
    expect(later.json()).toMatchObject({ title: "My own title", tags: ["mine"] });
  });

  it("housekeeping deletes old unattached uploads with their files, never attached ones", async () => {
    const user = await createUserWithSession(t);
    const parked = await uploadAs(user.cookie);
    const used = await uploadAs(user.cookie);
    await inject("POST", "/api/memories/process", user.cookie, { audioUrl: used.url });
    const idOf = (url: string) => url.split("/").pop() ?? "";
    const parkedRow = await t.services.audio.findById(idOf(parked.url));
    expect(parkedRow).not.toBeNull();
    // Nothing is old enough yet.
    await t.services.audio.sweepUnattached(new Date(Date.now() - 3_600_000));
    expect((await inject("GET", parked.url, user.cookie)).statusCode).toBe(200);

    const swept = await t.services.audio.sweepUnattached(new Date(Date.now() + 1000));
    expect(swept).toBeGreaterThanOrEqual(1);
    expect((await inject("GET", parked.url, user.cookie)).statusCode).toBe(404);
    expect(await t.storage.size(parkedRow?.storage_key ?? "")).toBeNull();
    expect((await inject("GET", used.url, user.cookie)).statusCode).toBe(200);
  });

  it("13. of concurrent deletes of one memory exactly one answers 200 (20 races)", async () => {
    for (let round = 0; round < 20; round++) {
      const memory = await savedMemory(owner);
      const commenter = await uploadAs();
      await inject("POST", `/api/memories/${memory.id}/comments`, commenter.cookie, {
        commenterName: "Nan",
        audioUrl: commenter.url,
      });
      const results = await Promise.all(
        Array.from({ length: 4 }, () =>
          inject("DELETE", `/api/memories/${memory.id}`, owner.cookie),
        ),
      );
      const statuses = results.map((response) => response.statusCode).sort();
      expect(statuses, `round ${round}`).toEqual([200, 404, 404, 404]);
    }
  });
});
