import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicAppUrl } from "../config";
import { accountIdentity, createUserWithSession } from "../test/auth-helpers";
import { createTwoInstances, DATABASE_KINDS, type TwoInstances } from "../test/harness";
import { ownJournalId } from "./journals.repo";
import { QUESTION_MAIL_JOB } from "./question-mail.service";

const STORYTELLERS = 3;
const WEEK_MS = 7 * 86_400_000;

/**
 * Two app instances on one database, as behind a load balancer: both check the schedule and both
 * workers race for the mails; each storyteller still gets the week's question exactly once.
 */
describe.each(DATABASE_KINDS)(
  "the weekly question mail with two instances on one %s database",
  (kind) => {
    let instances: TwoInstances;

    beforeAll(async () => {
      instances = await createTwoInstances(kind);
    });
    afterAll(async () => {
      await instances?.cleanup();
    });

    it("mails each storyteller once per week, whichever instance checks and sends", async () => {
      const { a, b, testDb, smtp } = instances;
      const t = { database: testDb.handle, config: a.config };
      const { user } = await createUserWithSession(t, {});
      const organizer = accountIdentity(user.id);
      const journal = ownJournalId(user.id);
      const base = publicAppUrl(a.config);
      const links: string[] = [];
      for (let i = 0; i < STORYTELLERS; i++) {
        const member = await a.journals.addMember(
          organizer,
          journal,
          { name: `Teller ${i}`, role: "storyteller", email: `teller${i}-${kind}@example.org` },
          base,
        );
        links.push((await b.recordingLinks.make(organizer, journal, member.id, base)).url);
      }
      // A week from now, on its day, at midnight UTC: the hour has come.
      const later = new Date(Date.now() + WEEK_MS);
      await a.questionMail.save(
        organizer,
        journal,
        { enabled: true, weekday: later.getUTCDay(), hour: 0, timeZone: "UTC" },
        base,
      );
      await smtp.waitFor((m) => m.to.includes(`teller${STORYTELLERS - 1}-${kind}@example.org`));
      smtp.messages.length = 0; // the invitations

      for (let round = 0; round < 2; round++) {
        const queued = await Promise.all([
          a.questionMail.queueDue(later),
          b.questionMail.queueDue(later),
        ]);
        expect(queued[0] + queued[1]).toBe(round === 0 ? STORYTELLERS : 0);
        await Promise.all([a.worker.drain(), b.worker.drain()]);
      }
      // Even a job put back in the queue (a retry, a lost lease) sends nothing twice.
      await testDb.handle.db
        .updateTable("jobs")
        .set({ status: "queued", run_after: new Date().toISOString() })
        .where("kind", "=", QUESTION_MAIL_JOB)
        .execute();
      await Promise.all([a.worker.drain(), b.worker.drain()]);

      expect(smtp.messages).toHaveLength(STORYTELLERS);
      for (let i = 0; i < STORYTELLERS; i++) {
        const mine = smtp.messages.filter((m) => m.to.includes(`teller${i}-${kind}@example.org`));
        expect(mine).toHaveLength(1);
        expect(mine[0]?.text).toContain(`${links[i]}?q=`);
      }

      // The next week: once more each.
      const weekAfter = new Date(later.getTime() + WEEK_MS);
      await Promise.all([a.questionMail.queueDue(weekAfter), b.questionMail.queueDue(weekAfter)]);
      await Promise.all([a.worker.drain(), b.worker.drain()]);
      expect(smtp.messages).toHaveLength(2 * STORYTELLERS);
    });
  },
);
