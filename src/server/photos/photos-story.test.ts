import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Memory } from "../../shared/schemas";
import { PHOTO_NOTE } from "../ai/prompts";
import { speechMp3 } from "../test/audio-fixtures";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, type TestApp } from "../test/harness";
import { testJpeg } from "../test/image-fixtures";
import { type OpenAiStub, startOpenAiStub, stubProviders } from "../test/openai-stub";
import { multipart, upload } from "../test/upload-helpers";

/** A story told about a photo: the summary is told so, and no image goes to the provider. */
describe("a memory told about a photo", () => {
  let t: TestApp;
  let stub: OpenAiStub;
  let owner: TestUser;
  let speech: Buffer;

  beforeAll(async () => {
    stub = await startOpenAiStub();
    t = await createTestApp({
      env: { WORKER_CONCURRENCY: "0" },
      deps: { ai: stubProviders(stub) },
    });
    owner = await createUserWithSession(t);
    speech = await speechMp3("This is the boat my grandfather built.");
  }, 60_000);
  afterAll(async () => {
    await t?.cleanup();
    await stub?.close();
  });

  async function record(withPhoto: boolean): Promise<string> {
    const stored = await upload(t, speech, { cookie: owner.cookie });
    const made = await t.app.inject({
      method: "POST",
      url: "/api/memories/process",
      headers: { cookie: owner.cookie },
      payload: { audioUrl: stored.json<{ url: string }>().url },
    });
    expect(made.statusCode).toBe(201);
    const id = made.json<Memory>().id;
    if (withPhoto) {
      const body = multipart(await testJpeg(300, 200), {
        field: "photo",
        filename: "boat.jpg",
        type: "image/jpeg",
      });
      const added = await t.app.inject({
        method: "POST",
        url: `/api/memories/${id}/photos`,
        payload: body.payload,
        headers: { ...body.headers, cookie: owner.cookie },
      });
      expect(added.statusCode).toBe(201);
    }
    return id;
  }

  /** The user message of the summary call the pipeline made. */
  function summaryPrompt(): string {
    const call = stub.requests.find(
      (r) => r.path.endsWith("/chat/completions") && !r.json?.response_format,
    );
    const messages = call?.json?.messages as { role: string; content: string }[];
    return messages.find((m) => m.role === "user")?.content ?? "";
  }

  it("notes the photo in the summary step, sending no image", async () => {
    await record(true);
    stub.requests.length = 0;
    await t.app.worker.drain();
    const prompt = summaryPrompt();
    expect(prompt).toContain(PHOTO_NOTE);
    expect(prompt).toContain("Transcript of the memory");
    for (const request of stub.requests) {
      expect(JSON.stringify(request.json ?? {})).not.toMatch(/image_url|base64|\/api\/photos\//);
    }
  });

  it("says nothing of a photo when there is none", async () => {
    await record(false);
    stub.requests.length = 0;
    await t.app.worker.drain();
    expect(summaryPrompt()).not.toContain(PHOTO_NOTE);
  });
});
