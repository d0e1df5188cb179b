import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicAppUrl } from "../config";
import { JobsRepo } from "../jobs/jobs.repo";
import { ownJournalId } from "../journals/journals.repo";
import { MemoriesRepo } from "../memories/memories.repo";
import { createUserWithSession } from "../test/auth-helpers";
import { createTwoInstances, DATABASE_KINDS, type TwoInstances } from "../test/harness";
import { RELATIVE_NEWS_JOB } from "./relative-news.service";

const OWNERS = 4;
const LINKS_PER_OWNER = 2;

/**
 * Two app instances on one database, as behind a load balancer: each saves memories, and both
 * workers race for the news jobs; each relative's mail still goes out exactly once.
 */
describe.each(DATABASE_KINDS)("relatives' news with two instances on one %s database", (kind) => {
  let instances: TwoInstances;

  beforeAll(async () => {
    instances = await createTwoInstances(kind, { RELATIVE_DIGEST_MINUTES: "60" });
  });
  afterAll(async () => {
    await instances?.cleanup();
  });

  it("mails each relative once, whichever instance saved the memories and took the job", async () => {
    const { a, b, testDb, smtp } = instances;
    const t = { database: testDb.handle, config: a.config };
    const db = testDb.handle.db;
    const memories = new MemoriesRepo(db, testDb.handle.kind);
    const jobs = new JobsRepo(db, testDb.handle.kind);
    for (let o = 0; o < OWNERS; o++) {
      const { user } = await createUserWithSession(t, {});
      for (let l = 0; l < LINKS_PER_OWNER; l++) {
        const email = `r${o}-${l}@example.org`;
        await a.shareLinks.create(
          { userId: user.id, journalId: ownJournalId(user.id) },
          { label: `Relative ${l}`, email },
          publicAppUrl(a.config),
        );
      }
      // Two memories at the pipeline's last stage, saved by either instance's worker.
      for (const title of ["A wedding", "A birthday"]) {
        const memory = await memories.insert({
          userId: user.id,
          audioId: null,
          status: "processing",
          stage: "save",
          title,
        });
        await jobs.enqueue({ kind: "process-memory", targetId: memory.id });
      }
    }
    smtp.messages.length = 0; // the links' own mails
    // The instances take turns saving (two SQLite connections in one process cannot both hold a
    // transaction: the one waiting blocks the thread the other needs to commit).
    for (let more = true; more; ) {
      const byA = await a.worker.runOne();
      const byB = await b.worker.runOne();
      more = byA || byB;
    }
    const queued = await db
      .selectFrom("jobs")
      .selectAll()
      .where("kind", "=", RELATIVE_NEWS_JOB)
      .execute();
    expect(queued).toHaveLength(OWNERS);
    expect(smtp.messages).toEqual([]);

    // The hour passes; both workers race for the jobs, and race again once they are done.
    await db
      .updateTable("jobs")
      .set({ run_after: new Date().toISOString() })
      .where("kind", "=", RELATIVE_NEWS_JOB)
      .execute();
    const ran = await Promise.all([a.worker.drain(), b.worker.drain()]);
    expect(ran[0] + ran[1]).toBe(OWNERS);
    await db
      .updateTable("jobs")
      .set({ status: "queued", run_after: new Date().toISOString() })
      .where("kind", "=", RELATIVE_NEWS_JOB)
      .execute();
    await Promise.all([a.worker.drain(), b.worker.drain()]);

    expect(smtp.messages).toHaveLength(OWNERS * LINKS_PER_OWNER);
    for (let o = 0; o < OWNERS; o++) {
      for (let l = 0; l < LINKS_PER_OWNER; l++) {
        const mine = smtp.messages.filter((m) => m.to.includes(`r${o}-${l}@example.org`));
        expect(mine).toHaveLength(1);
        expect(mine[0]?.text).toContain("A wedding");
        expect(mine[0]?.text).toContain("A birthday");
      }
    }
  });
});
