import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MESSAGES } from "../../shared/messages";
import type { HealthResponse } from "../../shared/schemas";
import { createTestApp, type TestApp } from "../test/harness";

const healthy: HealthResponse = {
  status: "ok",
  database: "sqlite",
  storage: "ok",
  queue: { waiting: 2, running: 0, scheduled: 1, oldestWaitingSeconds: null },
};

/** The app's answer to GET /api/health when the health check's report body is `body`. */
async function healthWith(t: TestApp, body: unknown) {
  const check = vi
    .spyOn(t.services.health, "check")
    .mockResolvedValue({ healthy: true, body: body as HealthResponse });
  try {
    return await t.app.inject("/api/health");
  } finally {
    check.mockRestore();
  }
}

describe("every response is written from its schema", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("writes what the schema declares", async () => {
    const res = await healthWith(t, healthy);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(healthy);
  });

  it("never writes a field the schema does not declare", async () => {
    const res = await healthWith(t, {
      ...healthy,
      password_hash: "$argon2id$secret",
      queue: { ...healthy.queue, owner_email: "someone@example.com" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/password_hash|argon2id|owner_email|example/);
    expect(res.json()).toEqual(healthy);
  });

  it.each([
    [
      "1.7 where the schema says integer",
      { ...healthy, queue: { ...healthy.queue, waiting: 1.7 } },
    ],
    ["42 where the schema says string", { ...healthy, reason: 42 }],
    ["a value outside its enum", { ...healthy, status: "fine" }],
    ["a missing field", { ...healthy, queue: { waiting: 2, running: 0, scheduled: 1 } }],
  ])("refuses %s with a 500, never a coerced value", async (_name, body) => {
    const res = await healthWith(t, body);
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: "internal_error", message: MESSAGES.internalError });
  });
});
