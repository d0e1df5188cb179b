import { describe, expect, it, vi } from "vitest";
import { ERROR_MESSAGES, MESSAGES } from "../../../../shared/messages";
import { type Memory, PIPELINE_STAGES } from "../../../../shared/schemas";
import { fakeApi, json, makeMemory } from "../../../test/fake-api";
import { STAGE_ORDER } from "./processing-api";
import { ProcessingFailedError, runMemoryProcessing } from "./run-processing";

const upload = { url: "/api/audio/a1", recordedAt: "2026-05-01T10:00:00.000Z" };
const noSleep = async () => {};

/** The server's answers to successive polls of memory m1. */
function serverWith(states: Partial<Memory>[], start: Partial<Memory> = {}) {
  let poll = 0;
  return fakeApi([
    ({ method, url }) =>
      method === "POST" && url === "/api/memories/process"
        ? json(
            makeMemory({ user_id: null, status: "processing", stage: "transcribe", ...start }),
            201,
          )
        : undefined,
    ({ method, url }) =>
      method === "POST" && url === "/api/memories/m1/retry"
        ? json(makeMemory({ status: "processing", stage: "score", error: null }))
        : undefined,
    ({ method, url }) =>
      method === "GET" && url === "/api/memories/m1"
        ? json(makeMemory(states[Math.min(poll++, states.length - 1)]))
        : undefined,
  ]);
}

describe("runMemoryProcessing", () => {
  it("reports each server stage once, in order, and resolves with the saved memory", async () => {
    const api = serverWith([
      { status: "processing", stage: "transcribe" },
      { status: "processing", stage: "summarize" },
      { status: "processing", stage: "score" },
      { status: "processing", stage: "score" },
      { status: "processing", stage: "tag" },
      { status: "saved", stage: null },
    ]);
    const notices: string[] = [];
    const memory = await runMemoryProcessing(upload, (n) => void notices.push(n), {
      sleep: noSleep,
    });
    expect(memory.status).toBe("saved");
    expect(notices).toEqual([
      MESSAGES.transcribing,
      MESSAGES.summarizing,
      MESSAGES.scoring,
      MESSAGES.tagging,
      MESSAGES.saving,
    ]);
    expect(api.requests[0]).toEqual({
      method: "POST",
      url: "/api/memories/process",
      body: { audioUrl: upload.url, recordedAt: upload.recordedAt },
    });
  });

  it("reports the stages that began and ended between two polls too, in order (a fast provider)", async () => {
    // The server went from transcribing to saved between two polls.
    serverWith([{ status: "saved", stage: null }]);
    const notices: string[] = [];
    await runMemoryProcessing(upload, (n) => void notices.push(n), { sleep: noSleep });
    expect(notices).toEqual([
      MESSAGES.transcribing,
      MESSAGES.summarizing,
      MESSAGES.scoring,
      MESSAGES.tagging,
      MESSAGES.saving,
    ]);
  });

  it("reports the stages run before a failure, then throws", async () => {
    serverWith([{ status: "failed", stage: "score", error: "Failed to score memory: busy" }]);
    const notices: string[] = [];
    await expect(
      runMemoryProcessing(upload, (n) => void notices.push(n), { sleep: noSleep }),
    ).rejects.toBeInstanceOf(ProcessingFailedError);
    expect(notices).toEqual([MESSAGES.transcribing, MESSAGES.summarizing, MESSAGES.scoring]);
  });

  it("returns only once its last notice has been shown", async () => {
    serverWith([{ status: "saved", stage: null }]);
    const shown: { notice: string; release: () => void }[] = [];
    const report = (notice: string) =>
      new Promise<void>((release) => {
        shown.push({ notice, release });
      });
    let done = false;
    const running = runMemoryProcessing(upload, report, { sleep: noSleep }).then(() => {
      done = true;
    });
    await vi.waitFor(() => expect(shown.at(-1)?.notice).toBe(MESSAGES.saving));
    // One turn of the event loop: everything that could run before the notice is released has.
    await new Promise((r) => setTimeout(r, 0));
    expect(done).toBe(false);
    shown.at(-1)?.release();
    await running;
    expect(done).toBe(true);
  });

  it("knows the stages in the server's order", () => {
    expect(STAGE_ORDER).toEqual([...PIPELINE_STAGES]);
  });

  it("throws a permanent error carrying the server's message when processing fails", async () => {
    serverWith([{ status: "failed", stage: "tag", error: "tag.invalid_format" }]);
    const error = await runMemoryProcessing(upload, () => {}, { sleep: noSleep }).catch((e) => e);
    expect(error).toBeInstanceOf(ProcessingFailedError);
    expect(error.message).toBe(ERROR_MESSAGES["tag.invalid_format"]);
    expect(error.permanent).toBe(true);
  });

  it("resumes a memory that failed before when sent again (the Retry of a kept recording)", async () => {
    const api = serverWith([{ status: "saved", stage: null }], {
      status: "failed",
      stage: "score",
      error: "Failed to score memory: busy",
    });
    const memory = await runMemoryProcessing(upload, () => {}, { sleep: noSleep });
    expect(memory.status).toBe("saved");
    expect(api.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "POST /api/memories/process",
      "POST /api/memories/m1/retry",
      "GET /api/memories/m1",
    ]);
  });

  it("lets a refused request through as an error (the recording stays kept)", async () => {
    fakeApi([
      () => json({ message: "Too many requests. Please wait a moment and try again." }, 429),
    ]);
    await expect(runMemoryProcessing(upload, () => {}, { sleep: noSleep })).rejects.toThrow(/429/);
  });
});
