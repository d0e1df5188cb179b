import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { MESSAGES } from "../../../shared/messages";
import { makeTempDir } from "../../test/harness";
import {
  chatReply,
  defaultStubHandler,
  type OpenAiStub,
  startOpenAiStub,
} from "../../test/openai-stub";
import { run } from "../audio-split";
import { type OpenAiOptions, OpenAiTextModel, OpenAiTranscriber } from "./openai";

let stub: OpenAiStub;
let dir: string;
let mp3: Buffer;

function options(overrides: Partial<OpenAiOptions> = {}): OpenAiOptions {
  return {
    apiKey: "sk-test",
    baseURL: stub.baseURL,
    transcriptionModel: "whisper-1",
    textModel: "gpt-4o",
    timeoutMs: 5_000,
    maxRetries: 2,
    ...overrides,
  };
}

beforeAll(async () => {
  stub = await startOpenAiStub();
  dir = await makeTempDir("vmj-openai-");
  const wav = path.join(dir, "speech.wav");
  await run("espeak-ng", ["-w", wav, "Today we went to the beach with grandpa. ".repeat(4)]);
  const out = path.join(dir, "speech.mp3");
  await run("ffmpeg", ["-loglevel", "error", "-i", wav, "-ac", "1", "-b:a", "64k", out]);
  mp3 = await readFile(out);
});

afterAll(async () => {
  await stub.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  stub.requests.length = 0;
  stub.handle(defaultStubHandler);
});

const transcript = "Today we went to the beach with Grandpa and you built a sandcastle.";

describe("OpenAiTranscriber", () => {
  it("sends the audio as multipart with the model and returns text and duration", async () => {
    const result = await new OpenAiTranscriber(options()).transcribe({
      bytes: mp3,
      filename: "memory.mp3",
      contentType: "audio/mpeg",
    });
    expect(result.text).toContain("beach");
    expect(result.duration).toBe(mp3.length / 16000);
    const [request] = stub.requests;
    expect(request?.path).toBe("/v1/audio/transcriptions");
    expect(request?.headers.authorization).toBe("Bearer sk-test");
    expect(request?.form?.fields.model).toBe("whisper-1");
    expect(request?.form?.file).toEqual({
      name: "memory.mp3",
      type: "audio/mpeg",
      bytes: mp3.length,
    });
  });

  it("uses the separate transcription base URL and model when configured", async () => {
    const other = await startOpenAiStub();
    try {
      await new OpenAiTranscriber(
        options({ transcriptionBaseURL: other.baseURL, transcriptionModel: "large-v3" }),
      ).transcribe({ bytes: mp3, filename: "a.mp3", contentType: "audio/mpeg" });
      expect(stub.requests).toHaveLength(0);
      expect(other.requests[0]?.form?.fields.model).toBe("large-v3");
    } finally {
      await other.close();
    }
  });

  it("splits a recording over the upload limit and joins the parts' text", async () => {
    let n = 0;
    stub.handle(() => ({ body: { text: `part ${++n}` } }));
    const limit = 20_000;
    const result = await new OpenAiTranscriber(options({ maxUploadBytes: limit })).transcribe({
      bytes: mp3,
      filename: "long.mp3",
      contentType: "audio/mpeg",
    });
    expect(mp3.length).toBeGreaterThan(limit);
    expect(stub.requests.length).toBeGreaterThan(1);
    for (const request of stub.requests) {
      expect(request.form?.file?.bytes).toBeLessThanOrEqual(limit);
      expect(request.form?.file?.type).toBe("audio/mpeg");
    }
    expect(result.text).toBe(stub.requests.map((_, i) => `part ${i + 1}`).join(" "));
    expect(result.duration).toBe(mp3.length / 16000);
  });

  it("retries a 500 and then succeeds (the SDK's retries)", async () => {
    let calls = 0;
    stub.handle((request) =>
      ++calls === 1
        ? { status: 500, body: { error: { message: "boom" } } }
        : defaultStubHandler(request),
    );
    const result = await new OpenAiTranscriber(options()).transcribe({
      bytes: mp3,
      filename: "m.mp3",
      contentType: "audio/mpeg",
    });
    expect(result.text).toContain("beach");
    expect(stub.requests).toHaveLength(2);
  });

  it("gives up after 2 retries of constant 500s with the spec's message", async () => {
    stub.handle(() => ({ status: 500, body: { error: { message: "server down" } } }));
    await expect(
      new OpenAiTranscriber(options()).transcribe({
        bytes: mp3,
        filename: "m.mp3",
        contentType: "audio/mpeg",
      }),
    ).rejects.toThrow(/^Transcription failed: .*server down/);
    expect(stub.requests).toHaveLength(3);
  });

  it("times out", async () => {
    stub.handle(() => ({ delayMs: 1_000, body: { text: "late" } }));
    const error = await new OpenAiTranscriber(options({ timeoutMs: 200, maxRetries: 0 }))
      .transcribe({ bytes: mp3, filename: "m.mp3", contentType: "audio/mpeg" })
      .catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^Transcription failed: .*timed out/i);
  });

  it("stops the request when its signal is aborted, with the signal's reason, not a failure", async () => {
    const controller = new AbortController();
    const reason = new Error("lease lost");
    // Aborted once the request has reached the server, so it is a request in flight that stops.
    stub.handle(() => {
      controller.abort(reason);
      return { delayMs: 3_000, body: { text: "too late" } };
    });
    const started = Date.now();
    const error = await new OpenAiTranscriber(options())
      .transcribe(
        { bytes: mp3, filename: "m.mp3", contentType: "audio/mpeg" },
        { signal: controller.signal },
      )
      .catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(Date.now() - started).toBeLessThan(2_000);
    // Not retried, and the server saw the connection close.
    expect(stub.requests).toHaveLength(1);
    await vi.waitFor(() => expect(stub.requests[0]?.aborted).toBe(true));
  });
});

