import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ERROR_MESSAGES } from "../../shared/messages";
import {
  type CreatedShareLink,
  SHARE_MESSAGES,
  type ShareLink,
  SUBSCRIBERS_PER_LINK,
} from "../../shared/share-links";
import { MemoriesRepo } from "../memories/memories.repo";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { mailHeader, type ReceivedMail, type SmtpSink, startSmtpSink } from "../test/smtp-sink";
import { SHARE_COOKIE } from "./share-cookie";

const APP = "https://journal.example.org";
const MINUTE = 60_000;

describe.each(DATABASE_KINDS)("news of new stories for relatives (%s)", (kind) => {
  let t: TestApp;
  let sink: SmtpSink;
  let owner: TestUser;
  let stranger: TestUser;
  let memories: MemoriesRepo;
  /** A moment after the subscriptions of each test: memories are made from it on. */
  let t0: number;

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
    t0 = Date.now() + MINUTE;
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
  const save = (title: string, minutes: number, status: "saved" | "processing" = "saved") =>
    memories.insert({
      userId: owner.user.id,
      audioId: null,
      status,
      title,
      createdAt: new Date(t0 + minutes * MINUTE).toISOString(),
    });
  const send = (minutes: number) =>
    t.services.relativeNews.sendDue(new Date(t0 + minutes * MINUTE));
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
    expect(mine?.subscribers.map((s) => s.email)).toEqual(["may@example.org"]);
    const subscriberId = mine?.subscribers[0]?.id ?? "";

    // Only the owner removes it.
    const path = `/api/share-links/${link.id}/subscribers/${subscriberId}`;
    expect((await api("DELETE", path)).statusCode).toBe(401);
    expect((await api("DELETE", path, stranger.cookie)).statusCode).toBe(404);
    expect((await api("DELETE", path, owner.cookie)).statusCode).toBe(204);
    expect((await listed()).find((l) => l.id === link.id)?.subscribers).toEqual([]);
    expect((await api("DELETE", path, owner.cookie)).statusCode).toBe(404);
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

  it("mails two memories saved together once, through the link; not the unsaved or deleted one; then waits the window", async () => {
    const link = await createLink("Grandpa", "grandpa@example.org");
    expect(link.subscribers.map((s) => s.email)).toEqual(["grandpa@example.org"]);
    sink.messages.length = 0; // the link's own mail
    const first = await save("The seaside in 1962", 0);
    const second = await save("Our first car", 1);
    const gone = await save("Deleted soon", 2);
    const processing = await save("Still processing", 3, "processing");
    await t.services.memories.delete(gone.id, { userId: owner.user.id, visitorHash: null });

    expect(await send(30)).toBe(0); // the oldest is not an hour old yet
    expect(await send(61)).toBe(1);
    expect(await send(61)).toBe(0);
    const [mail, ...more] = mailsTo("grandpa@example.org");
    expect(more).toEqual([]);
    if (!mail) throw new Error("no mail");
    expect(mailHeader(mail, "Subject")).toBe(SHARE_MESSAGES.newsMailSubject("Grandma Rose"));
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

    // The one that was processing is saved: it comes in the next mail, not before the window.
    await memories.markSaved(processing.id);
    expect(await send(90)).toBe(0);
    expect(await send(122)).toBe(1);
    const next = mailsTo("grandpa@example.org")[1];
    expect(next?.text).toContain("Still processing");
    expect(next?.text).not.toContain("Our first car");
    await api("DELETE", `/api/share-links/${link.id}`, owner.cookie);
  });

  it("after a one-click unsubscribe nothing more is mailed; a GET only asks", async () => {
    const link = await createLink("Uncle Joe", "joe@example.org");
    await save("Joe's story", 0);
    expect(await send(61)).toBe(1);
    const [mail] = mailsTo("joe@example.org").filter((m) => m.text.includes("Joe's story"));
    if (!mail) throw new Error("no mail");
    const path = oneClick(mail);

    const page = await api("GET", path);
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).toContain(SHARE_MESSAGES.unsubscribeButton);
    expect(page.body).toContain('method="post"');
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

    await save("After unsubscribing", 70);
    expect(await send(200)).toBe(0);
    expect(mailsTo("joe@example.org")).toHaveLength(2); // the link's own mail and the one news mail
    await api("DELETE", `/api/share-links/${link.id}`, owner.cookie);
  });

  it("refuses a tampered signature, and one whose share link was revoked; revoking stops the mails", async () => {
    const link = await createLink("Nana", "nana@example.org");
    const keep = await createLink("Papa", "papa@example.org");
    await save("Nana's story", 0);
    expect(await send(61)).toBe(2);
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
    expect((await api("GET", path)).body).toContain(SHARE_MESSAGES.unsubscribeInvalid);
    await save("After revoking", 70);
    expect(await send(200)).toBe(1);
    expect(mailsTo("nana@example.org").filter((m) => m.text.includes("After revoking"))).toEqual(
      [],
    );
    expect(mailsTo("papa@example.org").at(-1)?.text).toContain("After revoking");
    await api("DELETE", `/api/share-links/${keep.id}`, owner.cookie);
  });
});
