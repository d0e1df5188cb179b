import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMessage } from "../../shared/i18n/format";
import { ERROR_MESSAGES, MESSAGES } from "../../shared/messages";
import type { Memory, PublicProfile } from "../../shared/schemas";
import {
  type CreatedShareLink,
  SHARE_LINKS_PER_USER,
  type ShareLink,
} from "../../shared/share-links";
import { buildApp } from "../app";
import { logSerializers, redactUrl } from "../http/log-serializers";
import { wordsIn } from "../i18n/words";
import { ownJournalId } from "../journals/journals.repo";
import { MemoriesRepo } from "../memories/memories.repo";
import { storeAudioFixture } from "../test/audio-fixtures";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { mailSubject, type SmtpSink, startSmtpSink } from "../test/smtp-sink";
import { fixture, upload, visitorCookie } from "../test/upload-helpers";
import { SHARE_COOKIE } from "./share-cookie";
import { ShareLinksRepo } from "./share-links.repo";

describe.each(DATABASE_KINDS)("private share links (%s)", (kind) => {
  let t: TestApp;
  let sink: SmtpSink;
  let owner: TestUser;
  let other: TestUser;
  let otherPrivate: TestUser;
  let savedId: string;
  let processingId: string;
  let otherPrivateMemoryId: string;
  let audioUrl: string;
  let mp3: Buffer;

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({
      kind,
      env: {
        SMTP_URL: sink.url,
        APP_URL: "https://journal.example.org",
        RATE_LIMIT_SHARE_OPEN_PER_MINUTE: "1000",
        RATE_LIMIT_COMMENTS_PER_HOUR: "1000",
      },
    });
    owner = await createUserWithSession(t, { username: "mia_mum", isPublic: false });
    other = await createUserWithSession(t, { isPublic: true });
    otherPrivate = await createUserWithSession(t, { isPublic: false });
    mp3 = await fixture("tone.mp3");
    const memories = new MemoriesRepo(t.database.db, t.database.kind);
    const audio = await storeAudioFixture(t.database, t.storage, mp3, { userId: owner.user.id });
    const saved = await memories.insert({
      userId: owner.user.id,
      audioId: audio.id,
      status: "saved",
      title: "Mia at the seaside",
      transcript: "We built a sandcastle by the sea.",
    });
    await t.services.audio.attach(audio.id, { kind: "memory", id: saved.id }, t.database.db);
    savedId = saved.id;
    audioUrl = `/api/audio/${audio.id}`;
    processingId = (
      await memories.insert({ userId: owner.user.id, audioId: null, status: "processing" })
    ).id;
    otherPrivateMemoryId = (
      await memories.insert({ userId: otherPrivate.user.id, audioId: null, status: "saved" })
    ).id;
  });
  afterAll(async () => {
    await t.cleanup();
    await sink.close();
  });

  function api(
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    cookie?: string,
    body?: object,
  ) {
    return t.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(body ? { payload: body } : {}),
    });
  }

  async function createLink(label: string, as: TestUser = owner): Promise<CreatedShareLink> {
    const res = await api("POST", "/api/share-links", as.cookie, { label });
    expect(res.statusCode).toBe(201);
    return res.json() as CreatedShareLink;
  }

  /** Opens the link as a fresh browser; answers the `cookie` header it then sends. */
  async function openLink(url: string, cookie?: string): Promise<string> {
    const res = await api("GET", new URL(url).pathname, cookie);
    expect(res.statusCode).toBe(303);
    const set = res.cookies.find((c) => c.name === SHARE_COOKIE);
    expect(set?.httpOnly).toBe(true);
    return `${SHARE_COOKIE}=${set?.value}`;
  }

  /** Every read a link unlocks for the owner's profile, with its status. */
  async function readStatuses(cookie?: string): Promise<Record<string, number>> {
    const urls = {
      profile: `/api/users/${owner.user.username}`,
      list: `/api/users/${owner.user.username}/memories`,
      search: `/api/users/${owner.user.username}/memories/search?q=sandcastle`,
      memory: `/api/memories/${savedId}`,
      owner: `/api/memories/${savedId}/owner`,
      comments: `/api/memories/${savedId}/comments`,
      audio: audioUrl,
    };
    const out: Record<string, number> = {};
    for (const [name, url] of Object.entries(urls))
      out[name] = (await api("GET", url, cookie)).statusCode;
    return out;
  }
  const allVisible = {
    profile: 200,
    list: 200,
    search: 200,
    memory: 200,
    owner: 200,
    comments: 200,
    audio: 200,
  };
  const allHidden = {
    profile: 404,
    list: 404,
    search: 404,
    memory: 404,
    owner: 404,
    comments: 404,
    audio: 404,
  };

  it("creates a named link (201, long random token, label trimmed) and lists it without its url", async () => {
    const before = Date.now();
    const res = await api("POST", "/api/share-links", owner.cookie, { label: "  Grandma  " });
    expect(res.statusCode).toBe(201);
    const created = res.json() as CreatedShareLink;
    expect(created).toMatchObject({ label: "Grandma", lastUsedAt: null, visits: 0, mailed: false });
    expect(created.url).toMatch(/^https:\/\/journal\.example\.org\/s\/[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(res.headers["cache-control"]).toBe("no-store");

    const second = await createLink("Uncle Joe");
    expect(second.url).not.toBe(created.url);

    const list = (await api("GET", "/api/share-links", owner.cookie)).json() as ShareLink[];
    expect(list.map((l) => l.label)).toEqual(
      ["Uncle Joe", "Grandma"].filter((l) => list.some((x) => x.label === l)),
    );
    const grandma = list.find((l) => l.id === created.id);
    expect(grandma).toEqual({
      id: created.id,
      label: "Grandma",
      createdAt: created.createdAt,
      lastUsedAt: null,
      visits: 0,
      subscribers: [],
    });
    expect(JSON.stringify(list)).not.toContain(new URL(created.url).pathname.slice(3));
    // Only the hash is stored.
    const rows = await new ShareLinksRepo(t.database.db).listForJournal(
      ownJournalId(owner.user.id),
    );
    expect(JSON.stringify(rows)).not.toContain(new URL(created.url).pathname.slice(3));
    // Someone else sees only their own links.
    expect((await api("GET", "/api/share-links", other.cookie)).json()).toEqual([]);
  });

  it("names a memory's owner to a link holder and the owner, and to nobody else", async () => {
    await t.database.db
      .updateTable("users")
      .set({ display_name: "Mia's Mum" })
      .where("id", "=", owner.user.id)
      .execute();
    const cookie = await openLink((await createLink("Cousin")).url);
    const expected = { owner: { username: owner.user.username, displayName: "Mia's Mum" } };
    for (const as of [cookie, owner.cookie]) {
      const res = await api("GET", `/api/memories/${savedId}/owner`, as);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(expected);
    }
    expect((await api("GET", `/api/memories/${savedId}/owner`, other.cookie)).statusCode).toBe(404);
    // The profile tells the relative's browser it came through a link (for its welcome).
    const profile = `/api/users/${owner.user.username}`;
    expect((await api("GET", profile, cookie)).json()).toMatchObject({ sharedWithYou: true });
    expect((await api("GET", profile, owner.cookie)).json()).toMatchObject({
      sharedWithYou: false,
    });
    // Every page of the relative's browser greets them by whose memories they hear; no one else's.
    expect((await api("GET", "/api/shared-with-me", cookie)).json()).toEqual({
      owners: [{ username: owner.user.username, displayName: "Mia's Mum" }],
    });
    expect((await api("GET", "/api/shared-with-me", owner.cookie)).json()).toEqual({ owners: [] });
    expect((await api("GET", `/api/memories/${processingId}/owner`, cookie)).statusCode).toBe(404);
  });

  it.each([
    ["a blank label", { label: "   " }, "body.label"],
    ["no label", {}, "body.label"],
    ["a label of 61 characters", { label: "x".repeat(61) }, "body.label"],
    ["a malformed email", { label: "Gran", email: "not-an-address" }, "body.email"],
    ["a label that is not text", { label: 42 }, "body.label"],
  ])("refuses %s with 400 naming the field, creating nothing", async (_, body, field) => {
    const before = (await api("GET", "/api/share-links", owner.cookie)).json() as ShareLink[];
    const res = await api("POST", "/api/share-links", owner.cookie, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "invalid_value", field });
    expect((await api("GET", "/api/share-links", owner.cookie)).json()).toEqual(before);
  });

  it("needs a logged-in owner to create, list or revoke (401), and refuses other sites (403)", async () => {
    expect((await api("POST", "/api/share-links", undefined, { label: "Gran" })).statusCode).toBe(
      401,
    );
    expect((await api("GET", "/api/share-links")).statusCode).toBe(401);
    expect((await api("DELETE", "/api/share-links/abc")).statusCode).toBe(401);
    const crossSite = await t.app.inject({
      method: "POST",
      url: "/api/share-links",
      headers: { cookie: owner.cookie, origin: "https://evil.example" },
      payload: { label: "Gran" },
    });
    expect(crossSite.statusCode).toBe(403);
  });

  it("opening a link redirects to the profile without the token, counts the visit and sets no referrer", async () => {
    const link = await createLink("Auntie");
    const token = new URL(link.url).pathname.slice(3);
    const head = await t.app.inject({ method: "HEAD", url: `/s/${token}` });
    expect(head.statusCode).not.toBe(303);
    expect(head.cookies.find((c) => c.name === SHARE_COOKIE)).toBeUndefined();
    const res = await api("GET", `/s/${token}`);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/profile/${owner.user.username}`);
    expect(res.headers.location).not.toContain(token);
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(res.headers["cache-control"]).toBe("no-store");
    const cookie = res.cookies.find((c) => c.name === SHARE_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });

    const listed = (
      (await api("GET", "/api/share-links", owner.cookie)).json() as ShareLink[]
    ).find((l) => l.id === link.id);
    expect(listed?.visits).toBe(1);
    expect(listed?.lastUsedAt).not.toBeNull();
  });

  it("without a link a private profile is hidden; with one it reads as public: list, search, memory, audio, comments", async () => {
    expect(await readStatuses()).toEqual(allHidden);
    expect(await readStatuses(other.cookie)).toEqual(allHidden);
    const cookie = await openLink((await createLink("Grandpa")).url);
    expect(await readStatuses(cookie)).toEqual(allVisible);
    const profile = (
      await api("GET", `/api/users/${owner.user.username}`, cookie)
    ).json() as PublicProfile;
    expect(profile).toMatchObject({ username: owner.user.username, isPublic: false });
    expect(profile).not.toHaveProperty("email");
    const search = (
      await api("GET", `/api/users/${owner.user.username}/memories/search?q=sandcastle`, cookie)
    ).json() as { items: Memory[] };
    expect(search.items.map((m) => m.id)).toEqual([savedId]);
    // A logged-in user of another account gets the same access through the link.
    expect(await readStatuses(`${other.cookie}; ${cookie}`)).toEqual(allVisible);
  });

  it("lets a link holder leave a spoken comment under their name", async () => {
    const shareCookie = await openLink((await createLink("Nana")).url);
    const uploaded = await upload(t, mp3, { cookie: shareCookie });
    expect(uploaded.statusCode).toBe(201);
    const cookie = `${shareCookie}; ${visitorCookie(uploaded)}`;
    const res = await api("POST", `/api/memories/${savedId}/comments`, cookie, {
      commenterName: "Nana",
      audioUrl: uploaded.json().url,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ commenterName: "Nana" });
    // Without the link the same browser cannot.
    const again = await upload(t, mp3, { cookie: visitorCookie(uploaded) });
    const refused = await api(
      "POST",
      `/api/memories/${savedId}/comments`,
      visitorCookie(uploaded),
      {
        commenterName: "Nana",
        audioUrl: again.json().url,
      },
    );
    expect(refused.statusCode).toBe(404);
  });

  it("unlocks nothing else: no edits, tags, deletes, retries, comment removal, backup, book, links, other profiles, unsaved memories", async () => {
    const cookie = await openLink((await createLink("Cousin")).url);
    const before = (await api("GET", `/api/memories/${savedId}`, owner.cookie)).json() as Memory;
    const edit = { ...before, title: "Hacked", tags: ["hacked"] };
    const asLinkOnly = [
      ["PUT", `/api/memories/${savedId}`, edit],
      ["DELETE", `/api/memories/${savedId}`],
      ["POST", `/api/memories/${savedId}/retry`],
      ["GET", "/api/backup-memories"],
      ["GET", "/api/memory-book"],
      ["GET", "/api/memories"],
      ["GET", "/api/memories/search?q=sandcastle"],
      ["GET", "/api/share-links"],
      ["POST", "/api/share-links", { label: "More" }],
      ["POST", "/api/user/visibility", { isPublic: true }],
      ["PATCH", "/api/user", { displayName: "Hacked" }],
    ] as const;
    for (const [method, url, body] of asLinkOnly) {
      const res = await t.app.inject({
        method,
        url,
        headers: { cookie },
        ...(body ? { payload: body } : {}),
      });
      expect([401, 403, 404], `${method} ${url}`).toContain(res.statusCode);
    }
    // A logged-in user holding the link may not edit or delete either.
    const both = `${other.cookie}; ${cookie}`;
    expect((await api("PUT", `/api/memories/${savedId}`, both, edit)).statusCode).toBe(403);
    expect((await api("DELETE", `/api/memories/${savedId}`, both)).statusCode).toBe(403);
    const comments = (
      await api("GET", `/api/memories/${savedId}/comments`, owner.cookie)
    ).json() as {
      id: string;
    }[];
    if (comments[0]) {
      const removal = await api(
        "DELETE",
        `/api/memories/${savedId}/comments/${comments[0].id}`,
        both,
      );
      expect(removal.statusCode).toBe(403);
    }
    expect((await api("GET", `/api/memories/${savedId}`, owner.cookie)).json()).toEqual(before);
    // Nothing of other profiles, nor the owner's memories that are not saved.
    expect((await api("GET", `/api/users/${otherPrivate.user.username}`, cookie)).statusCode).toBe(
      404,
    );
    expect((await api("GET", `/api/memories/${otherPrivateMemoryId}`, cookie)).statusCode).toBe(
      404,
    );
    expect((await api("GET", `/api/memories/${processingId}`, cookie)).statusCode).toBe(404);
    const list = (
      await api("GET", `/api/users/${owner.user.username}/memories`, cookie)
    ).json() as {
      items: Memory[];
    };
    expect(list.items.map((m) => m.id)).toEqual([savedId]);
  });

  it("keeps working when the profile turns public and private again", async () => {
    const cookie = await openLink((await createLink("Godmother")).url);
    for (const isPublic of [true, false]) {
      const res = await api("POST", "/api/user/visibility", owner.cookie, { isPublic });
      expect(res.statusCode).toBe(200);
      expect(await readStatuses(cookie)).toEqual(allVisible);
    }
    expect(await readStatuses()).toEqual(allHidden);
  });

  it("revoking ends access at once for every browser that opened the link, answering 404 like a private profile", async () => {
    const link = await createLink("Grandma again");
    const first = await openLink(link.url);
    const second = await openLink(link.url);
    const keep = await createLink("Still here");
    expect(await readStatuses(first)).toEqual(allVisible);

    expect((await api("DELETE", `/api/share-links/${link.id}`, other.cookie)).statusCode).toBe(404);
    expect(await readStatuses(first)).toEqual(allVisible);
    const revoked = await api("DELETE", `/api/share-links/${link.id}`, owner.cookie);
    expect(revoked.statusCode).toBe(204);
    expect(await readStatuses(first)).toEqual(allHidden);
    expect(await readStatuses(second)).toEqual(allHidden);
    const asRevoked = await api("GET", `/api/users/${owner.user.username}`, first);
    const asNobody = await api("GET", "/api/users/no_such_user_here");
    expect(asRevoked.statusCode).toBe(asNobody.statusCode);
    expect(asRevoked.json()).toEqual(asNobody.json());
    expect(asRevoked.json()).toEqual({
      code: "profile.not_found",
      message: MESSAGES.profileNotFound,
    });
    expect((await api("DELETE", `/api/share-links/${link.id}`, owner.cookie)).statusCode).toBe(404);
    const ids = ((await api("GET", "/api/share-links", owner.cookie)).json() as ShareLink[]).map(
      (l) => l.id,
    );
    expect(ids).not.toContain(link.id);
    expect(ids).toContain(keep.id);
    // Opening it again is answered like a missing profile.
    const token = new URL(link.url).pathname.slice(3);
    const reopened = await api("GET", `/s/${token}`);
    const missing = await api("GET", "/profile/no_such_user_here");
    expect(reopened.statusCode).toBe(missing.statusCode);
    expect(reopened.body).toBe(missing.body);
    expect(reopened.cookies.find((c) => c.name === SHARE_COOKIE)).toBeUndefined();
  });

  it.each([
    ["a wrong token", "A".repeat(43)],
    ["a malformed token", "short"],
    ["an over-long token", "B".repeat(500)],
  ])("answers %s exactly like a missing profile", async (_, token) => {
    const res = await api("GET", `/s/${token}`);
    const missing = await api("GET", "/profile/no_such_user_here");
    expect(res.statusCode).toBe(missing.statusCode);
    expect(res.body).toBe(missing.body);
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(res.cookies.find((c) => c.name === SHARE_COOKIE)).toBeUndefined();
    // A forged cookie grants nothing either.
    expect(await readStatuses(`${SHARE_COOKIE}=${token}`)).toEqual(allHidden);
  });

  it("mails a link to a relative's address; the mailed link works and is not logged", async () => {
    const res = await api("POST", "/api/share-links", owner.cookie, {
      label: "Grandma Rose",
      email: "rose@example.org",
    });
    expect(res.statusCode).toBe(201);
    const created = res.json() as CreatedShareLink;
    expect(created.mailed).toBe(true);
    const mail = await sink.waitFor((m) => m.to.includes("rose@example.org"));
    // The app shows the answer's url; the mail holds that very address on a line of its own.
    expect(mail.text.split(/\r?\n/)).toContain(created.url);
    expect(mailSubject(mail)).toBe("Mia's Mum's memories were shared with you");
    expect(mail.text).toContain(
      "Open this link to listen to them and leave a spoken comment (no account needed):",
    );
    expect(await readStatuses(await openLink(created.url))).toEqual(allVisible);
  });

  it("mails a link in the journal's language, and the address's news will follow it", async () => {
    const journal = ownJournalId(owner.user.id);
    const setLanguage = (language: string) =>
      t.database.db.updateTable("journals").set({ language }).where("id", "=", journal).execute();
    await setLanguage("es");
    try {
      const res = await api("POST", "/api/share-links", owner.cookie, {
        label: "Abuela",
        email: "abuela@example.org",
      });
      expect(res.statusCode).toBe(201);
      const words = wordsIn("es").SHARE_LINK_MAIL;
      const mail = await sink.waitFor((m) => m.to.includes("abuela@example.org"));
      expect(mailSubject(mail)).toBe(formatMessage(words.subject, { name: "Mia's Mum" }, "es"));
      const lines = mail.text.split(/\r?\n/);
      expect(lines).toContain(wordsIn("es").MAIL_WORDS.hello);
      expect(lines).toContain(formatMessage(words.shared, { name: "Mia's Mum" }, "es"));
      expect(lines).toContain(words.keep);
      const subscription = await t.database.db
        .selectFrom("share_link_subscriptions")
        .select("language")
        .where("email", "=", "abuela@example.org")
        .executeTakeFirstOrThrow();
      expect(subscription.language).toBe("es");
    } finally {
      await setLanguage("en");
    }
  });

  it("updates lastUsedAt while a browser uses the link", async () => {
    const link = await createLink("Uncle Sam");
    const cookie = await openLink(link.url);
    const repo = new ShareLinksRepo(t.database.db);
    const row = (await repo.listForJournal(ownJournalId(owner.user.id))).find(
      (l) => l.id === link.id,
    );
    // As if last used two minutes ago: the next request marks it used again.
    const past = new Date(Date.now() - 120_000).toISOString();
    // `since` lies ahead: opening the link may have stamped this very millisecond.
    await repo.touch([link.id], past, new Date(Date.now() + 60_000).toISOString());
    expect(
      (await repo.listForJournal(ownJournalId(owner.user.id))).find((l) => l.id === link.id)
        ?.last_used_at,
    ).toBe(past);
    await api("GET", `/api/users/${owner.user.username}`, cookie);
    const after = (await repo.listForJournal(ownJournalId(owner.user.id))).find(
      (l) => l.id === link.id,
    );
    expect(Date.parse(after?.last_used_at ?? "")).toBeGreaterThan(Date.parse(past));
    expect(Number(after?.visits)).toBe(Number(row?.visits));
  });

  it("deleting the account deletes its links and ends every grant", async () => {
    const leaving = await createUserWithSession(t, { isPublic: false });
    const link = await createLink("Grandma", leaving);
    const cookie = await openLink(link.url);
    expect((await api("GET", `/api/users/${leaving.user.username}`, cookie)).statusCode).toBe(200);
    const res = await api("DELETE", "/api/user", leaving.cookie, {
      confirm: "delete",
      currentPassword: leaving.password,
    });
    expect(res.statusCode).toBe(200);
    expect(
      await new ShareLinksRepo(t.database.db).listForJournal(ownJournalId(leaving.user.id)),
    ).toEqual([]);
    expect((await api("GET", `/api/users/${leaving.user.username}`, cookie)).statusCode).toBe(404);
    const reopened = await api("GET", new URL(link.url).pathname);
    expect(reopened.statusCode).toBe((await api("GET", "/profile/no_such_user_here")).statusCode);
  });

  it(`refuses more than ${SHARE_LINKS_PER_USER} links per account with 409`, async () => {
    const busy = await createUserWithSession(t);
    const repo = new ShareLinksRepo(t.database.db);
    for (let i = 0; i < SHARE_LINKS_PER_USER; i++) {
      await repo.create({
        id: `busy-${kind}-${i}`,
        user_id: busy.user.id,
        journal_id: ownJournalId(busy.user.id),
        token_hash: `hash-${kind}-${i}`,
        label: `Link ${i}`,
        created_at: new Date().toISOString(),
      });
    }
    const res = await api("POST", "/api/share-links", busy.cookie, { label: "One more" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: "share.too_many",
      message: ERROR_MESSAGES["share.too_many"],
    });
  });
});

describe("share links are rate-limited and never logged", () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await createTestApp({
      env: { RATE_LIMIT_SHARE_OPEN_PER_MINUTE: "3", RATE_LIMIT_SHARE_LINKS_PER_HOUR: "2" },
    });
    owner = await createUserWithSession(t, { isPublic: false });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("limits opening links per address, right or wrong (429 with Retry-After)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await t.app.inject({ method: "GET", url: `/s/${"C".repeat(43)}` })).statusCode,
      );
    }
    expect(statuses.slice(0, 3)).toEqual([404, 404, 404]);
    const limited = await t.app.inject({ method: "GET", url: `/s/${"D".repeat(43)}` });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBeDefined();
    expect(statuses[3]).toBe(429);
  });

  it("limits making links per account", async () => {
    const make = () =>
      t.app.inject({
        method: "POST",
        url: "/api/share-links",
        headers: { cookie: owner.cookie },
        payload: { label: "Gran" },
      });
    expect((await make()).statusCode).toBe(201);
    expect((await make()).statusCode).toBe(201);
    expect((await make()).statusCode).toBe(429);
  });

  it("keeps tokens out of the request log", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = pino({ level: "trace", serializers: logSerializers }, stream);
    const logged = await createTestApp({ env: { RATE_LIMIT_SHARE_OPEN_PER_MINUTE: "100" } });
    const app = await buildApp({ config: logged.config, services: logged.services, logger });
    try {
      const user = await createUserWithSession(logged, { isPublic: false });
      const created = await app.inject({
        method: "POST",
        url: "/api/share-links",
        headers: { cookie: user.cookie },
        payload: { label: "Gran" },
      });
      const token = new URL(created.json().url).pathname.slice(3);
      const opened = await app.inject({ method: "GET", url: `/s/${token}?x=1` });
      expect(opened.statusCode).toBe(303);
      await app.inject({ method: "GET", url: `/s/${token.slice(1)}x` });
      await app.inject({ method: "GET", url: "/reset-password?token=secret-reset-token" });
      const log = lines.join("");
      expect(log).toContain("/api/share-links");
      expect(log).not.toContain(token);
      expect(log).not.toContain(token.slice(1, 40));
      expect(log).not.toContain("secret-reset-token");
    } finally {
      await app.close();
      await logged.cleanup();
    }
  });

  it("redacts share and reset tokens from URLs", () => {
    expect(redactUrl("/s/abcDEF_-123?x=1")).toBe("/s/[redacted]?x=1");
    expect(redactUrl("/S/abc")).toBe("/s/[redacted]");
    expect(redactUrl("/api/reminders/unsubscribe?u=abc&t=sig_-1")).toBe(
      "/api/reminders/unsubscribe?u=abc&t=[redacted]",
    );
    expect(redactUrl("/reset-password?token=abc&y=2")).toBe("/reset-password?token=[redacted]&y=2");
    expect(redactUrl("/profile/mia")).toBe("/profile/mia");
  });
});
