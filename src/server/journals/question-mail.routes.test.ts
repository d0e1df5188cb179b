import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatMessage } from "../../shared/i18n/format";
import { QUESTION_MAIL } from "../../shared/journal-mails";
import { QUESTIONS } from "../../shared/questions";
import type { LinkStory, Member, QuestionMailSettings, RecordingPage } from "../../shared/schemas";
import { wordsIn } from "../i18n/words";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { type Method, request } from "../test/family-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { mailSubject, type ReceivedMail, type SmtpSink, startSmtpSink } from "../test/smtp-sink";
import { fixture, upload, visitorCookie } from "../test/upload-helpers";
import { ownJournalId } from "./journals.repo";

const APP_URL = "https://journal.example.org";
const WEEK_MS = 7 * 86_400_000;

describe.each(DATABASE_KINDS)("the weekly question by mail (%s)", (kind) => {
  let t: TestApp;
  let sink: SmtpSink;
  let ana: TestUser; // organizer
  let luis: TestUser; // relative
  let journal: string;
  let week = 0;

  const api = (method: Method, url: string, as?: TestUser, body?: object) =>
    request(t, method, url, as, body);
  const settingsPath = () => `/api/journals/${journal}/question-mail`;
  const tokenOf = (url: string) => /\/r\/([A-Za-z0-9_-]+)/.exec(url)?.[1] ?? "";

  /** A storyteller invited at an address, with a link; their token. */
  async function storyteller(
    name: string,
    language?: string,
  ): Promise<{ id: string; token: string; email: string }> {
    const email = `${name.toLowerCase()}-${kind}@example.org`;
    const added = await api("POST", `/api/journals/${journal}/members`, ana, {
      name,
      role: "storyteller",
      email,
      ...(language ? { language } : {}),
    });
    expect(added.statusCode).toBe(201);
    const id = added.json<Member>().id;
    const made = await api("POST", `/api/journals/${journal}/members/${id}/recording-link`, ana);
    return { id, token: tokenOf(made.json<{ url: string }>().url), email };
  }

  /** The next week's day comes: every instance's check runs, and the worker sends. */
  async function nextWeek(): Promise<ReceivedMail[]> {
    week++;
    const when = new Date(Date.now() + week * WEEK_MS);
    const saved = await api("PUT", settingsPath(), ana, {
      enabled: true,
      weekday: when.getUTCDay(),
      hour: 0,
      timeZone: "UTC",
    });
    expect(saved.statusCode).toBe(200);
    sink.messages.length = 0;
    await t.services.questionMail.queueDue(when);
    await t.services.worker.drain();
    return [...sink.messages];
  }

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({ kind, env: { SMTP_URL: sink.url, APP_URL } });
    ana = await createUserWithSession(t, { isPublic: false });
    luis = await createUserWithSession(t);
    journal = ownJournalId(ana.user.id);
    await api("PATCH", `/api/journals/${journal}`, ana, { name: "The Alvarez family" });
  });
  afterAll(async () => {
    await t.cleanup();
    await sink.close();
  });
  beforeEach(() => {
    sink.messages.length = 0;
  });

  it("organizers choose the day, hour and time zone; others may not; off by default", async () => {
    const off = await api("GET", settingsPath(), ana);
    expect(off.json<QuestionMailSettings>()).toMatchObject({ enabled: false });
    const body = { enabled: true, weekday: 3, hour: 9, timeZone: "Europe/Madrid" };
    const saved = await api("PUT", settingsPath(), ana, body);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual(body);
    expect((await api("GET", settingsPath(), ana)).json()).toEqual(body);
    expect((await api("PUT", settingsPath(), ana, { ...body, hour: 24 })).statusCode).toBe(400);
    expect(
      (await api("PUT", settingsPath(), ana, { ...body, timeZone: "+01:00" })).statusCode,
    ).toBe(400);
    const outsider = await createUserWithSession(t);
    expect((await api("GET", settingsPath(), outsider)).statusCode).toBe(404);
    expect((await api("GET", settingsPath())).statusCode).toBe(401);
    expect((await api("PUT", settingsPath(), luis, body)).statusCode).toBe(404);
    const turnedOff = await api("PUT", settingsPath(), ana, { ...body, enabled: false });
    expect(turnedOff.json()).toMatchObject({ enabled: false });
  });

  it("the mail's button opens the link with the question; the memory recorded there answers it", async () => {
    const abuela = await storyteller("Abuela");
    const mails = (await nextWeek()).filter((m) => m.to.includes(abuela.email));
    expect(mails).toHaveLength(1);
    const mail = mails[0] as ReceivedMail;
    // Headers unfolded (a long one continues on the next line).
    const headers = mail.raw.replace(/\r?\n[ \t]+/g, " ");
    expect(headers).toMatch(/^Subject: A question for you from The Alvarez family\r?$/m);
    expect(headers).toMatch(
      new RegExp(`^List-Unsubscribe: <${APP_URL}/api/record/${abuela.token}/unsubscribe>\r?$`, "m"),
    );
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    const button = /href="([^"]+)"[^>]*>Record your answer<\/a>/.exec(mail.html ?? "")?.[1] ?? "";
    const record = button.replaceAll("&amp;", "&");
    expect(record.startsWith(`${APP_URL}/r/${abuela.token}?q=`)).toBe(true);
    expect(mail.text).toContain(record);
    const question = new URL(record).searchParams.get("q") ?? "";
    expect(QUESTIONS).toContain(question);
    expect(mail.text).toContain(question);

    // The page asks that question, even another week.
    const url = new URL(record);
    const page = await api("GET", `/api/record/${abuela.token}?q=${encodeURIComponent(question)}`);
    expect(page.json<RecordingPage>()).toMatchObject({
      question,
      askedBy: null,
      questionMail: "on",
    });
    expect(url.pathname).toBe(`/r/${abuela.token}`);
    // A question the product does not ask is not shown.
    const made = await api(
      "GET",
      `/api/record/${abuela.token}?q=${encodeURIComponent("Anything else?")}`,
    );
    expect(made.json<RecordingPage>().question).not.toBe("Anything else?");

    // Recorded there: the memory answers it.
    const uploaded = await upload(t, await fixture("tone.mp3"));
    const story = await t.app.inject({
      method: "POST",
      url: `/api/record/${abuela.token}/memories`,
      headers: { cookie: visitorCookie(uploaded) },
      payload: { audioUrl: uploaded.json().url, question },
    });
    expect(story.statusCode).toBe(201);
    expect(story.json<LinkStory>().question).toBe(question);
    const row = await t.database.db
      .selectFrom("memories")
      .select(["question", "storyteller_id"])
      .where("id", "=", story.json<LinkStory>().id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ question, storyteller_id: abuela.id });
  });

  it("a storyteller reads the mail and the question in their language, else the journal's; a question mailed in Spanish is kept, as the library's own, when answered", async () => {
    const abuelo = await storyteller("Bisabuelo", "es");
    const opa = await storyteller("Opa");
    const setJournalLanguage = (language: string) =>
      t.database.db.updateTable("journals").set({ language }).where("id", "=", journal).execute();
    await setJournalLanguage("de");
    let mails: ReceivedMail[];
    try {
      mails = await nextWeek();
    } finally {
      await setJournalLanguage("en");
    }
    const questionIn = (mail: ReceivedMail | undefined) => {
      const button = /href="([^"]+)"[^>]*>[^<]+<\/a><\/p>/.exec(mail?.html ?? "")?.[1] ?? "";
      return new URL(button.replaceAll("&amp;", "&")).searchParams.get("q") ?? "";
    };
    const es = wordsIn("es");
    const spanish = mails.find((m) => m.to.includes(abuelo.email));
    const question = questionIn(spanish);
    // A question of the built-in list, in Spanish, as the link page asks it.
    const index = es.QUESTIONS.indexOf(question);
    expect(index).toBeGreaterThanOrEqual(0);
    expect(question).not.toBe(QUESTIONS[index]);
    expect(spanish?.text.split(/\r?\n/)).toContain(`  ${question}`);
    expect(mailSubject(spanish as ReceivedMail)).toBe(
      formatMessage(es.QUESTION_MAIL.subject, { journal: "The Alvarez family" }, "es"),
    );
    expect(spanish?.html).toMatch(/^<!doctype html><html lang="es" dir="ltr">/);
    expect(spanish?.html).toContain(`>${es.QUESTION_MAIL.button}</a>`);
    // Without a language of their own: the journal's.
    const german = mails.find((m) => m.to.includes(opa.email));
    expect(wordsIn("de").QUESTIONS).toContain(questionIn(german));
    expect(QUESTIONS).not.toContain(questionIn(german));
    expect(german?.html).toMatch(/^<!doctype html><html lang="de" dir="ltr">/);

    const page = await api("GET", `/api/record/${abuelo.token}?q=${encodeURIComponent(question)}`);
    expect(page.json<RecordingPage>()).toMatchObject({ question, askedBy: null });
    const uploaded = await upload(t, await fixture("tone.mp3"));
    const story = await t.app.inject({
      method: "POST",
      url: `/api/record/${abuelo.token}/memories`,
      headers: { cookie: visitorCookie(uploaded) },
      payload: { audioUrl: uploaded.json().url, question },
    });
    expect(story.statusCode).toBe(201);
    // Kept as the library's own question, which each reader reads in their language.
    expect(story.json<LinkStory>().question).toBe(
      QUESTIONS[wordsIn("es").QUESTIONS.indexOf(question)],
    );
  });

  it("the family's oldest waiting question comes first, with who asked", async () => {
    const tio = await storyteller("Tio");
    await api("POST", `/api/journals/${journal}/members`, ana, {
      name: "Luis",
      role: "relative",
      email: `luis-${kind}@example.org`,
    });
    const text = "What games did you play as a boy?";
    expect(
      (await api("POST", `/api/journals/${journal}/members/${tio.id}/questions`, ana, { text }))
        .statusCode,
    ).toBe(201);
    const mail = (await nextWeek()).find((m) => m.to.includes(tio.email));
    expect(mail?.text).toContain(text);
    expect(mail?.text).toContain(`${APP_URL}/r/${tio.token}?q=${encodeURIComponent(text)}`);
    const page = await api("GET", `/api/record/${tio.token}?q=${encodeURIComponent(text)}`);
    expect(page.json<RecordingPage>()).toMatchObject({
      question: text,
      askedBy: expect.any(String),
    });
  });

  it("one click stops the mails (RFC 8058); the page asks for them again", async () => {
    const abuelo = await storyteller("Abuelo");
    expect((await nextWeek()).filter((m) => m.to.includes(abuelo.email))).toHaveLength(1);
    const click = await t.app.inject({
      method: "POST",
      url: `/api/record/${abuelo.token}/unsubscribe`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(click.statusCode).toBe(200);
    expect((await nextWeek()).filter((m) => m.to.includes(abuelo.email))).toEqual([]);
    const page = await api("GET", `/api/record/${abuelo.token}`);
    expect(page.json<RecordingPage>().questionMail).toBe("stopped");
    const again = await api("PUT", `/api/record/${abuelo.token}/question-mail`, undefined, {
      stopped: false,
    });
    expect(again.statusCode).toBe(200);
    expect((await nextWeek()).filter((m) => m.to.includes(abuelo.email))).toHaveLength(1);
    // A dead link stops nothing.
    expect((await api("POST", `/api/record/not-a-link/unsubscribe`)).statusCode).toBe(404);
  });

  it("no mail once the storyteller is removed, made a relative, or their link is stopped", async () => {
    const removed = await storyteller("Removed");
    const relative = await storyteller("Relative");
    const stopped = await storyteller("Stopped");
    const renewed = await storyteller("Renewed");
    expect(
      (await api("DELETE", `/api/journals/${journal}/members/${removed.id}`, ana)).statusCode,
    ).toBe(204);
    expect(
      (
        await api("PATCH", `/api/journals/${journal}/members/${relative.id}`, ana, {
          role: "relative",
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await api("DELETE", `/api/journals/${journal}/members/${stopped.id}/recording-link`, ana))
        .statusCode,
    ).toBe(204);
    const fresh = await api(
      "POST",
      `/api/journals/${journal}/members/${renewed.id}/recording-link`,
      ana,
    );
    const mails = await nextWeek();
    for (const gone of [removed, relative, stopped]) {
      expect(mails.filter((m) => m.to.includes(gone.email))).toEqual([]);
    }
    // A renewed link: the mail carries the new one, and the old one is dead.
    const renewedMail = mails.find((m) => m.to.includes(renewed.email));
    expect(renewedMail?.text).toContain(`${fresh.json<{ url: string }>().url}?q=`);
    expect(renewedMail?.text).not.toContain(renewed.token);
    expect((await api("GET", `/api/record/${renewed.token}`)).statusCode).toBe(404);
  });

  it("a storyteller without an address, or whose link was made before links were sealed, gets none", async () => {
    const added = await api("POST", `/api/journals/${journal}/members`, ana, {
      name: "Quiet",
      role: "storyteller",
    });
    const quiet = added.json<Member>().id;
    await api("POST", `/api/journals/${journal}/members/${quiet}/recording-link`, ana);
    const old = await storyteller("Old");
    await t.database.db
      .updateTable("journal_members")
      .set({ recording_token_sealed: null })
      .where("id", "=", old.id)
      .execute();
    const before = await t.database.db.selectFrom("jobs").select("target_id").execute();
    const mails = await nextWeek();
    expect(mails.filter((m) => m.to.includes(old.email))).toEqual([]);
    const jobs = await t.database.db.selectFrom("jobs").select("target_id").execute();
    const added_ = jobs.filter((j) => !before.some((b) => b.target_id === j.target_id));
    expect(added_.some((j) => j.target_id.includes(quiet) || j.target_id.includes(old.id))).toBe(
      false,
    );
    expect(QUESTION_MAIL.button).toBe("Record your answer");
  });
});
