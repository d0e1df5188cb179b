import { rm, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ERROR_MESSAGES } from "../../shared/messages";
import type { Memory } from "../../shared/schemas";
import { createUserWithSession } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import {
  defaultStubHandler,
  type OpenAiStub,
  startOpenAiStub,
  stubProviders,
} from "../test/openai-stub";
import { fixture, upload } from "../test/upload-helpers";

const TOKEN = "test-metrics-token-0123456789abcdef";

/** The value of one sample in a Prometheus text exposition, or undefined when absent. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) {
      return Number(match[3]);
    }
  }
  return undefined;
}

let stub: OpenAiStub;
beforeAll(async () => {
  stub = await startOpenAiStub();
});
afterAll(async () => {
  await stub.close();
});
beforeEach(() => {
  stub.handle(defaultStubHandler);
});

describe.each(DATABASE_KINDS)("GET /metrics on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      kind,
      env: { METRICS_TOKEN: TOKEN, WORKER_CONCURRENCY: "0" },
      deps: { ai: stubProviders(stub) },
    });
  });
  afterAll(async () => t.cleanup());

  const scrape = async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  /** Uploads a recording as `cookie` and sends it for processing; returns the new memory. */
  const recordMemory = async (cookie: string): Promise<Memory> => {
    const uploaded = await upload(t, await fixture("tone.mp3"), { cookie });
    expect(uploaded.statusCode).toBe(201);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/memories/process",
      payload: { audioUrl: uploaded.json<{ url: string }>().url },
      headers: { cookie },
    });
    expect(created.statusCode).toBe(201);
    return created.json<Memory>();
  };

  it("does not exist without METRICS_TOKEN", async () => {
    const off = await createTestApp({ kind });
    try {
      const res = await off.app.inject({
        method: "GET",
        url: "/metrics",
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await off.cleanup();
    }
  });

  it("answers 401 without the token, with a wrong one, or another scheme", async () => {
    const attempts = [
      {},
      { authorization: "Bearer wrong-token" },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Basic ${TOKEN}` },
      { authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const res = await t.app.inject({ method: "GET", url: "/metrics", headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        code: "metrics_token_required",
        message: ERROR_MESSAGES.metrics_token_required,
      });
      expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
      expect(res.body).not.toContain("http_requests_total");
    }
  });

  it("serves the Prometheus text format with Node's default metrics", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain("# TYPE http_requests_total counter");
    expect(sample(res.body, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(sample(res.body, "nodejs_eventloop_lag_seconds")).toBeDefined();
  });

  it("counts requests by route pattern and status, never by raw URL", async () => {
    const owner = await createUserWithSession(t);
    const before = await scrape();
    const route = { method: "GET", route: "/api/memories/:id", status: "404" };
    const countBefore = sample(before, "http_requests_total", route) ?? 0;
    for (const id of ["secret-id-one", "secret-id-two"]) {
      await t.app.inject({
        method: "GET",
        url: `/api/memories/${id}`,
        headers: { cookie: owner.cookie },
      });
    }
    await t.app.inject({ method: "GET", url: "/api/no-such-route/private-thing" });

    const after = await scrape();
    expect(sample(after, "http_requests_total", route)).toBe(countBefore + 2);
    expect(sample(after, "http_request_duration_seconds_count", route) ?? 0).toBeGreaterThanOrEqual(
      countBefore + 2,
    );
    expect(
      sample(after, "http_requests_total", { route: "unmatched", status: "404" }),
    ).toBeGreaterThanOrEqual(1);
    for (const secret of ["secret-id", "private-thing", "no-such-route"]) {
      expect(after).not.toContain(secret);
    }
  });

  it("reports the queue, and times a processed job, its stages and its AI calls", async () => {
    const owner = await createUserWithSession(t);
    const created = await recordMemory(owner.cookie);

    const queued = await scrape();
    expect(sample(queued, "job_queue_waiting", { kind: "process-memory" })).toBe(1);
    expect(
      sample(queued, "job_queue_oldest_waiting_seconds", { kind: "process-memory" }),
    ).toBeGreaterThanOrEqual(0);
    const done = { kind: "process-memory", outcome: "done" };
    const doneBefore = sample(queued, "jobs_finished_total", done) ?? 0;

    expect(await t.app.worker.drain()).toBe(1);
    const memory = await t.app.inject({
      method: "GET",
      url: `/api/memories/${created.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(memory.json<Memory>().status).toBe("saved");

    const after = await scrape();
    expect(sample(after, "jobs_finished_total", done)).toBe(doneBefore + 1);
    expect(sample(after, "job_duration_seconds_count", done)).toBe(doneBefore + 1);
    // Nothing left in the queue: the gauges of that kind are gone, not stale.
    expect(sample(after, "job_queue_waiting", { kind: "process-memory" })).toBeUndefined();
    for (const stage of ["transcribe", "summarize", "score", "tag", "save"]) {
      expect(
        sample(after, "pipeline_stage_duration_seconds_count", { stage, outcome: "done" }),
      ).toBeGreaterThanOrEqual(1);
    }
    for (const operation of ["transcribe", "summarize", "score", "tags"]) {
      expect(
        sample(after, "ai_call_duration_seconds_count", {
          provider: "openai",
          operation,
          outcome: "ok",
        }),
      ).toBeGreaterThanOrEqual(1);
    }
  });

  it("counts AI errors and the stage that failed", async () => {
    const owner = await createUserWithSession(t);
    stub.handle((request) =>
      request.path.endsWith("/audio/transcriptions")
        ? { status: 500, body: { error: { message: "provider down" } } }
        : defaultStubHandler(request),
    );
    const before = await scrape();
    const failedStage = { stage: "transcribe", outcome: "failed" };
    const aiError = { provider: "openai", operation: "transcribe" };
    const stageBefore = sample(before, "pipeline_stage_failures_total", failedStage) ?? 0;
    const aiBefore = sample(before, "ai_call_errors_total", aiError) ?? 0;

    await recordMemory(owner.cookie);
    expect(await t.app.worker.drain()).toBe(1);

    const after = await scrape();
    expect(sample(after, "pipeline_stage_failures_total", failedStage)).toBe(stageBefore + 1);
    expect(sample(after, "ai_call_errors_total", aiError)).toBe(aiBefore + 1);
  });

  it("counts storage errors, whichever operation failed", async () => {
    const owner = await createUserWithSession(t);
    const uploaded = await upload(t, await fixture("tone.mp3"), { cookie: owner.cookie });
    const before = await scrape();
    const checkErrors = sample(before, "storage_errors_total", { operation: "check" }) ?? 0;

    // The audio folder replaced by a file: the health check's storage call fails, and is counted.
    await rm(t.config.audioDir, { recursive: true, force: true });
    await writeFile(t.config.audioDir, "not a folder");
    try {
      expect((await t.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(503);
      const failedUpload = await upload(t, await fixture("tone.mp3"), { cookie: owner.cookie });
      expect(failedUpload.statusCode).toBeGreaterThanOrEqual(500);
      const after = await scrape();
      expect(sample(after, "storage_errors_total", { operation: "check" })).toBe(checkErrors + 1);
      expect(sample(after, "storage_errors_total", { operation: "write" })).toBeGreaterThanOrEqual(
        1,
      );
    } finally {
      await rm(t.config.audioDir, { force: true });
      await t.storage.checkWritable();
    }
    expect(uploaded.statusCode).toBe(201);
  });
});
