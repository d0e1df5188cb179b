import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices } from "../compose";
import { type DatabaseHandle, openDatabase } from "../db/connection";
import { LocalAudioStorage } from "../storage/local-storage";
import { createUserWithSession } from "../test/auth-helpers";
import { createTwoInstances, DATABASE_KINDS, silentLog, type TwoInstances } from "../test/harness";

const USERS = 12;

/**
 * Two app instances (each its own connection pool and services) on one database, as behind a load
 * balancer: every reminder occurrence is mailed exactly once, however their checks interleave,
 * and an instance started afterwards (a restart) repeats none.
 */
describe.each(DATABASE_KINDS)("reminders with two instances on one %s database", (kind) => {
  let instances: TwoInstances;
  let third: DatabaseHandle | undefined;

  beforeAll(async () => {
    instances = await createTwoInstances(kind);
  });
  afterAll(async () => {
    await third?.close();
    await instances?.cleanup();
  });

  it("mails each occurrence exactly once, and a restarted instance repeats none", async () => {
    const { a, b, testDb, smtp } = instances;
    const t = { database: testDb.handle, config: a.config };
    const emails: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const email = `u${i}-${kind}@example.org`;
      emails.push(email);
      const { user } = await createUserWithSession(t, { email });
      await a.reminders.save(
        user.id,
        {
          weekly: { enabled: true, weekday: 1, hour: 9, timeZone: "Europe/Berlin" },
          specialDays: [{ label: "Grandpa's birthday", month: 3, day: 2 }],
        },
        new Date("2026-01-01T00:00:00Z"),
      );
    }
    // Monday 2 March 2026, 10:00 in Berlin: a weekly and a special-day reminder for everyone.
    const now = new Date("2026-03-02T09:00:00Z");
    const counts = await Promise.all([
      a.reminders.sendDue(now),
      b.reminders.sendDue(now),
      a.reminders.sendDue(now),
      b.reminders.sendDue(now),
    ]);
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(USERS * 2);
    expect(smtp.messages).toHaveLength(USERS * 2);
    for (const email of emails) {
      const mine = smtp.messages.filter((m) => m.to.includes(email));
      // One weekly, one for the special day (told apart by the day's line, not by any question's words).
      expect(mine.map((m) => m.text.includes("Today is Grandpa's birthday")).sort()).toEqual([
        false,
        true,
      ]);
    }

    // A restart: a new instance on the same database, later the same day, sends nothing again.
    third = await openDatabase(testDb.target);
    const restarted = createServices({
      config: a.config,
      database: third,
      storage: new LocalAudioStorage(a.config.audioDir),
      log: silentLog,
    });
    expect(await restarted.reminders.sendDue(new Date("2026-03-02T15:00:00Z"))).toBe(0);
    await restarted.close();
    expect(smtp.messages).toHaveLength(USERS * 2);
  });
});
