import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatReply, defaultStubHandler } from "../src/server/test/openai-stub";
import { type SmtpSink, startSmtpSink } from "../src/server/test/smtp-sink";
import { formatMessage } from "../src/shared/i18n/format";
import {
  FAMILY_QUESTION_MESSAGES,
  JOURNAL_MESSAGES,
  RECORDING_LINK_MESSAGES,
  recordingCardFilename,
} from "../src/shared/journals";
import { MESSAGES } from "../src/shared/messages";
import type { Journal, Member, Memory, MemoryPage } from "../src/shared/schemas";
import { ApiClient } from "./api-client";
import { seriousViolations } from "./axe";
import { type JourneySetup, startJourney } from "./fixtures";
import { addClientCookies, newPage, type RunningServer, unexpectedConsoleErrors } from "./harness";

const run = promisify(execFile);

const PHONE = { width: 390, height: 844 };
const SPEECH = "My first job was at the bakery on the corner, I carried bread before school.";
const TITLE = "Bread before school at the corner bakery.";
const GRANDMA = "Grandma Rose";
const QUESTION = "What was your first job?";

/**
 * A storyteller who never logs in: the daughter adds her mother without an account, makes her
 * recording link and prints the fridge card; the grandson asks her a question from the Family
 * page; the mother opens the link the card's QR code holds (a phone with no cookie), hears who
 * asks, records and is thanked with her story's title; the story is in the journal, told by her
 * and answering that question, and the grandson is mailed that his question was answered.
 */
