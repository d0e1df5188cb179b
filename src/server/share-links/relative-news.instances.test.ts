import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "../compose";
import { MemoriesRepo } from "../memories/memories.repo";
import { Scheduler } from "../scheduler";
import { createUserWithSession } from "../test/auth-helpers";
import { createTwoInstances, DATABASE_KINDS, silentLog, type TwoInstances } from "../test/harness";

const RELATIVES = 8;

/**
 * Two app instances on one database, as behind a load balancer: each relative's news mail goes
 * out exactly once however their checks interleave, through their schedulers too.
 */
describe.each(DATABASE_KINDS)("relatives' news with two instances on one %s database", (kind) => {
  let instances: TwoInstances;

  beforeAll(async () => {
    instances = await createTwoInstances(kind, { RELATIVE_DIGEST_MINUTES: "60" });
  });
  afterAll(async () => {
    await instances?.cleanup();
  });

  it("mails each relative once, from whichever instance claims it first", async () => {
    const { a, b, testDb, smtp } = instances;
    const t = { database: testDb.handle, config: a.config };
    const { user } = await createUserWithSession(t, {});
    for (let i = 0; i < RELATIVES; i++) {
      await a.shareLinks.create(user.id, { label: `Relative ${i}`, email: `r${i}@example.org` });
    }
    smtp.messages.length = 0; // the links' own mails
    const memories = new MemoriesRepo(testDb.handle.db, testDb.handle.kind);
    const made = new Date(Date.now() + 60_000);
    for (const title of ["A wedding", "A birthday"]) {
      await memories.insert({
        userId: user.id,
        audioId: null,
        status: "saved",
        title,
        createdAt: made.toISOString(),
      });
    }
    // Both instances' schedulers, as main.ts starts them: each runs its check at once.
    const now = new Date(made.getTime() + 61 * 60_000);
    const runs: Promise<number>[] = [];
    const task = (services: Services) => ({
      name: "relative news",
      everyMs: 60_000,
      run: () => {
        const run = services.relativeNews.sendDue(now);
        runs.push(run);
        return run;
      },
    });
    const schedulers = [new Scheduler([task(a)], silentLog), new Scheduler([task(b)], silentLog)];
    for (const scheduler of schedulers) scheduler.start();
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()));
    const counts = await Promise.all([
      ...runs,
      a.relativeNews.sendDue(now),
      b.relativeNews.sendDue(now),
    ]);
    expect(counts).toHaveLength(4);
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(RELATIVES);
    expect(smtp.messages).toHaveLength(RELATIVES);
    for (let i = 0; i < RELATIVES; i++) {
      const mine = smtp.messages.filter((m) => m.to.includes(`r${i}@example.org`));
      expect(mine).toHaveLength(1);
      expect(mine[0]?.text).toContain("A wedding");
      expect(mine[0]?.text).toContain("A birthday");
    }
  });
});
