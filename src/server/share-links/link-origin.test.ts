import { execFile } from "node:child_process";
import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatMessage } from "../../shared/i18n/format";
import type { Memory } from "../../shared/schemas";
import { type CreatedShareLink, SHARE_MESSAGES } from "../../shared/share-links";
import { newId } from "../ids";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, makeTempDir, type TestApp } from "../test/harness";
import { mailHeader, type SmtpSink, startSmtpSink } from "../test/smtp-sink";
import { fixture, upload } from "../test/upload-helpers";
import { RELATIVE_NEWS_JOB } from "./relative-news.service";

const run = promisify(execFile);
/** The address the owner opened the app at: the server's on the home network. */
const LAN = "192.168.1.20:5202";
const LAN_URL = `http://${LAN}`;

/** The QR codes of a memory book's first memory page, decoded (pdftoppm, then zbarimg). */
async function firstCode(dir: string, pdf: Buffer): Promise<string> {
  const base = path.join(dir, newId());
  await writeFile(`${base}.pdf`, pdf);
  await run("pdftoppm", ["-r", "150", "-png", "-f", "3", "-l", "3", `${base}.pdf`, base]);
  const image = (await readdir(dir)).find(
    (name) => name.startsWith(path.basename(base)) && name.endsWith(".png"),
  );
  const { stdout } = await run("zbarimg", ["--raw", "-q", path.join(dir, image ?? "")]);
  return stdout.trim();
}

