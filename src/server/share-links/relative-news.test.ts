import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatMessage } from "../../shared/i18n/format";
import { ERROR_MESSAGES } from "../../shared/messages";
import type { Memory } from "../../shared/schemas";
import {
  type CreatedShareLink,
  SHARE_MESSAGES,
  type ShareLink,
  SUBSCRIBERS_PER_LINK,
} from "../../shared/share-links";
import { wordsIn } from "../i18n/words";
import { JobsRepo } from "../jobs/jobs.repo";
import { ownJournalId } from "../journals/journals.repo";
import { MemoriesRepo } from "../memories/memories.repo";
import { accountIdentity, createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import {
  mailHeader,
  mailSubject,
  type ReceivedMail,
  type SmtpSink,
  startSmtpSink,
} from "../test/smtp-sink";
import { fixture, upload } from "../test/upload-helpers";
import { RELATIVE_NEWS_JOB } from "./relative-news.service";
import { SHARE_COOKIE } from "./share-cookie";

const APP = "https://journal.example.org";
const HOUR = 3_600_000;

/**
 * A page a relative opens from a mail reads like one: in English, named in the tab, everything
 * inside one main landmark under the page's heading, with a style sheet of its own.
 */
function expectReadablePage(html: string, title: string) {
  expect(html).toMatch(/^<!doctype html><html lang="en" dir="ltr">/);
  expect(html).toContain(`<title>${title}</title>`);
  expect(html).toMatch(/<style>[^<]*line-height[^<]*<\/style>/);
  const body = html.match(/<body[^>]*>([\s\S]*)<\/body>/)?.[1] ?? "";
  expect(body).toMatch(new RegExp(`^<main[^>]*><h1[^>]*>${title}</h1>[\\s\\S]*</main>$`));
  expect(html.match(/<main/g)).toHaveLength(1);
}

describe.each(DATABASE_KINDS)("news of new stories for relatives (%s)", (kind) => {
  let t: TestApp;
  let sink: SmtpSink;
  let owner: TestUser;
  let stranger: TestUser;
  let memories: MemoriesRepo;

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({
      kind,
      env: {
        SMTP_URL: sink.url,
        APP_URL: APP,
        RELATIVE_DIGEST_MINUTES: "60",
        RATE_LIMIT_SHARE_OPEN_PER_MINUTE: "1000",
      },
    });
    owner = await createUserWithSession(t, { username: "rose_news", isPublic: false });
    await t.database.db
      .updateTable("users")
      .set({ display_name: "Grandma Rose" })
      .where("id", "=", owner.user.id)
      .execute();
    stranger = await createUserWithSession(t, {});
    memories = new MemoriesRepo(t.database.db, t.database.kind);
  });
  afterAll(async () => {
    await t.cleanup();
    await sink.close();
  });
  beforeEach(() => {
    sink.messages.length = 0;
  });

  function api(method: "GET" | "POST" | "DELETE", url: string, cookie?: string, body?: object) {
    return t.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(body ? { payload: body } : {}),
    });
  }
  async function createLink(label: string, email?: string): Promise<CreatedShareLink> {
    const res = await api("POST", "/api/share-links", owner.cookie, { label, email });
    expect(res.statusCode).toBe(201);
    return res.json() as CreatedShareLink;
  }
  /** Opens the link as a relative's fresh browser; answers its cookie header. */
  async function openLink(link: CreatedShareLink): Promise<string> {
    const res = await api("GET", new URL(link.url).pathname);
    expect(res.statusCode).toBe(303);
    const set = res.cookies.find((c) => c.name === SHARE_COOKIE);
    return `${SHARE_COOKIE}=${set?.value}`;
  }
  const subscribe = (cookie: string | undefined, email: string, username = owner.user.username) =>
    api("POST", "/api/relative-news", cookie, { username, email });
  async function listed(): Promise<ShareLink[]> {
    return (await api("GET", "/api/share-links", owner.cookie)).json() as ShareLink[];
  }
  /** A memory saved through the API, as the recorder's direct create saves it. */
  async function save(title: string): Promise<Memory> {
    const uploaded = await upload(t, await fixture("tone.mp3"), { cookie: owner.cookie });
    const res = await api("POST", "/api/memories", owner.cookie, {
      audioUrl: uploaded.json().url,
      title,
      transcript: "A story.",
      summary: "A story.",
      recordedAt: new Date().toISOString(),
    });
    expect(res.statusCode).toBe(201);
    return res.json() as Memory;
  }
  /** A memory at the pipeline's last stage; `finish` runs that stage, which saves it. */
  const processing = (title: string) =>
    memories.insert({
      userId: owner.user.id,
      audioId: null,
      status: "processing",
      stage: "save",
      title,
    });
  async function finish(memoryId: string): Promise<void> {
    await new JobsRepo(t.database.db, kind).enqueue({ kind: "process-memory", targetId: memoryId });
    await t.services.worker.drain();
  }
  const newsJob = () =>
    t.database.db
      .selectFrom("jobs")
      .selectAll()
      .where("kind", "=", RELATIVE_NEWS_JOB)
      .where("target_id", "=", ownJournalId(owner.user.id))
      .executeTakeFirst();
  /** The window (or a retry's backoff) passes: the news job is due. Answers the jobs run. */
  async function send(): Promise<number> {
    await t.database.db
      .updateTable("jobs")
      .set({ run_after: new Date(Date.now() - 1).toISOString() })
      .where("kind", "=", RELATIVE_NEWS_JOB)
      .where("status", "=", "queued")
      .execute();
    return t.services.worker.drain();
  }
  const news = () =>
    sink.messages.filter((m) =>
      m.text.includes(formatMessage(SHARE_MESSAGES.newsMailIntro, { name: "Grandma Rose" })),
    );
  const mailsTo = (email: string) => sink.messages.filter((m) => m.to.includes(email));
  const oneClick = (mail: ReceivedMail) => {
    const url = new URL(mailHeader(mail, "List-Unsubscribe")?.slice(1, -1) ?? "");
    return `${url.pathname}${url.search}`;
  };

  it("a relative holding the link subscribes from the shared view; the owner sees and removes the address", async () => {
    const link = await createLink("Aunt May");
    const cookie = await openLink(link);
    const before = await listed();
    // Without the link, with a malformed address, for another profile: refused, nothing changed.
    expect((await subscribe(undefined, "may@example.org")).statusCode).toBe(404);
    expect((await subscribe(stranger.cookie, "may@example.org")).statusCode).toBe(404);
    expect((await subscribe(cookie, "may@example.org", stranger.user.username)).statusCode).toBe(
      404,
    );
    const bad = await subscribe(cookie, "not-an-address");
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: "invalid_value", field: "body.email" });
    expect(await listed()).toEqual(before);

    expect((await subscribe(cookie, " May@Example.org ")).statusCode).toBe(201);
    expect((await subscribe(cookie, "may@example.org")).statusCode).toBe(201); // once only
    const mine = (await listed()).find((l) => l.id === link.id);
    expect(mine?.subscribers).toMatchObject([{ email: "may@example.org", confirmed: false }]);
    // One confirmation mail, not one per request.
    expect(mailsTo("may@example.org")).toHaveLength(1);
    const subscriberId = mine?.subscribers[0]?.id ?? "";

    // Only the owner removes it.
    const path = `/api/share-links/${link.id}/subscribers/${subscriberId}`;
    expect((await api("DELETE", path)).statusCode).toBe(401);
    expect((await api("DELETE", path, stranger.cookie)).statusCode).toBe(404);
    expect((await api("DELETE", path, owner.cookie)).statusCode).toBe(204);
    expect((await listed()).find((l) => l.id === link.id)?.subscribers).toEqual([]);
    expect((await api("DELETE", path, owner.cookie)).statusCode).toBe(404);
  });

  it("mails an address a link holder typed only a confirmation, until it confirms; not again for a day", async () => {
    const link = await createLink("Aunt Lou");
    const cookie = await openLink(link);
    expect((await subscribe(cookie, "lou@example.org")).statusCode).toBe(201);
    const [ask, ...more] = mailsTo("lou@example.org");
    expect(more).toEqual([]);
    if (!ask) throw new Error("no confirmation mail");
    expect(mailHeader(ask, "Subject")).toBe(
      formatMessage(SHARE_MESSAGES.confirmMailSubject, { name: "Grandma Rose" }),
    );
    expect(ask.text).toContain(SHARE_MESSAGES.confirmMailIgnore);
    const confirmUrl = ask.text.match(/https:\/\/\S+\/api\/relative-news\/confirm\?\S+/)?.[0];
    if (!confirmUrl) throw new Error("no confirmation link");
    const path = `${new URL(confirmUrl).pathname}${new URL(confirmUrl).search}`;
    // The mail holds no share link: only the confirmation.
    expect(ask.text).not.toContain("/s/");

    // Unconfirmed: no news, and asking again within the day mails nothing more.
    await save("Before confirming");
    await send();
    expect((await subscribe(cookie, "lou@example.org")).statusCode).toBe(201);
    expect(mailsTo("lou@example.org")).toHaveLength(1);

    // A day later, asking again sends the confirmation once more.
    await t.database.db
      .updateTable("share_link_subscriptions")
      .set({ confirm_sent_at: new Date(Date.now() - 25 * HOUR).toISOString() })
      .where("email", "=", "lou@example.org")
      .execute();
    expect((await subscribe(cookie, "lou@example.org")).statusCode).toBe(201);
    expect(mailsTo("lou@example.org")).toHaveLength(2);
    expect((await subscribe(cookie, "lou@example.org")).statusCode).toBe(201);
    expect(mailsTo("lou@example.org")).toHaveLength(2);

    // A tampered link, or an unsubscribe signature, does not confirm.
    const url = new URL(confirmUrl);
    const s = url.searchParams.get("s") ?? "";
    const l = url.searchParams.get("l") ?? "";
    const bad = [
      `${url.pathname}?s=${s}&l=${l}&t=${url.searchParams.get("t")?.slice(1)}x`,
      `/api/relative-news/confirm?${new URL(await t.services.relativeNews.unsubscribeUrl(s, l, APP)).search.slice(1)}`,
    ];
    for (const wrong of bad) {
      expect((await api("POST", wrong)).json()).toMatchObject({ code: "share.confirm_invalid" });
      expect((await api("GET", wrong)).body).toContain(SHARE_MESSAGES.confirmInvalid);
    }

    // Opening the link only asks (mail scanners open links); the button confirms.
    const page = await api("GET", path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(SHARE_MESSAGES.confirmExplain);
    expect(page.body).toContain(SHARE_MESSAGES.confirmButton);
    expectReadablePage(page.body, SHARE_MESSAGES.confirmTitle);
    expect((await listed()).find((x) => x.id === link.id)?.subscribers).toMatchObject([
      { confirmed: false },
    ]);
    const done = await t.app.inject({
      method: "POST",
      url: path,
      headers: { accept: "text/html" },
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain(SHARE_MESSAGES.confirmDone);
    expectReadablePage(done.body, SHARE_MESSAGES.confirmTitle);
    expect((await api("POST", path)).json()).toEqual({ ok: true }); // again: still fine
    expect((await api("GET", path)).body).toContain(SHARE_MESSAGES.confirmDone);
    expect((await listed()).find((x) => x.id === link.id)?.subscribers).toMatchObject([
      { email: "lou@example.org", confirmed: true },
    ]);
    // Confirmed: asking again sends nothing, and news starts with the next memory.
    expect((await subscribe(cookie, "lou@example.org")).statusCode).toBe(201);
    await save("After confirming");
    await send();
    const news = mailsTo("lou@example.org").slice(2);
    expect(news).toHaveLength(1);
    expect(news[0]?.text).toContain("After confirming");
    expect(news[0]?.text).not.toContain("Before confirming");

    // Removed by the owner: the confirmation link no longer works.
    const subscriber = (await listed()).find((x) => x.id === link.id)?.subscribers[0];
    await api("DELETE", `/api/share-links/${link.id}/subscribers/${subscriber?.id}`, owner.cookie);
    expect((await api("POST", path)).statusCode).toBe(400);
    await api("DELETE", `/api/share-links/${link.id}`, owner.cookie);
  });

  it("writes the confirmation, the news and the pages of their links in the language the relative subscribed in", async () => {
    const es = wordsIn("es");
    const words = es.SHARE_MESSAGES;
    const link = await createLink("Tía Lucía");
    const cookie = await openLink(link);
    const asked = await api("POST", "/api/relative-news", cookie, {
      username: owner.user.username,
      email: "lucia@example.org",
      language: "es",
    });
    expect(asked.statusCode).toBe(201);
    const [ask] = mailsTo("lucia@example.org");
    if (!ask) throw new Error("no confirmation mail");
    const subject = formatMessage(words.confirmMailSubject, { name: "Grandma Rose" }, "es");
    expect(subject).not.toBe(formatMessage(SHARE_MESSAGES.confirmMailSubject, { name: "x" }));
    expect(mailSubject(ask)).toBe(subject);
    expect(ask.text.split(/\r?\n/)).toContain(words.confirmMailIgnore);
    const confirmUrl = new URL(
      ask.text.match(/https:\/\/\S+\/api\/relative-news\/confirm\?\S+/)?.[0] ?? "",
    );
    const confirmPath = `${confirmUrl.pathname}${confirmUrl.search}`;
    const page = await api("GET", confirmPath);
    expect(page.body).toMatch(/^<!doctype html><html lang="es" dir="ltr">/);
    expect(page.body).toContain(`<h1>${words.confirmTitle}</h1>`);
    expect(page.body).toContain(words.confirmButton);
    expect((await api("POST", confirmPath)).json()).toEqual({ ok: true });

    await save("La playa");
    await send();
    const news = mailsTo("lucia@example.org").find((m) => m.text.includes("La playa"));
    if (!news) throw new Error("no news");
    expect(mailSubject(news)).toBe(
      formatMessage(words.newsMailSubject, { name: "Grandma Rose" }, "es"),
    );
    expect(news.text).toContain(formatMessage(words.newsMailIntro, { name: "Grandma Rose" }, "es"));
    const stop = await api("GET", oneClick(news));
    expect(stop.body).toMatch(/^<!doctype html><html lang="es" dir="ltr">/);
    expect(stop.body).toContain(words.unsubscribeButton);
    const stopped = await t.app.inject({
      method: "POST",
      url: oneClick(news),
      headers: { accept: "text/html" },
    });
    expect(stopped.body).toContain(words.unsubscribeDone);
    // A wrong signature names no one: its page is in English.
    const wrong = await api("GET", `${oneClick(news).slice(0, -2)}xx`);
    expect(wrong.statusCode).toBe(400);
    expectReadablePage(wrong.body, SHARE_MESSAGES.unsubscribeTitle);
    await api("DELETE", `/api/share-links/${link.id}`, owner.cookie);
  });

  it("a display name or title with line breaks adds no lines to the mails", async () => {
    const setName = (name: string) =>
      t.database.db
        .updateTable("users")
        .set({ display_name: name })
        .where("id", "=", owner.user.id)
        .execute();
    await setName("Grandma\r\nRose\n\nClick here: https://evil.example");
    try {
      const link = await createLink("Cousin Kit", "kit@example.org");
      const cookie = await openLink(link);
      expect((await subscribe(cookie, "kat@example.org")).statusCode).toBe(201);
      await save("Our first car\n- A fake story\u2028  https://evil.example/x");
      await send();
      const name = "Grandma Rose Click here: https://evil.example";
      const [linkMail, newsMail] = mailsTo("kit@example.org");
      const [confirmMail] = mailsTo("kat@example.org");
      if (!linkMail || !newsMail || !confirmMail) throw new Error("a mail is missing");
      for (const mail of [linkMail, newsMail, confirmMail]) {
        mail.text = mail.text.replace(/\r\n/g, "\n");
      }
      expect(linkMail.text).toContain(`${name} shared their family's voice memories`);
      expect(newsMail.text).toContain(`${formatMessage(SHARE_MESSAGES.newsMailIntro, { name })}\n`);
      expect(newsMail.text).toContain("\n- Our first car - A fake story https://evil.example/x\n");
      expect(newsMail.text).not.toMatch(/^- A fake story/m);
      expect(mailHeader(newsMail, "Subject")).toBe(
        formatMessage(SHARE_MESSAGES.newsMailSubject, { name }),
      );
      expect(confirmMail.text).toContain(formatMessage(SHARE_MESSAGES.confirmMailIntro, { name }));
      for (const mail of [linkMail, newsMail, confirmMail]) {
        expect(mail.text).not.toMatch(/^Click here/m);
      }
      await api("DELETE", `/api/share-links/${link.id}`, owner.cookie);
    } finally {
      await setName("Grandma Rose");
    }
  });

  it("caps the addresses on one link", async () => {
    const link = await createLink("Cousins");
    const cookie = await openLink(link);
    for (let i = 0; i < SUBSCRIBERS_PER_LINK; i++) {
      expect((await subscribe(cookie, `cousin${i}@example.org`)).statusCode).toBe(201);
    }
    const res = await subscribe(cookie, "one-more@example.org");
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(ERROR_MESSAGES["share.too_many_subscribers"]);
    await api("DELETE", `/api/share-links/${link.id}`, owner.cookie);
  });

  it("mails memories saved together once, an hour after the first, through the link; not the unsaved or deleted one", async () => {
    const link = await createLink("Grandpa", "grandpa@example.org");
    // The owner mailed the link there: that address gets news without confirming.
    expect(link.subscribers).toMatchObject([{ email: "grandpa@example.org", confirmed: true }]);
    sink.messages.length = 0; // the link's own mail
    const before = Date.now();
    const first = await save("The seaside in 1962");
    const job = await newsJob();
    expect(job?.status).toBe("queued");
    const due = new Date(job?.run_after ?? 0).getTime();
    expect(due).toBeGreaterThanOrEqual(before + HOUR);
    expect(due).toBeLessThan(Date.now() + HOUR);
    const second = await save("Our first car");
    const gone = await save("Deleted soon");
    const late = await processing("Still processing");
    await t.services.memories.delete(gone.id, accountIdentity(owner.user.id));
    // One job for the owner, still due an hour after the first: the others joined it.
    expect((await newsJob())?.run_after).toBe(job?.run_after);
    expect(await t.services.worker.drain()).toBe(0);
    expect(news()).toEqual([]);

    await send();
    await send(); // the job, run again, has nothing more to send
    const [mail, ...more] = mailsTo("grandpa@example.org");
    expect(more).toEqual([]);
    if (!mail) throw new Error("no mail");
    expect(mailHeader(mail, "Subject")).toBe(
      formatMessage(SHARE_MESSAGES.newsMailSubject, { name: "Grandma Rose" }),
    );
    expect(mail.text).toContain("The seaside in 1962");
    expect(mail.text).toContain("Our first car");
    expect(mail.text).not.toContain("Deleted soon");
    expect(mail.text).not.toContain("Still processing");
    const token = new URL(link.url).pathname.slice(3);
    for (const memory of [first, second]) {
      const url = `${APP}/s/${token}/${memory.id}`;
      expect(mail.text).toContain(url);
      // It opens that memory through the link.
      const opened = await api("GET", new URL(url).pathname);
      expect(opened.statusCode).toBe(303);
      expect(opened.headers.location).toBe(`/memory/${memory.id}`);
    }
    expect(mailHeader(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(mailHeader(mail, "List-Unsubscribe")).toMatch(
      /^<https:\/\/journal\.example\.org\/api\/relative-news\/unsubscribe\?s=[^&]+&l=[^&]+&t=[^>]+>$/,
    );
    expect(mail.text).toContain(`${APP}${oneClick(mail)}`);

    // The pipeline saves the one that was processing: it comes in the next mail, not at once
    // (the first mail, which left it waiting, queued the next one an hour on).
    await finish(late.id);
    const queued = await newsJob();
    expect(queued?.status).toBe("queued");
    expect(new Date(queued?.run_after ?? 0).getTime()).toBeGreaterThan(Date.now() + HOUR / 2);
    expect(await t.services.worker.drain()).toBe(0);
    await send();
    const next = mailsTo("grandpa@example.org")[1];
    expect(next?.text).toContain("Still processing");
    expect(next?.text).not.toContain("Our first car");
    expect(mailsTo("grandpa@example.org")).toHaveLength(2);
    await api("DELETE", `/api/share-links/${link.id}`, owner.cookie);
  });

  it("a mail the SMTP server refuses is tried again by the queue until it goes, once; the others are not sent again", async () => {
    const flaky = await createLink("Cousin Ann", "ann@example.org");
    const steady = await createLink("Cousin Bob", "bob@example.org");
    sink.refused.add("ann@example.org");
    await save("The long winter");
    await send();
    expect(mailsTo("ann@example.org").filter((m) => m.text.includes("The long winter"))).toEqual(
      [],
    );
    expect(
      mailsTo("bob@example.org").filter((m) => m.text.includes("The long winter")),
    ).toHaveLength(1);
    const failed = await newsJob();
    expect(failed).toMatchObject({ status: "queued", attempts: 1 });
    expect(failed?.last_error).toMatch(/451/);
    // Refused on every try: after the last one the job waits a window and starts again.
    for (let attempt = 2; attempt <= 5; attempt++) await send();
    const restarted = await newsJob();
    expect(restarted).toMatchObject({ status: "queued", attempts: 0 });
    expect(new Date(restarted?.run_after ?? 0).getTime()).toBeGreaterThan(Date.now() + HOUR / 2);

    sink.refused.delete("ann@example.org");
    await send();
    for (const email of ["ann@example.org", "bob@example.org"]) {
      expect(mailsTo(email).filter((m) => m.text.includes("The long winter"))).toHaveLength(1);
    }
    expect((await newsJob())?.status).toBe("done");
    for (const link of [flaky, steady]) {
      await api("DELETE", `/api/share-links/${link.id}`, owner.cookie);
    }
  });

  it("after a one-click unsubscribe nothing more is mailed; a GET only asks", async () => {
    const link = await createLink("Uncle Joe", "joe@example.org");
    await save("Joe's story");
    await send();
    const [mail] = mailsTo("joe@example.org").filter((m) => m.text.includes("Joe's story"));
    if (!mail) throw new Error("no mail");
    const path = oneClick(mail);

    const page = await api("GET", path);
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).toContain(SHARE_MESSAGES.unsubscribeButton);
    expect(page.body).toContain('method="post"');
    expectReadablePage(page.body, SHARE_MESSAGES.unsubscribeTitle);
    // With no-referrer the browser would send `Origin: null` with the form: refused as cross-site.
    expect(page.headers["referrer-policy"]).toBe("same-origin");
    expect((await listed()).find((l) => l.id === link.id)?.subscribers).toHaveLength(1);

    const res = await t.app.inject({
      method: "POST",
      url: path,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await listed()).find((l) => l.id === link.id)?.subscribers).toEqual([]);
    // Again (a provider retrying, the page's button): still fine; the page's form gets a page.
    const again = await t.app.inject({
      method: "POST",
      url: path,
      headers: { accept: "text/html" },
    });
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain(SHARE_MESSAGES.unsubscribeDone);
    expectReadablePage(again.body, SHARE_MESSAGES.unsubscribeTitle);

    await save("After unsubscribing");
    await send();
    expect(mailsTo("joe@example.org")).toHaveLength(2); // the link's own mail and the one news mail
    await api("DELETE", `/api/share-links/${link.id}`, owner.cookie);
  });

  it("refuses a tampered signature, and one whose share link was revoked; revoking stops the mails", async () => {
    const link = await createLink("Nana", "nana@example.org");
    const keep = await createLink("Papa", "papa@example.org");
    await save("Nana's story");
    await send();
    const mail = mailsTo("nana@example.org").find((m) => m.text.includes("Nana's story"));
    if (!mail) throw new Error("no mail");
    const url = new URL(`${APP}${oneClick(mail)}`);
    const other = mailsTo("papa@example.org").find((m) => m.text.includes("Nana's story"));
    const theirs = new URL(`${APP}${oneClick(other as ReceivedMail)}`).searchParams;
    const tampered = [
      `${url.pathname}?s=${url.searchParams.get("s")}&l=${url.searchParams.get("l")}&t=${url.searchParams.get("t")?.slice(1)}x`,
      `${url.pathname}?s=${url.searchParams.get("s")}&l=${url.searchParams.get("l")}&t=${theirs.get("t")}`,
      `${url.pathname}?s=${theirs.get("s")}&l=${url.searchParams.get("l")}&t=${url.searchParams.get("t")}`,
      `${url.pathname}?s=${url.searchParams.get("s")}&l=${url.searchParams.get("l")}`,
    ];
    for (const bad of tampered) {
      const res = await api("POST", bad);
      expect(res.statusCode, bad).toBe(400);
      expect((await api("GET", bad)).statusCode).toBe(400);
    }
    expect((await listed()).find((l) => l.id === link.id)?.subscribers).toHaveLength(1);
    expect((await listed()).find((l) => l.id === keep.id)?.subscribers).toHaveLength(1);

    // Revoked: the mails stop, and the signature ended with the link.
    expect((await api("DELETE", `/api/share-links/${link.id}`, owner.cookie)).statusCode).toBe(204);
    const path = `${url.pathname}${url.search}`;
    const res = await api("POST", path);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(SHARE_MESSAGES.unsubscribeInvalid);
    const invalid = (await api("GET", path)).body;
    expect(invalid).toContain(SHARE_MESSAGES.unsubscribeInvalid);
    expectReadablePage(invalid, SHARE_MESSAGES.unsubscribeTitle);
    await save("After revoking");
    await send();
    expect(mailsTo("nana@example.org").filter((m) => m.text.includes("After revoking"))).toEqual(
      [],
    );
    expect(mailsTo("papa@example.org").at(-1)?.text).toContain("After revoking");
    await api("DELETE", `/api/share-links/${keep.id}`, owner.cookie);
  });
});
