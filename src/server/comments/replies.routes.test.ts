import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMessage } from "../../shared/i18n/format";
import { FAMILY_QUESTION_NEWS, REPLIES_MAIL } from "../../shared/journal-mails";
import { MESSAGES } from "../../shared/messages";
import type {
  FamilyQuestion,
  LinkReply,
  LinkStory,
  Member,
  NewReplies,
  RecordingPage,
} from "../../shared/schemas";
import { wordsIn } from "../i18n/words";
import { ownJournalId } from "../journals/journals.repo";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { joinJournal, type Method, makeRecordingLink, request } from "../test/family-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { testJpeg } from "../test/image-fixtures";
import { mailHeader, mailSubject, type SmtpSink, startSmtpSink } from "../test/smtp-sink";
import { fixture, multipart, upload, visitorCookie } from "../test/upload-helpers";

const APP_URL = "https://journal.example.org";

describe.each(DATABASE_KINDS)("replies reach the storyteller (%s)", (kind) => {
  let t: TestApp;
  let sink: SmtpSink;
  let ana: TestUser; // organizer
  let rosa: TestUser; // storyteller with an account
  let luis: TestUser; // relative
  let journal: string;
  let mp3: Buffer;
  const ids: Record<string, string> = {};

  const api = (method: Method, url: string, as?: TestUser | string, body?: object) =>
    request(t, method, url, as, body);

  const invite = (who: TestUser, name: string, role: Member["role"]) =>
    joinJournal(t, sink, {
      journal,
      organizer: ana,
      who,
      name,
      role,
      email: `${name.toLowerCase()}-${kind}@example.org`,
    });

  const makeLink = (memberId: string) => makeRecordingLink(t, journal, ana, memberId);

  /** A story recorded through a link, saved with a title (what processing would do). */
  async function storyThrough(token: string, title: string): Promise<string> {
    const uploaded = await upload(t, mp3);
    const made = await api("POST", `/api/record/${token}/memories`, visitorCookie(uploaded), {
      audioUrl: uploaded.json().url,
    });
    expect(made.statusCode).toBe(201);
    const id = made.json<LinkStory>().id;
    await t.database.db
      .updateTable("memories")
      .set({ status: "saved", stage: null, title })
      .where("id", "=", id)
      .execute();
    return id;
  }

  /** A spoken reply by `who` (a member's cookie, or a fresh visitor). */
  async function reply(memoryId: string, who: TestUser | undefined, name: string) {
    const uploaded = await upload(t, mp3, who ? { cookie: who.cookie } : {});
    const cookie = who?.cookie ?? visitorCookie(uploaded);
    const made = await api("POST", `/api/memories/${memoryId}/comments`, cookie, {
      commenterName: name,
      audioUrl: uploaded.json().url,
    });
    expect(made.statusCode).toBe(201);
    return made.json<{ id: string }>().id;
  }

  const repliesJob = (memberId: string) =>
    t.database.db
      .selectFrom("jobs")
      .selectAll()
      .where("kind", "=", "storyteller-replies")
      .where("target_id", "=", memberId)
      .executeTakeFirst();

  /** The digest window passes: the storyteller's waiting mail job is due now; the worker runs. */
  async function windowPasses() {
    await t.database.db
      .updateTable("jobs")
      .set({ run_after: new Date(Date.now() - 1).toISOString() })
      .where("kind", "in", ["storyteller-replies", "relative-news"])
      .where("status", "=", "queued")
      .execute();
    return t.services.worker.drain();
  }

  const mailsTo = (address: string) => sink.messages.filter((m) => m.to.includes(address));

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({ kind, env: { SMTP_URL: sink.url, APP_URL } });
    ana = await createUserWithSession(t, { isPublic: false });
    rosa = await createUserWithSession(t);
    luis = await createUserWithSession(t);
    journal = ownJournalId(ana.user.id);
    mp3 = await fixture("tone.mp3");
    await api("PATCH", `/api/journals/${journal}`, ana, { name: "The Alvarez family" });
    ids.rosa = await invite(rosa, "Rosa", "storyteller");
    ids.luis = await invite(luis, "Luis", "relative");
    // Grandpa Tomás records through his link, with the address he was once invited at.
    const tomas = await api("POST", `/api/journals/${journal}/members`, ana, {
      name: "Grandpa Tomás",
      role: "storyteller",
    });
    ids.tomas = tomas.json<Member>().id;
    await t.database.db
      .updateTable("journal_members")
      .set({ email: `tomas-${kind}@example.org` })
      .where("id", "=", ids.tomas)
      .execute();
    await t.services.worker.drain();
  });
  afterAll(async () => {
    await t.cleanup();
    await sink.close();
  });

  it("a reply marks the story new for its storyteller's link until its replies are opened there", async () => {
    const token = await makeLink(ids.tomas as string);
    const beach = await storyThrough(token, "The beach");
    const before = (await api("GET", `/api/record/${token}`)).json<RecordingPage>();
    expect(before.stories.items.find((s) => s.id === beach)?.newReplies).toBe(0);

    const replyId = await reply(beach, luis, "Luis");
    const page = (await api("GET", `/api/record/${token}`)).json<RecordingPage>();
    expect(page.stories.items.find((s) => s.id === beach)?.newReplies).toBe(1);

    // The link lists and plays the story's replies, under its own path.
    const listed = await api("GET", `/api/record/${token}/memories/${beach}/replies`);
    expect(listed.statusCode).toBe(200);
    const [only] = listed.json<LinkReply[]>();
    expect(only).toMatchObject({ id: replyId, commenterName: "Luis" });
    expect(only?.audioUrl).toBe(`/api/record/${token}/memories/${beach}/replies/${replyId}/audio`);
    const audio = await api("GET", only?.audioUrl ?? "");
    expect(audio.statusCode).toBe(200);
    expect(audio.headers["content-type"]).toMatch(/^audio\//);

    expect(
      (await api("POST", `/api/record/${token}/memories/${beach}/replies/seen`)).statusCode,
    ).toBe(204);
    const after = (await api("GET", `/api/record/${token}`)).json<RecordingPage>();
    expect(after.stories.items.find((s) => s.id === beach)?.newReplies).toBe(0);
  });

  it("a link hears the replies of its own stories only", async () => {
    const token = await makeLink(ids.tomas as string);
    // A story Rosa told, and a reply to it.
    const rosasToken = await makeLink(ids.rosa as string);
    const rosas = await storyThrough(rosasToken, "The bakery");
    const replyId = await reply(rosas, luis, "Luis");
    for (const path of [
      `/api/record/${token}/memories/${rosas}/replies`,
      `/api/record/${token}/memories/${rosas}/replies/${replyId}/audio`,
    ]) {
      expect((await api("GET", path)).statusCode).toBe(404);
    }
    expect(
      (await api("POST", `/api/record/${token}/memories/${rosas}/replies/seen`)).statusCode,
    ).toBe(404);
    // A reply's audio through the link of the story it does not belong to: 404 as well.
    const own = await storyThrough(token, "The harbour");
    const path = `/api/record/${token}/memories/${own}/replies/${replyId}/audio`;
    expect((await api("GET", path)).statusCode).toBe(404);
  });

  it("a logged-in storyteller sees the mark in the journal until they open the story", async () => {
    const rosasToken = await makeLink(ids.rosa as string);
    const story = await storyThrough(rosasToken, "The orchard");
    const marks = async (who: TestUser) =>
      (await api("GET", `/api/journals/${journal}/new-replies`, who)).json<NewReplies>().items;
    // Her own reply is no news to her.
    await reply(story, rosa, "Rosa");
    expect((await marks(rosa)).find((m) => m.memoryId === story)).toBeUndefined();
    await reply(story, ana, "Ana");
    await reply(story, luis, "Luis");
    expect((await marks(rosa)).find((m) => m.memoryId === story)?.count).toBe(2);
    // Only the storyteller who told it: not the organizer or a relative.
    expect((await marks(ana)).find((m) => m.memoryId === story)).toBeUndefined();
    expect((await api("POST", `/api/memories/${story}/replies/seen`, luis)).statusCode).toBe(403);
    expect((await api("POST", `/api/memories/${story}/replies/seen`, ana)).statusCode).toBe(403);
    expect((await api("POST", `/api/memories/${story}/replies/seen`, rosa)).statusCode).toBe(204);
    expect((await marks(rosa)).find((m) => m.memoryId === story)).toBeUndefined();
    expect((await api("GET", `/api/journals/${journal}/new-replies`)).statusCode).toBe(401);
  });

  it("mails a storyteller once per window with every reply, and one click stops it", async () => {
    const address = `tomas-${kind}@example.org`;
    await windowPasses();
    const token = await makeLink(ids.tomas as string);
    const garden = await storyThrough(token, "The garden");
    const sent = mailsTo(address).length;
    await reply(garden, luis, "Luis");
    const first = await repliesJob(ids.tomas as string);
    await reply(garden, ana, "Ana");
    // One job waits for the window, its time unchanged by the second reply.
    expect((await repliesJob(ids.tomas as string))?.run_after).toBe(first?.run_after);
    expect(new Date(first?.run_after ?? 0).getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    // Other due jobs (the replies' transcripts) run; the mail waits.
    await t.services.worker.drain();
    expect(mailsTo(address)).toHaveLength(sent);

    await windowPasses();
    const mails = mailsTo(address);
    expect(mails).toHaveLength(sent + 1);
    const mail = mails.at(-1);
    expect(mail?.text).toContain(
      formatMessage(REPLIES_MAIL.answered, { name: "Luis", title: "The garden" }),
    );
    expect(mail?.text).toContain(
      formatMessage(REPLIES_MAIL.answered, { name: "Ana", title: "The garden" }),
    );
    // No account: the mail sends him to his link, where the replies play.
    expect(mail?.text).toContain(REPLIES_MAIL.listenOnLink);
    expect(mail?.text).toContain(`https://journal.example.org/r/${token}`);
    expect(mail && mailHeader(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const oneClick = (mail && mailHeader(mail, "List-Unsubscribe"))?.slice(1, -1) ?? "";
    expect(oneClick).toMatch(/^https:\/\/journal\.example\.org\/api\/replies\/unsubscribe\?m=/);

    // Run again: nothing new, no mail.
    await windowPasses();
    expect(mailsTo(address)).toHaveLength(sent + 1);

    // A wrong signature changes nothing; the one-click POST needs no login.
    const url = new URL(oneClick);
    const wrong = await t.app.inject({
      method: "POST",
      url: `${url.pathname}?m=${url.searchParams.get("m")}&t=${"x".repeat(43)}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe("replies.unsubscribe_invalid");
    const page = await t.app.inject({ method: "GET", url: `${url.pathname}${url.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(REPLIES_MAIL.unsubscribeButton);
    const stopped = await t.app.inject({
      method: "POST",
      url: `${url.pathname}${url.search}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(stopped.statusCode).toBe(200);
    await reply(garden, luis, "Luis");
    await windowPasses();
    expect(mailsTo(address)).toHaveLength(sent + 1);
  });

  it("mails a storyteller, and shows their unsubscribe page, in the language they were added with", async () => {
    const address = `abuela-${kind}@example.org`;
    const added = await api("POST", `/api/journals/${journal}/members`, ana, {
      name: "Abuela",
      role: "storyteller",
      email: address,
      language: "es",
    });
    const member = added.json<Member>().id;
    const token = await makeLink(member);
    await windowPasses();
    const untitled = await storyThrough(token, "");
    await reply(untitled, luis, "Luis");
    await windowPasses();
    const mail = mailsTo(address).find((m) => !m.text.includes("/join/"));
    if (!mail) throw new Error("no replies mail");
    const es = wordsIn("es");
    const line = formatMessage(
      es.REPLIES_MAIL.answered,
      { name: "Luis", title: es.MESSAGES.untitledMemory },
      "es",
    );
    expect(es.MESSAGES.untitledMemory).not.toBe(MESSAGES.untitledMemory);
    expect(mailSubject(mail)).toBe(line);
    const lines = mail.text.split(/\r?\n/);
    expect(lines[0]).toBe(formatMessage(es.REPLIES_MAIL.greeting, { name: "Abuela" }, "es"));
    expect(lines).toContain(`- ${line}`);
    const oneClick = new URL(mailHeader(mail, "List-Unsubscribe")?.slice(1, -1) ?? "");
    const page = await t.app.inject({
      method: "GET",
      url: `${oneClick.pathname}${oneClick.search}`,
    });
    expect(page.body).toMatch(/^<!doctype html><html lang="es" dir="ltr">/);
    expect(page.body).toContain(`<h1>${es.REPLIES_MAIL.unsubscribeTitle}</h1>`);
    const done = await t.app.inject({
      method: "POST",
      url: `${oneClick.pathname}${oneClick.search}`,
      headers: { accept: "text/html" },
    });
    expect(done.body).toContain(es.REPLIES_MAIL.unsubscribeDone);
    // A wrong signature names no one: English.
    const wrong = await t.app.inject({
      method: "GET",
      url: `${oneClick.pathname}?m=${member}&t=${"x".repeat(43)}`,
    });
    expect(wrong.body).toMatch(/^<!doctype html><html lang="en" dir="ltr">/);
    expect(wrong.body).toContain(REPLIES_MAIL.unsubscribeInvalid);
  });

  it("a storyteller with an account is mailed a link to the story; none once removed", async () => {
    // Her account has no address: the one she was invited at.
    const to = `rosa-${kind}@example.org`;
    await windowPasses();
    const rosasToken = await makeLink(ids.rosa as string);
    const story = await storyThrough(rosasToken, "The well");
    const before = mailsTo(to).length;
    await reply(story, luis, "Luis");
    await windowPasses();
    const mail = mailsTo(to).at(-1);
    expect(mailsTo(to)).toHaveLength(before + 1);
    expect(mail?.raw).toContain('Luis answered your story "The well"');
    expect(mail?.text).toContain(`${APP_URL}/memory/${story}`);

    // Removed: the reply made meanwhile is mailed to no one.
    await reply(story, luis, "Luis");
    expect(
      (await api("DELETE", `/api/journals/${journal}/members/${ids.rosa}`, ana)).statusCode,
    ).toBe(204);
    await windowPasses();
    expect(mailsTo(to)).toHaveLength(before + 1);
  });

  it("organizers reorder a storyteller's waiting questions; the first is asked next", async () => {
    const tomas = ids.tomas as string;
    const path = `/api/journals/${journal}/members/${tomas}/questions`;
    const asked: string[] = [];
    for (const text of [
      "Where were you born?",
      "What was your first car?",
      "Who taught you to cook?",
    ]) {
      const made = await api("POST", path, luis, { text });
      expect(made.statusCode).toBe(201);
      asked.push(made.json<FamilyQuestion>().id);
    }
    const token = await makeLink(tomas);
    expect((await api("GET", `/api/record/${token}`)).json<RecordingPage>().question).toBe(
      "Where were you born?",
    );
    // A relative cannot move questions; an organizer can.
    const third = `${path}/${asked[2]}`;
    expect((await api("PATCH", third, luis, { position: 0 })).statusCode).toBe(403);
    expect((await api("PATCH", third, ana, { position: -1 })).statusCode).toBe(400);
    expect((await api("PATCH", `${path}/nope`, ana, { position: 0 })).statusCode).toBe(404);
    const moved = await api("PATCH", third, ana, { position: 0 });
    expect(moved.statusCode).toBe(200);
    expect(
      moved
        .json<FamilyQuestion[]>()
        .map((q) => q.text)
        .slice(0, 3),
    ).toEqual(["Who taught you to cook?", "Where were you born?", "What was your first car?"]);
    expect((await api("GET", `/api/record/${token}`)).json<RecordingPage>().question).toBe(
      "Who taught you to cook?",
    );
    // Down by one: past the end puts it last.
    await api("PATCH", `${path}/${asked[0]}`, ana, { position: 99 });
    const list = (await api("GET", path, ana)).json<FamilyQuestion[]>();
    expect(list.map((q) => q.text).slice(0, 3)).toEqual([
      "Who taught you to cook?",
      "What was your first car?",
      "Where were you born?",
    ]);
  });

  it("the relatives' news names the family question a story answered", async () => {
    const tomas = ids.tomas as string;
    // A relative's address on a share link of the journal, confirmed.
    const news = `news-${kind}@example.org`;
    const link = await api("POST", "/api/share-links", ana, { label: "Family", email: news });
    expect(link.statusCode).toBe(201);
    // The oldest waiting question is answered by the story, through the pipeline's save.
    const text = "What did you dream of as a boy?";
    const asked = await api("POST", `/api/journals/${journal}/members/${tomas}/questions`, luis, {
      text,
    });
    expect(asked.statusCode).toBe(201);
    await api(
      "PATCH",
      `/api/journals/${journal}/members/${tomas}/questions/${asked.json<FamilyQuestion>().id}`,
      ana,
      {
        position: 0,
      },
    );
    const token = await makeLink(tomas);
    const uploaded = await upload(t, mp3);
    const made = await api("POST", `/api/record/${token}/memories`, visitorCookie(uploaded), {
      audioUrl: uploaded.json().url,
      question: text,
    });
    const id = made.json<LinkStory>().id;
    await t.database.db
      .updateTable("memories")
      .set({ stage: "save", title: "Ships" })
      .where("id", "=", id)
      .execute();
    await t.services.worker.drain();
    await windowPasses();
    const mail = await sink.waitFor((m) => m.to.includes(news) && m.text.includes("Ships"));
    expect(mail.text).toContain(
      formatMessage(FAMILY_QUESTION_NEWS.answered, {
        teller: "Grandpa Tomás",
        asker: "Luis",
        question: text,
      }),
    );
    expect(mail.text).toContain("Grandpa Tomás answered Luis's question: What did you dream of");
  });

  it("a link adds a photo to its own story only", async () => {
    const token = await makeLink(ids.tomas as string);
    const own = await storyThrough(token, "The lighthouse");
    const jpeg = await testJpeg(400, 300);
    const send = (memoryId: string, linkToken = token) => {
      const body = multipart(jpeg, { field: "photo", filename: "p.jpg", type: "image/jpeg" });
      return t.app.inject({
        method: "POST",
        url: `/api/record/${linkToken}/memories/${memoryId}/photos`,
        payload: body.payload,
        headers: body.headers,
      });
    };
    const added = await send(own);
    expect(added.statusCode).toBe(201);
    const memory = await api("GET", `/api/memories/${own}`, ana);
    expect(memory.json<{ photos: { id: string }[] }>().photos.map((p) => p.id)).toEqual([
      added.json<{ id: string }>().id,
    ]);
    // The link's story counts it, so a recording sent again does not add it twice.
    const seen = await t.app.inject({ method: "GET", url: `/api/record/${token}/memories/${own}` });
    expect(seen.json<LinkStory>().photoCount).toBe(1);
    // Another member's story, Ana's own, or a dead link: nothing is added.
    const anasUpload = await upload(t, mp3, { cookie: ana.cookie });
    const anas = await api("POST", "/api/memories/process", ana, {
      audioUrl: anasUpload.json().url,
    });
    const anasId = anas.json<{ id: string }>().id;
    expect((await send(anasId)).statusCode).toBe(404);
    expect((await send(own, "x".repeat(43))).statusCode).toBe(404);
    // The photo routes of the journal stay closed to the link's browser.
    const body = multipart(jpeg, { field: "photo", filename: "p.jpg", type: "image/jpeg" });
    const direct = await t.app.inject({
      method: "POST",
      url: `/api/memories/${own}/photos`,
      payload: body.payload,
      headers: body.headers,
    });
    expect(direct.statusCode).toBe(401);
  });
});
