import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../shared/messages";
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
      // Long enough for the database's own answer on a busy machine.
      timeoutMs: 500,
    });
    const started = Date.now();
    const report = await health.check();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(report.healthy).toBe(false);
    if (report.healthy) return;
    expect(report.unreachable.map((u) => u.part)).toEqual(["storage"]);
    expect(String(report.unreachable[0]?.error)).toMatch(/did not answer within 500 ms/);
  });

  it("says degraded, with the reason, when the data disk has less room than one upload", async () => {
    const withFree = (free: number) =>
      new HealthService({
        database: testDb.handle,
        storage: { check: async () => undefined },
        jobs: new JobsRepo(testDb.handle.db, "sqlite"),
        freeDiskBytes: async () => free,
        minFreeDiskBytes: 50 * 1024 * 1024,
      }).check();
    const full = await withFree(1024);
    expect(full).toMatchObject({
      healthy: true,
      body: { status: "degraded", reason: MESSAGES.dataDiskNearlyFull },
    });
    const roomy = await withFree(10 * 1024 * 1024 * 1024);
    expect(roomy).toMatchObject({ healthy: true, body: { status: "ok" } });
    expect(roomy.healthy && "reason" in roomy.body).toBe(false);
  });
});