describe("OpenAiTextModel", () => {
  it("summarizes with a plain completion", async () => {
    const summary = await new OpenAiTextModel(options()).summarize(transcript);
    expect(summary).toMatch(/^I will always remember/);
    const [request] = stub.requests;
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.json?.model).toBe("gpt-4o");
    expect(request?.json?.response_format).toBeUndefined();
    const messages = request?.json?.messages as { role: string; content: string }[];
    expect(messages[0]?.role).toBe("system");
    expect(messages[1]?.content).toContain(transcript);
  });

  it("asks for the summary and tags in the transcript's language, named when the engine knew it", async () => {
    const model = new OpenAiTextModel(options());
    await model.summarize(transcript, { language: "es" });
    await model.tags(transcript, new Date("2026-07-04T10:00:00.000Z"), { language: "de" });
    await model.summarize(transcript);
    const systems = stub.requests.map(
      (r) => ((r.json?.messages ?? []) as { role: string; content: string }[])[0]?.content ?? "",
    );
    expect(systems[0]).toContain("The transcript is in Spanish: write in Spanish.");
    expect(systems[1]).toContain("The transcript is in German: write in German.");
    expect(systems[2]).toContain("Write in the language of the transcript.");
  });

  it("scores in JSON mode with the configured model", async () => {
    const scores = await new OpenAiTextModel(options({ textModel: "llama3.1" })).score(transcript);
    expect(scores).toEqual({
      meaningfulness: 8,
      cuteness: 7,
      excitement: 6,
      interest: 7,
      uniqueness: 5,
      overall: 7,
    });
    expect(stub.requests[0]?.json?.response_format).toEqual({ type: "json_object" });
    expect(stub.requests[0]?.json?.model).toBe("llama3.1");
  });

  it("replaces scores out of range, missing or not numbers with 5", async () => {
    stub.handle(() =>
      chatReply(
        JSON.stringify({
          meaningfulness: 11,
          cuteness: 0,
          excitement: "7",
          interest: 6.6,
          overall: "high",
        }),
      ),
    );
    expect(await new OpenAiTextModel(options()).score(transcript)).toEqual({
      meaningfulness: 5,
      cuteness: 5,
      excitement: 7,
      interest: 7,
      uniqueness: 5,
      overall: 5,
    });
  });

  it("fails on truncated JSON with the scoring prefix", async () => {
    stub.handle(() => chatReply('{"meaningfulness": 8, "cute'));
    await expect(new OpenAiTextModel(options()).score(transcript)).rejects.toThrow(
      new RegExp(`^${MESSAGES.scoreFailedPrefix}`),
    );
  });

  it("fails with 'No response content received from GPT' on an empty answer", async () => {
    stub.handle(() => chatReply(null));
    await expect(new OpenAiTextModel(options()).score(transcript)).rejects.toThrow(
      `${MESSAGES.scoreFailedPrefix}${MESSAGES.noResponseContent}`,
    );
    await expect(new OpenAiTextModel(options()).tags(transcript, new Date())).rejects.toThrow(
      `${MESSAGES.tagsFailedPrefix}${MESSAGES.noResponseContent}`,
    );
  });

  it("fails with 'No summary generated by GPT' on a blank summary", async () => {
    stub.handle(() => chatReply("   "));
    await expect(new OpenAiTextModel(options()).summarize(transcript)).rejects.toThrow(
      `${MESSAGES.summarizeFailedPrefix}${MESSAGES.noSummaryGenerated}`,
    );
  });

  it("generates tags in JSON mode, given the current time", async () => {
    const now = new Date("2026-07-04T10:00:00.000Z");
    expect(await new OpenAiTextModel(options()).tags(transcript, now)).toEqual([
      "beach day",
      "grandpa",
      "sandcastle",
    ]);
    const request = stub.requests[0];
    expect(request?.json?.response_format).toEqual({ type: "json_object" });
    expect(JSON.stringify(request?.json?.messages)).toContain("2026-07-04T10:00:00.000Z");
  });

  it.each([
    [["one", "two"]],
    [["one", "two", "three", "four"]],
    [["Beach", "grandpa", "sand"]],
    [["beach!", "grandpa", "sand"]],
    [["a very long tag", "grandpa", "sand"]],
    [["beach", "beach", "sand"]],
    [["beach", "", "sand"]],
    ["beach, grandpa, sand"],
  ])("refuses generated tags %j with 'Invalid tag format'", async (tags) => {
    stub.handle(() => chatReply(JSON.stringify({ tags })));
    await expect(new OpenAiTextModel(options()).tags(transcript, new Date())).rejects.toThrow(
      `${MESSAGES.tagsFailedPrefix}${MESSAGES.invalidTagFormat}`,
    );
  });

  it("retries a 500 then succeeds, and reports constant 500s with the summary prefix", async () => {
    let calls = 0;
    stub.handle((request) =>
      ++calls === 1 ? { status: 500, body: {} } : defaultStubHandler(request),
    );
    await expect(new OpenAiTextModel(options()).summarize(transcript)).resolves.toContain("beach");
    stub.handle(() => ({ status: 503, body: { error: { message: "overloaded" } } }));
    stub.requests.length = 0;
    await expect(new OpenAiTextModel(options()).summarize(transcript)).rejects.toThrow(
      new RegExp(`^${MESSAGES.summarizeFailedPrefix}.*overloaded`),
    );
    expect(stub.requests).toHaveLength(3);
  });

  it("times out with the tags prefix", async () => {
    stub.handle(() => ({ delayMs: 1_000, ...chatReply("{}") }));
    await expect(
      new OpenAiTextModel(options({ timeoutMs: 200, maxRetries: 0 })).tags(transcript, new Date()),
    ).rejects.toThrow(/^Failed to generate tags: .*timed out/i);
  });

  it("stops a completion when its signal is aborted, and never starts one after", async () => {
    const model = new OpenAiTextModel(options());
    const controller = new AbortController();
    const reason = new Error("lease lost");
    stub.handle(() => {
      controller.abort(reason);
      return { ...chatReply("late"), delayMs: 3_000 };
    });
    await expect(model.score(transcript, { signal: controller.signal })).rejects.toBe(reason);
    await expect(model.tags(transcript, new Date(), { signal: controller.signal })).rejects.toBe(
      reason,
    );
    await expect(model.summarize(transcript, { signal: controller.signal })).rejects.toBe(reason);
    expect(stub.requests).toHaveLength(1);
    await vi.waitFor(() => expect(stub.requests[0]?.aborted).toBe(true));
  });
});
