import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobsRepo } from "../jobs/jobs.repo";
import { createTestDatabase, type TestDatabase } from "../test/harness";
import { HealthService } from "./health.service";

describe("HealthService", () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase("sqlite");
  });
  afterAll(async () => testDb.cleanup());

  it("counts a storage that never answers as unreachable, within the timeout", async () => {
    // A bucket behind a dead network answers nothing at all; a load balancer must not wait on it.
    const hanging = { check: () => new Promise<void>(() => {}) };
    const health = new HealthService({
      database: testDb.handle,
      storage: hanging,
      jobs: new JobsRepo(testDb.handle.db, "sqlite"),
      timeoutMs: 50,
    });
    const started = Date.now();
    const report = await health.check();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(report.healthy).toBe(false);
    if (report.healthy) return;
    expect(report.unreachable.map((u) => u.part)).toEqual(["storage"]);
    expect(String(report.unreachable[0]?.error)).toMatch(/did not answer within 50 ms/);
  });
});
