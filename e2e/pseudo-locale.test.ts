import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testJpeg } from "../src/server/test/image-fixtures";
import { resetTokenFrom, type SmtpSink, startSmtpSink } from "../src/server/test/smtp-sink";
import { DELETE_CONFIRMATION_WORD } from "../src/shared/constants";
import { APP_CATALOGUES } from "../src/shared/i18n/catalogues";
import { formatMessage, type MessageValues } from "../src/shared/i18n/format";
import { LANGUAGE_NAMES } from "../src/shared/i18n/languages";
import type { Journal, Member, Memory } from "../src/shared/schemas";
import type { CreatedShareLink } from "../src/shared/share-links";
import { ApiClient } from "./api-client";
import { type JourneySetup, seedMemory, startJourney } from "./fixtures";
import { addClientCookies } from "./harness";

/**
 * Every word the browser shows comes from the catalogues: with a pseudo language whose every
 * message is wrapped in ⟦…⟧, no letters may reach the screen (text, accessible names,
 * placeholders, titles) outside the markers, except the family's own data, the dates Intl writes
 * and the languages' own names.
 */

/** The page's language; its words are the pseudo ones. German, so Intl writes German dates. */
const LANGUAGE = "de";
const OPEN = "⟦";
const CLOSE = "⟧";

function pseudo(value: unknown): unknown {
  if (typeof value === "string") return `${OPEN}${value}${CLOSE}`;
  if (Array.isArray(value)) return value.map(pseudo);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, word]) => [key, pseudo(word)]));
  }
  return value;
}

const PSEUDO = pseudo(APP_CATALOGUES) as typeof APP_CATALOGUES;
const { MESSAGES, JOURNAL_MESSAGES, SHARE_MESSAGES, MEMORY_BOOK, PHOTO_MESSAGES } = PSEUDO;
/** A pseudo message with its values, as the page writes it. */
const say = (message: string, values: MessageValues = {}) =>
  formatMessage(message, values, LANGUAGE);

// The family's own words, which the page shows as they are.
const OWNER = "rosa_pseudo";
const PASSWORD = "a long enough password";
const OWNER_EMAIL = "rosa@example.org";
const PRIVATE_USER = "hidden_pseudo";
const TITLE = "Picnic by the lake";
const TRANSCRIPT = "We carried the basket down to the lake and ate under the willow.";
const SUMMARY = "The picnic by the lake. You fed the ducks, my love.";
const TAG = "picnic";
const RELATIVE = "Oma Ilse";
const STORYTELLER = "Opa Karl";
const LINK_LABEL = "Grandma";

/** Letters outside the markers, found by `scan`: where, and the text. */
interface Leak {
  where: string;
  text: string;
}

