import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Memory } from "../../shared/schemas";
import type { TranscriptInfo } from "../../shared/transcript";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { downloadBackup, restoreBackup } from "../test/backup-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { defaultStubHandler, STUB_TRANSCRIPT, stubProviders } from "../test/openai-stub";
import { upload } from "../test/upload-helpers";
import { expectCuesInOrder, parseVtt, spokenRecordingFixture } from "../test/webvtt";

const spoken = spokenRecordingFixture();

describe.each(DATABASE_KINDS)("timed transcripts and captions (%s)", (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let memory: Memory;

  beforeAll(async () => {
    t = await createTestApp({
      kind,
      env: { WORKER_CONCURRENCY: "0" },
      deps: { ai: stubProviders(spoken.stub) },
    });
    owner = await createUserWithSession(t, { isPublic: false });
    stranger = await createUserWithSession(t);
    spoken.stub.handle(defaultStubHandler);
    spoken.stub.requests.length = 0;
    const uploaded = await upload(t, spoken.mp3, {
      cookie: owner.cookie,
      filename: "story.mp3",
      type: "audio/mpeg",
    });
    expect(uploaded.statusCode).toBe(201);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/memories/process",
      payload: { audioUrl: uploaded.json<{ url: string }>().url },
      headers: { cookie: owner.cookie },
    });
    memory = created.json<Memory>();
    expect(await t.app.worker.drain()).toBe(1);
  });
  afterAll(async () => {
    await t.cleanup();
  });
  beforeEach(() => {
    spoken.stub.handle(defaultStubHandler);
  });

  const get = (url: string, cookie?: string) =>
    t.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });

  it("asks the server for segments and keeps them with the engine that made them", async () => {
    const request = spoken.stub.requests.find((r) => r.path.endsWith("/audio/transcriptions"));
    expect(request?.form?.fields).toMatchObject({
      model: "whisper-1",
      response_format: "verbose_json",
      "timestamp_granularities[]": "segment",
    });
    const info = (
      await get(`/api/memories/${memory.id}/transcript`, owner.cookie)
    ).json<TranscriptInfo>();
    expect(info).toMatchObject({ engine: "whisper-1", edited: false, retranscribe: false });
    expect(info.segments.map((s) => s.text)).toEqual([
      "Today we went to the beach with Grandpa",
      "and you built a sandcastle.",
    ]);
  });

  it("serves valid WebVTT captions, cues in order and inside the audio", async () => {
    const response = await get(`/api/memories/${memory.id}/captions.vtt`, owner.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/vtt; charset=utf-8");
    const cues = parseVtt(response.body);
    expect(cues.map((cue) => cue.text).join(" ")).toBe(STUB_TRANSCRIPT);
    expectCuesInOrder(cues, spoken.mp3Seconds);
  });

  it("answers the captions exactly as the audio: 404 to whoever may not hear it", async () => {
    for (const cookie of [stranger.cookie, undefined]) {
      const audio = await get(memory.audioUrl, cookie);
      for (const path of ["captions.vtt", "transcript"]) {
        const response = await get(`/api/memories/${memory.id}/${path}`, cookie);
        expect(response.statusCode).toBe(404);
        expect(response.statusCode).toBe(audio.statusCode);
      }
    }
    expect((await get("/api/memories/no-such-memory/captions.vtt", owner.cookie)).statusCode).toBe(
      404,
    );
  });

  it("keeps the times of the sentences an edit left alone, and drops the edited ones", async () => {
    const edited = "Today we went to the beach with Grandpa and you built a castle of sand.";
    const put = await t.app.inject({
      method: "PUT",
      url: `/api/memories/${memory.id}`,
      headers: { cookie: owner.cookie },
      payload: {
        title: memory.title,
        transcript: edited,
        summary: memory.summary,
        recordedAt: memory.recordedAt,
        tags: memory.tags,
      },
    });
    expect(put.statusCode).toBe(200);
    const info = (
      await get(`/api/memories/${memory.id}/transcript`, owner.cookie)
    ).json<TranscriptInfo>();
    expect(info.edited).toBe(true);
    expect(info.segments.map((s) => s.text)).toEqual(["Today we went to the beach with Grandpa"]);
  });

  it("keeps the engine, the segments and the edit through a backup and its restore", async () => {
    // A spoken comment is transcribed with its times too.
    const said = await upload(t, spoken.mp3, {
      cookie: owner.cookie,
      filename: "c.mp3",
      type: "audio/mpeg",
    });
    const comment = await t.app.inject({
      method: "POST",
      url: `/api/memories/${memory.id}/comments`,
      payload: { commenterName: "Nana", audioUrl: said.json<{ url: string }>().url },
      headers: { cookie: owner.cookie },
    });
    expect(comment.statusCode).toBe(201);
    expect(await t.app.worker.drain()).toBe(1);
    const before = (
      await get(`/api/memories/${memory.id}/transcript`, owner.cookie)
    ).json<TranscriptInfo>();
    const { zip, files } = await downloadBackup(t, owner.cookie);
    const manifest = JSON.parse(files.get("memories.json")?.toString() ?? "{}") as {
      memories: { transcription: unknown; comments: { transcription: unknown }[] }[];
    };
    expect(manifest.memories[0]?.comments[0]?.transcription).toEqual({
      engine: "whisper-1",
      segments: [
        expect.objectContaining({ text: "Today we went to the beach with Grandpa" }),
        expect.objectContaining({ text: "and you built a sandcastle." }),
      ],
    });
    expect(manifest.memories[0]?.transcription).toEqual({
      engine: before.engine,
      edited: before.edited,
      segments: before.segments,
    });
    const heir = await createUserWithSession(t);
    expect((await restoreBackup(t, heir.cookie, zip)).statusCode).toBe(200);
    const list = (await get("/api/memories", heir.cookie)).json<{ items: Memory[] }>();
    const restored = list.items[0];
    const info = (
      await get(`/api/memories/${restored?.id}/transcript`, heir.cookie)
    ).json<TranscriptInfo>();
    expect(info).toEqual(before);
    const restoredComment = await t.database.db
      .selectFrom("comments")
      .select(["transcript_engine", "transcript_segments"])
      .where("memory_id", "=", restored?.id ?? "")
      .executeTakeFirstOrThrow();
    expect(restoredComment.transcript_engine).toBe("whisper-1");
    expect(JSON.parse(restoredComment.transcript_segments ?? "[]")).toHaveLength(2);
  });
});
