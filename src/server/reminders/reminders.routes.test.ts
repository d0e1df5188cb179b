import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { formatMessage } from "../../shared/i18n/format";
import { ERROR_MESSAGES } from "../../shared/messages";
import { QUESTIONS } from "../../shared/questions";
import type {
  CurrentQuestion,
  ReminderSettings,
  ReminderSettingsBody,
} from "../../shared/reminders";
import type { Memory } from "../../shared/schemas";
import { wordsIn } from "../i18n/words";
import { speechMp3 } from "../test/audio-fixtures";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { downloadBackup, restoreBackup } from "../test/backup-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { type OpenAiStub, startOpenAiStub, stubProviders } from "../test/openai-stub";
import {
  mailHeader,
  mailSubject,
  type ReceivedMail,
  type SmtpSink,
  startSmtpSink,
} from "../test/smtp-sink";
import { upload } from "../test/upload-helpers";
import { UsersRepo } from "../users/users.repo";

const APP_URL = "https://journal.example.org";

function body(
  weekly: Partial<ReminderSettingsBody["weekly"]> = {},
  specialDays: ReminderSettingsBody["specialDays"] = [],
): ReminderSettingsBody {
  return {
    weekly: { enabled: true, weekday: 1, hour: 9, timeZone: "Europe/Berlin", ...weekly },
    specialDays,
  };
}

/** Mail text with quoted-printable soft breaks and encoded characters already decoded by the sink. */
const linkIn = (text: string, pattern: RegExp) => text.match(pattern)?.[0];

let smtp: SmtpSink;
let stub: OpenAiStub;
beforeAll(async () => {
  smtp = await startSmtpSink();
  stub = await startOpenAiStub();
});
afterAll(async () => {
  await smtp.close();
  await stub.close();
});