describe("every word on every page comes from the catalogues (pseudo language)", () => {
  let journey: JourneySetup;
  let smtp: SmtpSink;
  let owner: ApiClient;
  let memory: Memory;
  let journal: Journal;
  let shareLink: CreatedShareLink;
  let joinLink: string;
  let recordingLink: string;
  let photoPath: string;
  const leaks: Leak[] = [];
  const failures: string[] = [];
  let chunksServed = 0;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    journey = await startJourney({ name: "pseudo-locale", env: { SMTP_URL: smtp.url } });
    const { server } = journey;
    owner = new ApiClient(server.url);
    await owner.register(OWNER, PASSWORD);
    expect(
      (await owner.request("PATCH", "/api/user", { email: OWNER_EMAIL, currentPassword: PASSWORD }))
        .status,
    ).toBe(200);
    const hidden = new ApiClient(server.url);
    await hidden.register(PRIVATE_USER);
    await hidden.request("POST", "/api/user/visibility", { isPublic: false });
    memory = await seedMemory(owner, {
      title: TITLE,
      transcript: TRANSCRIPT,
      summary: SUMMARY,
      tags: [TAG],
    });
    photoPath = path.join(journey.workDir, "lake.jpg");
    await writeFile(photoPath, await testJpeg(1200, 900));
    const journals = await owner.json<Journal[]>("GET", "/api/journals");
    journal = journals.data[0] as Journal;
    const storyteller = await owner.json<Member>("POST", `/api/journals/${journal.id}/members`, {
      name: STORYTELLER,
      role: "storyteller",
      // The link page speaks its storyteller's language (ADR 0068): the pseudo one's.
      language: LANGUAGE,
    });
    expect(storyteller.status).toBe(201);
    const link = await owner.json<{ url: string }>(
      "POST",
      `/api/journals/${journal.id}/members/${storyteller.data.id}/recording-link`,
    );
    expect(link.status).toBe(201);
    recordingLink = link.data.url;
    const invited = await owner.json<Member>("POST", `/api/journals/${journal.id}/members`, {
      name: RELATIVE,
      role: "relative",
      email: "ilse@example.org",
    });
    expect(invited.status).toBe(201);
    const mail = await smtp.waitFor((m) => m.to.includes("ilse@example.org"));
    joinLink = /https?:\/\/\S+\/join\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0] ?? "";
    const created = await owner.json<CreatedShareLink>("POST", "/api/share-links", {
      label: LINK_LABEL,
    });
    expect(created.status).toBe(201);
    shareLink = created.data;
  });
  afterAll(async () => {
    await journey?.close();
    await smtp?.close();
  });

  /** The family's data and what else may be shown as it is. */
  const knownData = () => [
    TITLE,
    TRANSCRIPT,
    SUMMARY,
    TAG,
    `#${TAG}`,
    OWNER,
    PRIVATE_USER,
    OWNER_EMAIL,
    RELATIVE,
    STORYTELLER,
    LINK_LABEL,
    journal.name,
    "ilse@example.org",
    journey.server.url,
    // The feature-request address the server is configured with.
    "hello@example.com",
    // The word a typed deletion asks for, the same in every language (the server checks it too).
    DELETE_CONFIRMATION_WORD,
    // The storyteller's link page asks the week's question as the server writes it in the
    // storyteller's language (German here, whose file the pseudo words stand in for).
    ...(
      JSON.parse(
        readFileSync(
          path.join(import.meta.dirname, `../src/shared/i18n/locales/${LANGUAGE}.json`),
          "utf8",
        ),
      ) as { QUESTIONS: string[] }
    ).QUESTIONS,
    // Each language's name in itself, in the language switcher.
    ...Object.values(LANGUAGE_NAMES),
  ];

  /** A browser page speaking the pseudo language, its words served in place of German's. */
  async function pseudoPage(loggedIn: boolean): Promise<{ context: BrowserContext; page: Page }> {
    const context = await journey.browser.newContext({
      locale: LANGUAGE,
      serviceWorkers: "block",
      viewport: { width: 1280, height: 900 },
    });
    await context.route(/\/assets\/de-[A-Za-z0-9_-]{8}\.js$/, async (route) => {
      chunksServed++;
      await route.fulfill({
        contentType: "text/javascript",
        body: `export default ${JSON.stringify(PSEUDO)};`,
      });
    });
    if (loggedIn) await addClientCookies(context, journey.server.url, owner.cookieHeader());
    // A step that cannot find what it looks for says so soon, and the next step runs.
    context.setDefaultTimeout(5_000);
    return { context, page: await context.newPage() };
  }

  /** Finds letters outside the markers on the page as it is now. */
  async function scan(page: Page, where: string) {
    await page.waitForLoadState("networkidle");
    const found = await page.evaluate(
      ({ open, close, known }) => {
        const locale = document.documentElement.lang;
        // The words Intl writes in dates: month and weekday names, "um" before the time.
        const dateWords = new Set<string>();
        for (let month = 0; month < 12; month++) {
          const day = new Date(Date.UTC(2024, month, 3 + month, 14, 5));
          for (const options of [
            { dateStyle: "long", timeStyle: "short" },
            { dateStyle: "full" },
            { month: "long" },
            { month: "short" },
            { weekday: "long" },
            { weekday: "short" },
          ] as Intl.DateTimeFormatOptions[]) {
            for (const word of new Intl.DateTimeFormat(locale, options)
              .format(day)
              .split(/[^\p{L}]+/u))
              if (word) dateWords.add(word);
          }
        }
        for (let day = 0; day < 7; day++) {
          const date = new Date(Date.UTC(2024, 5, 2 + day, 12));
          for (const weekday of ["long", "short"] as const)
            dateWords.add(new Intl.DateTimeFormat(locale, { weekday }).format(date));
        }
        const leaks: { where: string; text: string }[] = [];
        const outside = (text: string, depthStart: number): [string, number] => {
          let depth = depthStart;
          let out = "";
          for (const char of text) {
            if (char === open) depth++;
            else if (char === close) depth = Math.max(0, depth - 1);
            else if (depth === 0) out += char;
            else out += " ";
          }
          return [out, depth];
        };
        const letters = (text: string, extra: string[] = []) => {
          let rest = text;
          // Longest first, so a name inside a longer datum ("rosa's journal") leaves nothing.
          for (const word of [...known, ...extra].sort((a, b) => b.length - a.length))
            rest = rest.split(word).join(" ");
          const left = rest.split(/[^\p{L}]+/u).filter((word) => word && !dateWords.has(word));
          return left.length ? rest.replace(/\s+/g, " ").trim() : "";
        };
        const describe = (element: Element) => {
          const id = element.id ? `#${element.id}` : "";
          const test = element.getAttribute("data-testid");
          return `${element.tagName.toLowerCase()}${id}${test ? `[${test}]` : ""}`;
        };
        // Text, in document order: a message split around an element still counts as inside.
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        let depth = 0;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const parent = node.parentElement;
          if (!parent || parent.closest("script,style,noscript,template")) continue;
          const inSelect = parent.closest("select");
          if (!inSelect && !parent.checkVisibility({ visibilityProperty: true })) continue;
          const [out, after] = outside(node.textContent ?? "", depth);
          depth = after;
          // A time zone's city comes from its IANA name ("Africa/Dar_es_Salaam").
          const zone = parent instanceof HTMLOptionElement && parent.value.includes("/");
          const left = letters(out, zone ? (parent as HTMLOptionElement).value.split(/[/_]/) : []);
          if (left) leaks.push({ where: describe(parent), text: (node.textContent ?? "").trim() });
        }
        const attributes = ["aria-label", "placeholder", "title", "alt", "aria-description"];
        for (const element of document.body.querySelectorAll("*")) {
          if (!element.checkVisibility({ visibilityProperty: true })) continue;
          for (const name of attributes) {
            const value = element.getAttribute(name);
            if (!value) continue;
            const left = letters(outside(value, 0)[0]);
            if (left) leaks.push({ where: `${describe(element)} @${name}`, text: value });
          }
        }
        const title = letters(outside(document.title, 0)[0]);
        if (title) leaks.push({ where: "document.title", text: document.title });
        return leaks;
      },
      { open: OPEN, close: CLOSE, known: knownData() },
    );
    for (const leak of found) {
      // Each leak once, where it was first seen (the top bar's is on every page).
      const seen = leaks.some((l) => l.text === leak.text && l.where.endsWith(`: ${leak.where}`));
      if (!seen) leaks.push({ where: `${where}: ${leak.where}`, text: leak.text });
    }
    return found;
  }

  /** Runs one step; a step that cannot go on is reported, and the next still runs. */
  async function step(name: string, page: Page, run: () => Promise<void>) {
    try {
      await run();
    } catch (error) {
      failures.push(`${name}: ${(error as Error).message.split("\n")[0]}`);
      await page.screenshot({
        path: path.join("test-results", `pseudo-${name.replaceAll(" ", "-")}.png`),
      });
    }
  }

  async function openDialog(page: Page, opener: Locator, where: string) {
    await opener.click();
    const dialog = page.getByRole("dialog").or(page.getByRole("alertdialog")).last();
    await dialog.waitFor();
    await scan(page, where);
    return dialog;
  }

  async function closeDialog(page: Page) {
    await page.keyboard.press("Escape");
    await page
      .getByRole("dialog")
      .or(page.getByRole("alertdialog"))
      .first()
      .waitFor({ state: "hidden" });
  }

  const button = (scope: Page | Locator, name: string) =>
    scope.getByRole("button", { name, exact: true });

  it("shows no word outside the catalogues, logged out, logged in and through links", async () => {
    const { server } = journey;
    const url = server.url;

    // Logged out.
    const visitor = await pseudoPage(false);
    const v = visitor.page;
    await step("home logged out", v, async () => {
      await v.goto(url);
      await button(v, MESSAGES.logIn).waitFor();
      await scan(v, "home (logged out)");
    });
    await step("log in dialog", v, async () => {
      const dialog = await openDialog(v, button(v, MESSAGES.logIn), "log in dialog");
      await dialog.locator("button[type=submit]").click();
      await scan(v, "log in dialog, empty");
      await closeDialog(v);
    });
    await step("sign up dialog", v, async () => {
      const dialog = await openDialog(v, button(v, MESSAGES.signUp), "sign up dialog");
      await dialog.locator("button[type=submit]").click();
      await scan(v, "sign up dialog, empty");
      await closeDialog(v);
    });
    await step("forgot password dialog", v, async () => {
      const dialog = await openDialog(v, button(v, MESSAGES.forgotPassword), "forgot dialog");
      await dialog.locator("input[type=email]").fill("not an address");
      await dialog.locator("button[type=submit]").click();
      await scan(v, "forgot password dialog, wrong address");
      await closeDialog(v);
    });
    await step("reset password, no token", v, async () => {
      await v.goto(`${url}/reset-password`);
      await scan(v, "reset password (invalid)");
    });
    await step("reset password, valid", v, async () => {
      await owner.request("POST", "/api/forgot-password", { email: OWNER_EMAIL });
      const mail = await smtp.waitFor(
        (m) => m.to.includes(OWNER_EMAIL) && m.text.includes("reset-password"),
      );
      await v.goto(`${url}/reset-password?token=${resetTokenFrom(mail)}`);
      await v.locator("input[type=password]").first().waitFor();
      await scan(v, "reset password (valid)");
      await v.locator("input[type=password]").first().fill("one password here");
      await v.locator("input[type=password]").nth(1).fill("another password");
      await v.locator("button[type=submit]").click();
      await scan(v, "reset password, passwords differ");
    });
    await step("404", v, async () => {
      await v.goto(`${url}/no/such/page`);
      await v.getByRole("heading").first().waitFor();
      await scan(v, "404");
    });
    await step("dead share link", v, async () => {
      await v.goto(`${url}/s/nothing-here`);
      await v.getByRole("heading").first().waitFor();
      await scan(v, "dead share link");
    });
    await step("public profile", v, async () => {
      await v.goto(`${url}/profile/${OWNER}`);
      await v.getByText(TITLE).first().waitFor();
      await scan(v, "public profile");
    });
    await step("private profile", v, async () => {
      await v.goto(`${url}/profile/${PRIVATE_USER}`);
      await v.getByRole("heading").first().waitFor();
      await scan(v, "private profile (not found)");
    });
    await step("memory page logged out", v, async () => {
      await v.goto(`${url}/memory/${memory.id}`);
      await v.getByRole("heading", { name: TITLE }).waitFor();
      await scan(v, "memory page (logged out)");
    });
    await step("unsubscribe", v, async () => {
      await v.goto(`${url}/unsubscribe`);
      await v.getByRole("heading").first().waitFor();
      await scan(v, "unsubscribe (no link)");
      await v.goto(`${url}/unsubscribe?u=someone&t=signature`);
      await v.getByRole("heading").first().waitFor();
      await scan(v, "unsubscribe (bad link)");
    });
    await step("watch view logged out", v, async () => {
      await v.goto(`${url}/watch`);
      await v.locator("input").first().waitFor();
      await scan(v, "watch (logged out)");
    });
    await step("join page logged out", v, async () => {
      await v.goto(joinLink);
      await v.getByRole("heading", { name: JOURNAL_MESSAGES.joinTitle }).waitFor();
      await scan(v, "join page (logged out)");
      await v.goto(`${url}/join/not-a-token`);
      await v.getByRole("heading").first().waitFor();
      await scan(v, "join page (invalid)");
    });
    await step("recording link page", v, async () => {
      await v.goto(recordingLink);
      await v.getByRole("button").first().waitFor();
      await scan(v, "recording link page");
    });
    await visitor.context.close();

    // A relative through a share link.
    const relative = await pseudoPage(false);
    const r = relative.page;
    await step("shared view", r, async () => {
      await r.goto(shareLink.url);
      await r.getByText(TITLE).first().waitFor();
      await scan(r, "shared view");
      await r.getByText(TITLE).first().click();
      await r.getByRole("heading", { name: TITLE }).waitFor();
      await scan(r, "memory page (through a share link)");
    });
    await relative.context.close();

    // Logged in.
    const parent = await pseudoPage(true);
    const p = parent.page;
    await step("home logged in", p, async () => {
      await p.goto(url);
      await p.getByText(TITLE).first().waitFor();
      await scan(p, "home (logged in)");
    });
    await step("edit memory dialog", p, async () => {
      await openDialog(
        p,
        button(p, say(MESSAGES.editMemoryNamed, { title: TITLE })),
        "edit memory dialog",
      );
      await closeDialog(p);
    });
    await step("memory book dialog", p, async () => {
      await openDialog(p, button(p, MEMORY_BOOK.button), "memory book dialog");
      await closeDialog(p);
    });
    await step("user menu", p, async () => {
      await button(p, MESSAGES.userMenu).click();
      await p.getByRole("menu").waitFor();
      await scan(p, "user menu");
      await p.keyboard.press("Escape");
    });
    await step("share link dialog", p, async () => {
      // A private profile's Share opens the dialog that makes a link (a public one copies its address).
      await owner.request("POST", "/api/user/visibility", { isPublic: false });
      await p.reload();
      await button(p, MESSAGES.userMenu).click();
      await p.getByRole("menuitem", { name: MESSAGES.shareProfile }).click();
      const dialog = p.getByRole("dialog");
      await dialog.waitFor();
      await scan(p, "share link dialog");
      await dialog.locator("button[type=submit]").click();
      await scan(p, "share link dialog, no label");
      await closeDialog(p);
      await owner.request("POST", "/api/user/visibility", { isPublic: true });
      await p.reload();
    });
    await step("language dialog", p, async () => {
      await button(p, MESSAGES.userMenu).click();
      await p.getByRole("menuitem", { name: MESSAGES.language }).click();
      await p.getByRole("dialog").waitFor();
      await scan(p, "language dialog");
      await closeDialog(p);
    });
    await step("memory page", p, async () => {
      await p.goto(`${url}/memory/${memory.id}`);
      await p.getByRole("heading", { name: TITLE }).waitFor();
      await scan(p, "memory page");
    });
    await step("photos", p, async () => {
      await p.getByTestId("photo-input").setInputFiles([photoPath, photoPath]);
      // Two photos are resized on the server before they show.
      await p.getByRole("button", { name: PHOTO_MESSAGES.arrange }).waitFor({ timeout: 30_000 });
      await scan(p, "memory page with photos");
      await openDialog(p, button(p, PHOTO_MESSAGES.arrange), "arrange photos dialog");
      await closeDialog(p);
      const photo = p.locator("button:has(img)").first();
      await openDialog(p, photo, "photo viewer");
      await closeDialog(p);
    });
    await step("edit dialog on the memory page", p, async () => {
      await openDialog(p, button(p, MESSAGES.editMemoryLabel), "edit dialog (memory page)");
      await closeDialog(p);
    });
    await step("delete memory dialog", p, async () => {
      await openDialog(p, button(p, MESSAGES.deleteMemoryLabel), "delete memory dialog");
      await closeDialog(p);
    });
    await step("regenerate dialog", p, async () => {
      await openDialog(p, button(p, MESSAGES.regenerate), "regenerate dialog");
      await closeDialog(p);
    });
    await step("account page", p, async () => {
      await p.goto(`${url}/account`);
      await p.getByRole("heading", { level: 1 }).waitFor();
      await scan(p, "account page");
      await openDialog(p, button(p, MESSAGES.deleteAccount), "delete account dialog");
      await closeDialog(p);
      await openDialog(
        p,
        button(p, say(SHARE_MESSAGES.revokeNamed, { label: LINK_LABEL })),
        "revoke link dialog",
      );
      await closeDialog(p);
    });
    await step("family page", p, async () => {
      await p.goto(`${url}/family`);
      await p.getByText(STORYTELLER).first().waitFor();
      await scan(p, "family page");
      const form = p.getByRole("region", { name: JOURNAL_MESSAGES.inviteTitle });
      await form.locator("button[type=submit]").click();
      await scan(p, "family page, empty invitation");
    });
    await step("own profile", p, async () => {
      await p.goto(`${url}/profile/${OWNER}`);
      await p.getByText(TITLE).first().waitFor();
      await scan(p, "own profile");
    });
    await step("join page logged in", p, async () => {
      await p.goto(joinLink);
      await p.getByRole("heading", { name: JOURNAL_MESSAGES.joinTitle }).waitFor();
      await scan(p, "join page (logged in)");
    });
    await step("watch view", p, async () => {
      await p.goto(`${url}/watch`);
      await p.getByRole("button").first().waitFor();
      await scan(p, "watch view");
    });
    await parent.context.close();

    // The pseudo words were served, so the run proves something.
    expect(chunksServed).toBeGreaterThan(0);
    expect({ failures, leaks }).toEqual({ failures: [], leaks: [] });
  });
});