describe.each(DATABASE_KINDS)("links without APP_URL, on the address in use (%s)", (kind) => {
  let t: TestApp;
  let sink: SmtpSink;
  let owner: TestUser;

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({
      kind,
      env: { SMTP_URL: sink.url, PORT: "5202", RELATIVE_DIGEST_MINUTES: "60" },
    });
    owner = await createUserWithSession(t, { username: "lan_owner", isPublic: false });
  });
  afterAll(async () => {
    await t.cleanup();
    await sink.close();
  });
  beforeEach(() => {
    sink.messages.length = 0;
  });

  const onLan = (method: "GET" | "POST", url: string, body?: object, headers = {}) =>
    t.app.inject({
      method,
      url,
      headers: { host: LAN, cookie: owner.cookie, ...headers },
      ...(body ? { payload: body } : {}),
    });

  it("tells the page the address links are built on: the one in use, not a forged X-Forwarded-Host", async () => {
    const info = await onLan("GET", "/api/app-info", undefined, {
      "x-forwarded-host": "attacker.example",
      "x-forwarded-proto": "https",
    });
    expect(info.json()).toMatchObject({ linkBase: LAN_URL });
    const local = await t.app.inject({
      method: "GET",
      url: "/api/app-info",
      headers: { host: "localhost:5202" },
    });
    expect(local.json()).toMatchObject({ linkBase: "http://localhost:5202" });
  });

  it("shows, mails and remembers a share link on that address; relatives' news mailed later uses it too", async () => {
    const res = await onLan("POST", "/api/share-links", {
      label: "Grandpa",
      email: "grandpa@lan.example",
    });
    expect(res.statusCode).toBe(201);
    const link = res.json() as CreatedShareLink;
    expect(link.url).toMatch(new RegExp(`^${LAN_URL}/s/[A-Za-z0-9_-]{43}$`));
    const invitation = sink.messages.find((m) => m.to.includes("grandpa@lan.example"));
    expect(invitation?.text.split(/\r?\n/)).toContain(link.url);
    expect(invitation?.text).not.toContain("localhost");

    // A memory saved later (from any address): the news job mails through the remembered one.
    const uploaded = await upload(t, await fixture("tone.mp3"), { cookie: owner.cookie });
    const saved = await t.app.inject({
      method: "POST",
      url: "/api/memories",
      headers: { cookie: owner.cookie },
      payload: {
        audioUrl: uploaded.json().url,
        title: "The harvest",
        transcript: "A story.",
        summary: "A story.",
        recordedAt: new Date().toISOString(),
      },
    });
    const memory = saved.json() as Memory;
    sink.messages.length = 0;
    await t.database.db
      .updateTable("jobs")
      .set({ run_after: new Date(Date.now() - 1).toISOString() })
      .where("kind", "=", RELATIVE_NEWS_JOB)
      .execute();
    await t.services.worker.drain();
    const news = sink.messages.find((m) =>
      m.text.includes(formatMessage(SHARE_MESSAGES.newsMailIntro, { name: owner.user.username })),
    );
    expect(news?.text).toContain(`${link.url}/${memory.id}`);
    if (!news) throw new Error("no news mail");
    expect(mailHeader(news, "List-Unsubscribe")).toMatch(
      new RegExp(`^<${LAN_URL}/api/relative-news/unsubscribe\\?`),
    );
    expect(news.text).not.toContain("localhost");
  });

  it("mails reminders with links on the address the owner saved them at; a password reset stays on the configured one", async () => {
    const teller = await createUserWithSession(t, { email: "teller@lan.example" });
    const saved = await t.app.inject({
      method: "PUT",
      url: "/api/reminders",
      headers: { host: LAN, cookie: teller.cookie },
      payload: {
        weekly: { enabled: true, weekday: 1, hour: 9, timeZone: "UTC" },
        specialDays: [],
      },
    });
    expect(saved.statusCode).toBe(200);
    // As if saved long before the Monday below (the address saved with them is kept).
    await t.services.reminders.save(
      teller.user.id,
      { weekly: { enabled: true, weekday: 1, hour: 9, timeZone: "UTC" }, specialDays: [] },
      new Date("2026-01-01T00:00:00Z"),
    );
    sink.messages.length = 0;
    expect(await t.services.reminders.sendDue(new Date("2026-03-02T09:00:00Z"))).toBe(1);
    const reminder = sink.messages.find((m) => m.to.includes("teller@lan.example"));
    if (!reminder) throw new Error("no reminder mail");
    expect(reminder.text).toContain(`${LAN_URL}/?question=`);
    expect(reminder.text).toContain(`${LAN_URL}/unsubscribe?`);
    expect(mailHeader(reminder, "List-Unsubscribe")).toMatch(
      new RegExp(`^<${LAN_URL}/api/reminders/unsubscribe\\?`),
    );
    expect(reminder.text).not.toContain("localhost");

    // Asked for from the same address, a password reset still uses only the configured one.
    sink.messages.length = 0;
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/forgot-password",
      headers: { host: LAN },
      payload: { email: "teller@lan.example" },
    });
    expect(reset.statusCode).toBe(200);
    const resetMail = await sink.waitFor((m) => m.to.includes("teller@lan.example"));
    expect(resetMail.text).toContain("http://localhost:5202/reset-password?token=");
    expect(resetMail.raw).not.toContain(LAN);
  });

  it("prints the memory book's QR codes on that address", async () => {
    const res = await onLan("GET", "/api/memory-book");
    expect(res.statusCode).toBe(200);
    const code = await firstCode(await makeTempDir(), res.rawPayload);
    expect(code).toMatch(new RegExp(`^${LAN_URL}/s/[A-Za-z0-9_-]{43}/`));
  });
});

describe("links without APP_URL behind a trusted proxy", () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ env: { PORT: "5202", TRUST_PROXY: "true" } });
    owner = await createUserWithSession(t, { isPublic: false });
  });
  afterAll(() => t.cleanup());

  it("builds them on the proxy's X-Forwarded-Host and -Proto", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/share-links",
      headers: {
        host: "127.0.0.1:5202",
        cookie: owner.cookie,
        "x-forwarded-host": "journal.family.example",
        "x-forwarded-proto": "https",
      },
      payload: { label: "Aunt" },
    });
    expect(res.statusCode).toBe(201);
    expect((res.json() as CreatedShareLink).url).toMatch(
      /^https:\/\/journal\.family\.example\/s\//,
    );
  });
});