describe("journey: a storyteller records through the link on her fridge card", () => {
  let journey: JourneySetup;
  let speechSeconds: number;
  let server: RunningServer;
  let browser: Browser;
  let smtp: SmtpSink;
  let journal: Journal;
  /** The grandson's invitation: `/join/<token>`. */
  let joinPath: string;
  const ana = { username: "ana_card", api: undefined as unknown as ApiClient };
  const luis = { username: "luis_card", email: "luis@example.org" } as {
    username: string;
    email: string;
    api: ApiClient;
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    journey = await startJourney({
      name: "storyteller-link",
      speech: SPEECH,
      env: { SMTP_URL: smtp.url },
      stub: async (request) => {
        if (request.path.endsWith("/audio/transcriptions")) return { body: { text: SPEECH } };
        const json = request.json ?? {};
        if (request.path.endsWith("/chat/completions") && json.response_format === undefined) {
          return chatReply(`${TITLE} You carried the warm loaves down the street every morning.`);
        }
        return defaultStubHandler(request);
      },
    });
    ({ speechSeconds, server, browser } = journey);
    for (const person of [ana, luis]) {
      person.api = new ApiClient(server.url);
      await person.api.register(person.username);
    }
    // The journal is private: the link must open it for its storyteller alone.
    const privately = await ana.api.request("POST", "/api/user/visibility", { isPublic: false });
    expect(privately.status).toBe(200);
    // The grandson is invited as a relative (the family journey covers the invitation form).
    journal = (await ana.api.json<Journal[]>("GET", "/api/journals")).data[0] as Journal;
    const added = await ana.api.json<Member>("POST", `/api/journals/${journal.id}/members`, {
      name: "Luis",
      role: "relative",
      email: luis.email,
    });
    expect(added.status).toBe(201);
    const invitation = await smtp.waitFor((mail) => mail.to.includes(luis.email));
    joinPath = /\/join\/[A-Za-z0-9_-]+/.exec(invitation.text)?.[0] ?? "";
    expect(joinPath).toBeTruthy();
  });
  afterAll(async () => {
    await journey?.close();
    await smtp?.close();
  });

  /** A phone logged in as `person` (their session cookie in a fresh context). */
  async function phoneOf(person: { api: ApiClient }) {
    const opened = await newPage(browser, { viewport: PHONE });
    await addClientCookies(opened.context, server.url, person.api.cookieHeader());
    return opened;
  }

  /** The QR codes in a one-page PDF (pdftoppm at 150 dpi, then zbarimg) and its text. */
  async function readCard(pdf: string): Promise<{ codes: string[]; text: string }> {
    const base = path.join(journey.workDir, "card");
    await run("pdftoppm", ["-r", "150", "-png", pdf, base]);
    const images = (await readdir(journey.workDir)).filter(
      (name) => name.startsWith("card") && name.endsWith(".png"),
    );
    expect(images).toHaveLength(1);
    const image = path.join(journey.workDir, images[0] as string);
    const { stdout } = await run("zbarimg", ["--raw", "-q", image]);
    const text = await run("pdftotext", ["-enc", "UTF-8", pdf, "-"]);
    return { codes: stdout.split("\n").filter(Boolean), text: text.stdout };
  }

  /** Records until the fake microphone has spoken, read on the recorder's own clock. */
  async function recordSpeech(page: Page) {
    await page.getByRole("button", { name: RECORDING_LINK_MESSAGES.record }).click();
    const timer = page.getByRole("timer", { name: MESSAGES.recordingTime });
    await timer.waitFor();
    // The speech and its trailing silence, whole seconds on the recorder's clock ("0:07").
    const until = Math.ceil(speechSeconds + 0.8);
    await page.waitForFunction(
      ([label, seconds]) => {
        const shown = document.querySelector(`[role=timer][aria-label="${label}"]`)?.textContent;
        const [minutes, secs] = (shown ?? "0:00").split(":").map(Number);
        return (minutes ?? 0) * 60 + (secs ?? 0) >= seconds;
      },
      [MESSAGES.recordingTime, until] as const,
      { timeout: (until + 10) * 1000 },
    );
    await page.getByRole("button", { name: MESSAGES.stopRecording }).click();
  }

  it("adds her, prints her card, the family asks, she answers through the card's link", async () => {
    // The daughter adds her mother, who will never log in: no email, no account.
    const daughter = await phoneOf(ana);
    await daughter.page.goto(`${server.url}/family`);
    await daughter.page.getByRole("heading", { name: JOURNAL_MESSAGES.familyTitle }).waitFor();
    const form = daughter.page.getByRole("region", { name: JOURNAL_MESSAGES.inviteTitle });
    await form.getByLabel(JOURNAL_MESSAGES.inviteName).fill(GRANDMA);
    await form.getByLabel(JOURNAL_MESSAGES.inviteRole).selectOption("storyteller");
    await form.getByRole("button", { name: JOURNAL_MESSAGES.inviteSubmit }).click();
    await daughter.page
      .getByText(formatMessage(JOURNAL_MESSAGES.memberAdded, { name: GRANDMA }))
      .first()
      .waitFor();
    const grandma = daughter.page
      .getByRole("listitem")
      .filter({ hasText: GRANDMA })
      .filter({ has: daughter.page.getByTestId("recording-link-actions") });
    await grandma.getByText(JOURNAL_MESSAGES.noAccount).waitFor();

    // She makes the recording link, then prints the card (the same link, read back).
    await grandma.getByRole("button", { name: RECORDING_LINK_MESSAGES.make }).click();
    const shown = grandma.getByTestId("created-share-link").getByRole("textbox");
    await shown.waitFor();
    const link = await shown.inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}/r/[A-Za-z0-9_-]{20,}$`));
    const [download] = await Promise.all([
      daughter.page.waitForEvent("download"),
      grandma.getByRole("button", { name: RECORDING_LINK_MESSAGES.printCard }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(recordingCardFilename(GRANDMA));
    const pdf = path.join(journey.workDir, "card.pdf");
    await download.saveAs(pdf);
    await daughter.page
      .getByText(formatMessage(RECORDING_LINK_MESSAGES.cardReady, { name: GRANDMA }))
      .first()
      .waitFor();
    const card = await readCard(pdf);
    expect(card.codes).toEqual([link]);
    expect(card.text).toContain(GRANDMA);
    expect(unexpectedConsoleErrors(daughter.consoleErrors)).toEqual([]);

    // The grandson joins from his invitation (the journal opens for him) and asks her a
    // question from the Family page.
    const grandson = await phoneOf(luis);
    await grandson.page.goto(`${server.url}${joinPath}`);
    await grandson.page.getByRole("button", { name: JOURNAL_MESSAGES.joinAccept }).click();
    await grandson.page
      .getByText(formatMessage(JOURNAL_MESSAGES.joined, { journal: journal.name }))
      .first()
      .waitFor();
    await grandson.page.goto(`${server.url}/family`);
    const ask = grandson.page.locator("form").filter({
      has: grandson.page.getByLabel(
        formatMessage(FAMILY_QUESTION_MESSAGES.label, { name: GRANDMA }),
      ),
    });
    await ask.getByRole("textbox").fill(QUESTION);
    await ask.getByRole("button", { name: FAMILY_QUESTION_MESSAGES.submit }).click();
    await grandson.page
      .getByText(formatMessage(FAMILY_QUESTION_MESSAGES.asked, { name: GRANDMA }))
      .first()
      .waitFor();
    expect(unexpectedConsoleErrors(grandson.consoleErrors)).toEqual([]);

    // The mother's phone opens the card's link: no cookie, no account.
    const mother = await newPage(browser, { viewport: PHONE });
    expect(await mother.context.cookies()).toEqual([]);
    await mother.page.goto(card.codes[0] as string);
    await mother.page
      .getByRole("heading", {
        name: formatMessage(RECORDING_LINK_MESSAGES.hello, { name: GRANDMA }),
      })
      .waitFor();
    await mother.page
      .getByRole("heading", {
        name: formatMessage(FAMILY_QUESTION_MESSAGES.asks, { name: "Luis" }),
      })
      .waitFor();
    expect(await mother.page.getByTestId("link-question").textContent()).toBe(QUESTION);
    expect(await seriousViolations(mother.page)).toEqual([]);
    await recordSpeech(mother.page);
    const thanks = mother.page.getByTestId("link-thank-you");
    await thanks.getByText(RECORDING_LINK_MESSAGES.thankYou).waitFor({ timeout: 60_000 });
    await thanks
      .getByText(formatMessage(RECORDING_LINK_MESSAGES.savedTitle, { title: TITLE }))
      .waitFor();
    // Answered, the grandson's question is asked no more: the week's question comes next.
    await mother.page
      .getByRole("heading", { name: RECORDING_LINK_MESSAGES.questionHeading })
      .waitFor();
    await mother.page.screenshot({ path: path.join("test-results", "storyteller-link-phone.png") });
    expect(unexpectedConsoleErrors(mother.consoleErrors)).toEqual([]);

    // In the journal: told by her, answering the grandson's question.
    await daughter.page.goto(server.url);
    await daughter.page.getByRole("link", { name: TITLE }).first().click();
    await daughter.page.getByRole("heading", { name: TITLE }).waitFor();
    await daughter.page.getByTestId("memory-question").getByText(QUESTION).waitFor();
    await daughter.page
      .getByText(formatMessage(JOURNAL_MESSAGES.toldBy, { name: GRANDMA }))
      .first()
      .waitFor();
    const story = (await ana.api.json<MemoryPage>("GET", "/api/memories")).data.items.find(
      (memory) => memory.title === TITLE,
    ) as Memory;
    expect(story.storyteller?.name).toBe(GRANDMA);
    expect(story.question).toBe(QUESTION);
    expect(daughter.page.url()).toBe(`${server.url}/memory/${story.id}`);

    // The grandson is told by mail, with the story's link.
    const answered = await smtp.waitFor(
      (mail) => mail.to.includes(luis.email) && mail.text.includes(QUESTION),
    );
    expect(answered.to).toEqual([luis.email]);
    expect(answered.text).toContain(`${server.url}/memory/${story.id}`);
    expect(answered.text).toContain(GRANDMA);
    expect(unexpectedConsoleErrors(daughter.consoleErrors)).toEqual([]);

    for (const opened of [daughter, grandson, mother]) await opened.context.close();
  });
});