describe.each(DATABASE_KINDS)("reminders API on %s", (kind) => {
  let t: TestApp;
  let people = 0;

  beforeAll(async () => {
    t = await createTestApp({
      kind,
      env: { SMTP_URL: smtp.url, APP_URL, RATE_LIMIT_AUTH_PER_MINUTE: "1000" },
      deps: { ai: stubProviders(stub) },
    });
  });
  afterAll(async () => {
    await t?.cleanup();
  });
  beforeEach(() => {
    smtp.messages.length = 0;
  });

  /**
   * A user of this test alone, deleted (with all their rows) when it ends: the sender mails
   * everyone due, so it must see only the running test's people.
   */
  async function person(email: string | null = `person-${++people}@example.org`) {
    const user = await createUserWithSession(t, { email });
    onTestFinished(async () => {
      await new UsersRepo(t.database.db).delete(user.user.id, t.database.db);
    });
    return user;
  }

  const get = (user: TestUser) =>
    t.app.inject({ method: "GET", url: "/api/reminders", headers: { cookie: user.cookie } });
  const put = (user: TestUser, payload: unknown) =>
    t.app.inject({
      method: "PUT",
      url: "/api/reminders",
      headers: { cookie: user.cookie },
      payload: payload as object,
    });

  it("needs a login for settings and questions", async () => {
    for (const [method, url] of [
      ["GET", "/api/reminders"],
      ["PUT", "/api/reminders"],
      ["GET", "/api/question"],
      ["POST", "/api/question/next"],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        ...(method === "GET" ? {} : { payload: method === "PUT" ? body() : { position: 0 } }),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("answers defaults, then what was saved", async () => {
    const me = await person();
    const first = (await get(me)).json<ReminderSettings>();
    expect(first).toEqual({
      weekly: { enabled: false, weekday: 0, hour: 18, timeZone: "UTC" },
      specialDays: [],
      hasEmail: true,
      saved: false,
      unsubscribedAt: null,
    });
    const wanted = body({ weekday: 0, hour: 23, timeZone: "America/New_York" }, [
      { label: "Mia's birthday", month: 3, day: 14 },
      { label: "Leap day", month: 2, day: 29 },
    ]);
    const saved = await put(me, wanted);
    expect(saved.statusCode).toBe(200);
    expect((await get(me)).json<ReminderSettings>()).toEqual({
      ...wanted,
      hasEmail: true,
      saved: true,
      unsubscribedAt: null,
    });
  });

  it.each([
    ["weekly missing", { specialDays: [] }, "body.weekly"],
    ["enabled not a boolean", body({ enabled: "yes" as never }), "body.weekly.enabled"],
    ["weekday below 0", body({ weekday: -1 }), "body.weekly.weekday"],
    ["weekday above 6", body({ weekday: 7 }), "body.weekly.weekday"],
    ["weekday not whole", body({ weekday: 1.5 }), "body.weekly.weekday"],
    ["weekday as text", body({ weekday: "1" as never }), "body.weekly.weekday"],
    ["hour below 0", body({ hour: -1 }), "body.weekly.hour"],
    ["hour 24", body({ hour: 24 }), "body.weekly.hour"],
    ["hour not whole", body({ hour: 8.5 }), "body.weekly.hour"],
    ["unknown time zone", body({ timeZone: "Mars/Olympus_Mons" }), "body.weekly.timeZone"],
    ["offset instead of a zone", body({ timeZone: "+01:00" }), "body.weekly.timeZone"],
    ["empty time zone", body({ timeZone: "" }), "body.weekly.timeZone"],
    ["special days not a list", { ...body(), specialDays: "none" }, "body.specialDays"],
    ["empty label", body({}, [{ label: "  ", month: 1, day: 1 }]), "body.specialDays.0.label"],
    [
      "label too long",
      body({}, [{ label: "x".repeat(61), month: 1, day: 1 }]),
      "body.specialDays.0.label",
    ],
    ["month 0", body({}, [{ label: "a", month: 0, day: 1 }]), "body.specialDays.0.month"],
    ["month 13", body({}, [{ label: "a", month: 13, day: 1 }]), "body.specialDays.0.month"],
    ["day 0", body({}, [{ label: "a", month: 1, day: 0 }]), "body.specialDays.0.day"],
    ["30 February", body({}, [{ label: "a", month: 2, day: 30 }]), "body.specialDays.0.day"],
    ["31 April", body({}, [{ label: "a", month: 4, day: 31 }]), "body.specialDays.0.day"],
    [
      "too many special days",
      body(
        {},
        Array.from({ length: 51 }, (_, i) => ({ label: `day ${i}`, month: 1, day: 1 })),
      ),
      "body.specialDays",
    ],
    [
      "the same label twice",
      body({}, [
        { label: "Mia's birthday", month: 3, day: 14 },
        { label: "mia's birthday", month: 4, day: 1 },
      ]),
      "body.specialDays.1.label",
    ],
  ])("refuses %s with 400 naming the field, and changes nothing", async (name, payload, field) => {
    const me = await person();
    expect((await put(me, body({ hour: 7 }))).statusCode).toBe(200);
    const before = (await get(me)).json<ReminderSettings>();
    const res = await put(me, payload);
    expect(res.statusCode).toBe(400);
    // A name given twice is the service's refusal; every other is the schema's.
    const code = name === "the same label twice" ? "reminders.special_day_twice" : "invalid_value";
    expect(res.json()).toMatchObject({ code, field });
    expect((await get(me)).json<ReminderSettings>()).toEqual(before);
  });

  describe("the schedule", () => {
    /** Saves settings as if they had been saved long before the moments tested. */
    async function settle(settings: ReminderSettingsBody, user: TestUser) {
      await t.services.reminders.save(user.user.id, settings, new Date("2026-01-01T00:00:00Z"));
    }
    const send = (iso: string) => t.services.reminders.sendDue(new Date(iso));

    it("sends at the hour in the user's own time zone, once", async () => {
      const me = await person();
      const tokyo = await person("tokyo@example.org");
      await settle(body({ weekday: 1, hour: 9, timeZone: "Asia/Tokyo" }), tokyo);
      await settle(body({ weekday: 1, hour: 9, timeZone: "Europe/London" }), me);
      // Monday 2026-03-02 08:59 in Tokyo: nobody yet.
      expect(await send("2026-03-01T23:59:00Z")).toBe(0);
      // 09:00 in Tokyo is midnight in London (Monday 00:00 there, 9 hours early).
      expect(await send("2026-03-02T00:00:00Z")).toBe(1);
      expect(smtp.messages.map((m) => m.to)).toEqual([["tokyo@example.org"]]);
      expect(await send("2026-03-02T00:30:00Z")).toBe(0);
      // 09:00 in London.
      expect(await send("2026-03-02T09:00:00Z")).toBe(1);
      expect(smtp.messages.at(-1)?.to).toEqual([me.user.email]);
      // The next Monday again, the day between not.
      expect(await send("2026-03-03T09:00:00Z")).toBe(0);
      expect(await send("2026-03-09T00:00:00Z")).toBe(1);
      expect(await send("2026-03-09T09:00:00Z")).toBe(1);
    });

    it("follows daylight-saving changes (a skipped hour comes at the next, a repeated hour once)", async () => {
      const me = await person();
      // New York springs forward on Sunday 2026-03-08: 02:00 does not exist that day.
      await settle(body({ weekday: 0, hour: 2, timeZone: "America/New_York" }), me);
      expect(await send("2026-03-08T06:59:00Z")).toBe(0); // 01:59 EST
      expect(await send("2026-03-08T07:00:00Z")).toBe(1); // 03:00 EDT
      // And falls back on Sunday 2026-11-01: 01:00 happens twice.
      await settle(body({ weekday: 0, hour: 1, timeZone: "America/New_York" }), me);
      expect(await send("2026-11-01T04:59:00Z")).toBe(0); // 00:59 EDT
      expect(await send("2026-11-01T05:00:00Z")).toBe(1); // 01:00 EDT
      expect(await send("2026-11-01T06:00:00Z")).toBe(0); // 01:00 EST, the same hour again
      // Berlin's summer time starts on 2026-03-29: 09:00 there is 07:00 UTC, not 08:00.
      await settle(body({ weekday: 0, hour: 9, timeZone: "Europe/Berlin" }), me);
      expect(await send("2026-03-22T08:00:00Z")).toBe(1); // 09:00 CET the Sunday before
      expect(await send("2026-03-29T06:59:00Z")).toBe(0);
      expect(await send("2026-03-29T07:00:00Z")).toBe(1); // 09:00 CEST
    });

    it("catches up an hour missed while down if it is still that day, not after", async () => {
      const me = await person();
      await settle(body({ weekday: 3, hour: 9, timeZone: "Europe/Paris" }), me);
      // Wednesday 2026-05-06: no server ran at 09:00; it comes back at 22:30 Paris time.
      expect(await send("2026-05-06T20:30:00Z")).toBe(1);
      // The next week it is down all Wednesday and comes back on Thursday: that one is gone.
      expect(await send("2026-05-14T06:00:00Z")).toBe(0);
    });

    it("does not send for an hour that was over when the settings were saved", async () => {
      const me = await person();
      await t.services.reminders.save(
        me.user.id,
        body({ weekday: 3, hour: 9, timeZone: "UTC" }),
        new Date("2026-05-06T15:00:00Z"),
      );
      expect(await send("2026-05-06T15:01:00Z")).toBe(0);
      expect(await send("2026-05-13T09:00:00Z")).toBe(1);
      // Saved while the hour is still on: that hour's reminder comes.
      await t.services.reminders.save(
        me.user.id,
        body({ weekday: 3, hour: 9, timeZone: "UTC" }),
        new Date("2026-05-20T09:30:00Z"),
      );
      expect(await send("2026-05-20T09:31:00Z")).toBe(1);
    });

    it("sends a special day's question, in the mail with a link to the recorder", async () => {
      const me = await person();
      await settle(
        body({ enabled: false, hour: 8, timeZone: "Australia/Sydney" }, [
          { label: "Mia's birthday", month: 3, day: 14 },
          { label: "Leap day", month: 2, day: 29 },
        ]),
        me,
      );
      // 08:00 on 14 March in Sydney is 21:00 UTC on the 13th.
      expect(await send("2026-03-13T20:59:00Z")).toBe(0);
      expect(await send("2026-03-13T21:00:00Z")).toBe(1);
      const mail = smtp.messages.at(-1) as ReceivedMail;
      expect(mail.text).toContain("Tell Mia about the day they were born.");
      const link = linkIn(mail.text, /https:\/\/journal\.example\.org\/\?question=\S+/);
      expect(link && new URL(link).searchParams.get("question")).toBe(
        "Tell Mia about the day they were born.",
      );
      // 29 February is kept on the 28th in a year without one.
      expect(await send("2026-02-27T21:00:00Z")).toBe(1);
      expect(smtp.messages.at(-1)?.text).toContain("Leap day");
    });

    it("sends the weekly mail with the current question, and skips users without email", async () => {
      const me = await person();
      const silent = await person(null);
      await settle(body({ weekday: 1, hour: 9, timeZone: "UTC" }), silent);
      await settle(body({ weekday: 1, hour: 9, timeZone: "UTC" }), me);
      const current = (
        await t.app.inject({ method: "GET", url: "/api/question", headers: { cookie: me.cookie } })
      ).json<CurrentQuestion>();
      expect(await send("2026-03-02T09:00:00Z")).toBe(1);
      const mail = smtp.messages.at(-1) as ReceivedMail;
      expect(mail.to).toEqual([me.user.email]);
      expect(mail.text).toContain(current.question);
      const link = linkIn(mail.text, /https:\/\/journal\.example\.org\/\?question=\S+/);
      expect(link && new URL(link).searchParams.get("question")).toBe(current.question);
      expect(mailHeader(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
      expect(mailHeader(mail, "List-Unsubscribe")).toMatch(
        /^<https:\/\/journal\.example\.org\/api\/reminders\/unsubscribe\?u=[^&]+&t=[^>]+>$/,
      );
    });

    it("writes the mail and its question in the account's language", async () => {
      const me = await person();
      await t.database.db
        .updateTable("users")
        .set({ language: "es" })
        .where("id", "=", me.user.id)
        .execute();
      await settle(
        body({ weekday: 1, hour: 9, timeZone: "UTC" }, [
          { label: "Mia's birthday", month: 3, day: 3 },
        ]),
        me,
      );
      const es = wordsIn("es");
      const current = (
        await t.app.inject({ method: "GET", url: "/api/question", headers: { cookie: me.cookie } })
      ).json<CurrentQuestion>();
      // The same question of the built-in list, in Spanish.
      const question = es.QUESTIONS[QUESTIONS.indexOf(current.question)] as string;
      expect(question).not.toBe(current.question);
      expect(await send("2026-03-02T09:00:00Z")).toBe(1);
      const weekly = smtp.messages.at(-1) as ReceivedMail;
      expect(mailSubject(weekly)).toBe(es.REMINDER_MAIL.subjectWeekly);
      expect(weekly.text.split(/\r?\n/)).toContain(`  ${question}`);
      expect(weekly.text).toContain(es.REMINDER_MAIL.introWeekly);
      const link = linkIn(weekly.text, /https:\/\/journal\.example\.org\/\?question=\S+/);
      expect(link && new URL(link).searchParams.get("question")).toBe(question);

      expect(await send("2026-03-03T09:00:00Z")).toBe(1);
      const special = smtp.messages.at(-1) as ReceivedMail;
      const birthday = formatMessage(es.SPECIAL_DAY_QUESTIONS.birthday, { name: "Mia" }, "es");
      expect(birthday).not.toBe("Tell Mia about the day they were born.");
      expect(special.text.split(/\r?\n/)).toContain(`  ${birthday}`);
      expect(mailSubject(special)).toBe(
        formatMessage(es.REMINDER_MAIL.subjectSpecialDay, { day: "Mia's birthday" }, "es"),
      );
    });

    it("unsubscribes with one click and no login; a wrong signature changes nothing", async () => {
      const me = await person();
      const other = await person("other@example.org");
      await settle(body({ weekday: 1, hour: 9, timeZone: "UTC" }), other);
      await settle(body({ weekday: 1, hour: 9, timeZone: "UTC" }), me);
      expect(await send("2026-03-02T09:00:00Z")).toBe(2);
      const mine = smtp.messages.find((m) => m.to.includes(me.user.email as string));
      const oneClick = mailHeader(mine as ReceivedMail, "List-Unsubscribe")?.slice(1, -1) as string;
      const url = new URL(oneClick);
      const path = `${url.pathname}${url.search}`;

      // Someone else's signature, a changed one, none at all.
      const theirs = new URL(
        (await t.services.reminders.unsubscribeLinks(other.user.id)).oneClick,
      ).searchParams.get("t");
      for (const bad of [
        `${url.pathname}?u=${me.user.id}&t=${theirs}`,
        `${url.pathname}?u=${me.user.id}&t=${url.searchParams.get("t")?.slice(1)}x`,
        `${url.pathname}?u=${me.user.id}`,
      ]) {
        const res = await t.app.inject({ method: "POST", url: bad });
        expect(res.statusCode, bad).toBe(400);
      }
      expect((await get(me)).json<ReminderSettings>().unsubscribedAt).toBeNull();

      // RFC 8058: the mail provider POSTs the form body, with no cookie.
      const res = await t.app.inject({
        method: "POST",
        url: path,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "List-Unsubscribe=One-Click",
      });
      expect(res.statusCode).toBe(200);
      expect((await get(me)).json<ReminderSettings>().unsubscribedAt).not.toBeNull();
      expect(await send("2026-03-09T09:00:00Z")).toBe(1); // only the other user
      expect(smtp.messages.at(-1)?.to).toEqual(["other@example.org"]);
      // The page's button (JSON-less POST) works too, and again.
      expect((await t.app.inject({ method: "POST", url: path })).statusCode).toBe(200);
      // Saving the settings turns reminders back on.
      await settle(body({ weekday: 1, hour: 9, timeZone: "UTC" }), me);
      expect((await get(me)).json<ReminderSettings>().unsubscribedAt).toBeNull();
      expect(await send("2026-03-16T09:00:00Z")).toBe(2);
      // Choosing reminders again after a link was made kills it: an old mail cannot undo that.
      await t.services.reminders.save(me.user.id, body({ weekday: 1, hour: 9, timeZone: "UTC" }));
      const dead = await t.app.inject({ method: "POST", url: path });
      expect(dead.statusCode).toBe(400);
      expect(dead.json()).toMatchObject({
        code: "reminders.unsubscribe_invalid",
        message: ERROR_MESSAGES["reminders.unsubscribe_invalid"],
      });
      expect((await get(me)).json<ReminderSettings>().unsubscribedAt).toBeNull();
      // A link expires after 90 days.
      const fresh = new URL((await t.services.reminders.unsubscribeLinks(me.user.id)).oneClick);
      const token = fresh.searchParams.get("t") as string;
      const later = new Date(Date.now() + 91 * 86_400_000);
      expect(await t.services.reminders.unsubscribe(me.user.id, token, later)).toBe(false);
    });

    it("a claim whose sender died is taken again; a sent one never is", async () => {
      const me = await person();
      await settle(body({ weekday: 1, hour: 9, timeZone: "UTC" }), me);
      const repo = (
        t.services.reminders as unknown as { repo: import("./reminders.repo").RemindersRepo }
      ).repo;
      const key = { userId: me.user.id, kind: "weekly", date: "2026-03-02" };
      // An instance claimed it and crashed before mailing.
      expect(
        await repo.claim(key, new Date("2026-03-02T09:00:00Z"), new Date("2026-03-02T09:05:00Z")),
      ).toBe(true);
      expect(await send("2026-03-02T09:01:00Z")).toBe(0); // still its claim
      expect(await send("2026-03-02T09:06:00Z")).toBe(1); // its lock ran out
      expect(await send("2026-03-02T09:20:00Z")).toBe(0);
      const rows = await repo.occurrencesOf(me.user.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.status).toBe("sent");
      // Housekeeping removes occurrences long past their day, and only those.
      expect(await t.services.reminders.sweepOccurrences(new Date("2026-03-02T08:00:00Z"))).toBe(0);
      expect(await t.services.reminders.sweepOccurrences(new Date("2026-04-02T00:00:00Z"))).toBe(1);
      expect(await repo.occurrencesOf(me.user.id)).toHaveLength(0);
    });
  });

  describe("questions", () => {
    const current = async (me: TestUser) =>
      (
        await t.app.inject({ method: "GET", url: "/api/question", headers: { cookie: me.cookie } })
      ).json<CurrentQuestion>();
    const next = (me: TestUser, position: number) =>
      t.app.inject({
        method: "POST",
        url: "/api/question/next",
        headers: { cookie: me.cookie },
        payload: { position },
      });

    it("rotates through every built-in question before any comes back; a stale skip skips nothing", async () => {
      const me = await person();
      const first = await current(me);
      expect(first.position).toBe(0);
      expect(QUESTIONS).toContain(first.question);
      expect((await current(me)).question).toBe(first.question);
      const seen = [first.question];
      for (let i = 0; i < QUESTIONS.length - 1; i++) {
        const res = await next(me, i);
        expect(res.statusCode).toBe(200);
        seen.push(res.json<CurrentQuestion>().question);
      }
      expect(new Set(seen).size).toBe(QUESTIONS.length);
      // A second click with the same position (a double click) does not skip another.
      const again = (await next(me, QUESTIONS.length - 2)).json<CurrentQuestion>();
      expect(again.position).toBe(QUESTIONS.length - 1);
      // The next round starts, without repeating the question just shown.
      const round2 = (await next(me, QUESTIONS.length - 1)).json<CurrentQuestion>();
      expect(round2.position).toBe(QUESTIONS.length);
      expect(round2.question).not.toBe(seen.at(-1));
      expect((await next(me, -1)).statusCode).toBe(400);
    });

    it("keeps the question on a memory, gives it to the AI, and in the backup", async () => {
      const me = await person();
      const question = "What made you laugh together this week?";
      const stored = await upload(t, await speechMp3("We laughed at the cat."), {
        cookie: me.cookie,
      });
      expect(stored.statusCode).toBe(201);
      const made = await t.app.inject({
        method: "POST",
        url: "/api/memories/process",
        headers: { cookie: me.cookie },
        payload: { audioUrl: stored.json<{ url: string }>().url, question },
      });
      expect(made.statusCode).toBe(201);
      const id = made.json<Memory>().id;
      stub.requests.length = 0;
      await t.app.worker.drain();
      const summaryCall = stub.requests.find(
        (r) => r.path.endsWith("/chat/completions") && !r.json?.response_format,
      );
      const messages = summaryCall?.json?.messages as { role: string; content: string }[];
      expect(messages.find((m) => m.role === "user")?.content).toContain(
        `The question this memory answers: ${question}`,
      );
      const memory = (
        await t.app.inject({
          method: "GET",
          url: `/api/memories/${id}`,
          headers: { cookie: me.cookie },
        })
      ).json<Memory>();
      expect(memory.question).toBe(question);
      expect(memory.status).toBe("saved");

      const backup = await downloadBackup(t, me.cookie);
      const json = JSON.parse(backup.files.get("memories.json")?.toString() ?? "{}") as {
        memories: { id: string; question: string | null }[];
      };
      expect(json.memories.find((m) => m.id === id)?.question).toBe(question);

      // Restore puts it back, in another account.
      const heir = await person(null);
      const restored = await restoreBackup(t, heir.cookie, backup.zip);
      expect(restored.statusCode).toBe(200);
      const list = await t.app.inject({
        method: "GET",
        url: "/api/memories",
        headers: { cookie: heir.cookie },
      });
      expect(list.json<{ items: Memory[] }>().items.map((m) => m.question)).toEqual([question]);

      // Too long a question is refused and makes nothing.
      const second = await upload(t, await speechMp3("Again."), { cookie: me.cookie });
      const refused = await t.app.inject({
        method: "POST",
        url: "/api/memories/process",
        headers: { cookie: me.cookie },
        payload: { audioUrl: second.json<{ url: string }>().url, question: "x".repeat(301) },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ field: string }>().field).toMatch(/^body\.question/);
    });
  });
});
