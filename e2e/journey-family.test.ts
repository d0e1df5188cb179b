import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatReply, defaultStubHandler } from "../src/server/test/openai-stub";
import { type SmtpSink, startSmtpSink } from "../src/server/test/smtp-sink";
import { formatMessage } from "../src/shared/i18n/format";
import { JOURNAL_MESSAGES, type ROLE_LABELS } from "../src/shared/journals";
import { MESSAGES } from "../src/shared/messages";
import type { Journal, Memory, MemoryPage } from "../src/shared/schemas";
import { ApiClient } from "./api-client";
import { seriousViolations } from "./axe";
import { type JourneySetup, startJourney } from "./fixtures";
import { addClientCookies, newPage, type RunningServer, unexpectedConsoleErrors } from "./harness";

const SPEECH = "Every autumn we picked apples in the orchard behind the house.";
const TITLE = "Apples from the orchard behind the house.";

/**
 * A daughter sets up the family's journal: she invites her mother as a storyteller and her brother
 * as a relative; the mother records; the brother finds the story, hears it and answers with his
 * voice; the daughter removes him, and his next request is refused.
 */
describe("journey: one family journal", () => {
  let journey: JourneySetup;
  let speechSeconds: number;
  let server: RunningServer;
  let browser: Browser;
  let smtp: SmtpSink;
  const ana = { username: "ana_alvarez", api: undefined as unknown as ApiClient };
  const rosa = { username: "rosa_alvarez", api: undefined as unknown as ApiClient };
  const luis = { username: "luis_alvarez", api: undefined as unknown as ApiClient };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    journey = await startJourney({
      name: "family",
      speech: SPEECH,
      env: { SMTP_URL: smtp.url, RATE_LIMIT_COMMENTS_PER_HOUR: "100" },
      stub: async (request) => {
        if (request.path.endsWith("/audio/transcriptions")) return { body: { text: SPEECH } };
        const json = request.json ?? {};
        if (request.path.endsWith("/chat/completions") && json.response_format === undefined) {
          return chatReply(`${TITLE} You climbed the ladder and I held it, my love.`);
        }
        return defaultStubHandler(request);
      },
    });
    ({ speechSeconds, server, browser } = journey);
    for (const person of [ana, rosa, luis]) {
      person.api = new ApiClient(server.url);
      await person.api.register(person.username);
    }
    // The family's journal is private: only its members hear it.
    const privately = await ana.api.request("POST", "/api/user/visibility", { isPublic: false });
    expect(privately.status).toBe(200);
  });
  afterAll(async () => {
    await journey?.close();
    await smtp?.close();
  });

  /** A page logged in as `person` (their session cookie in a fresh context). */
  async function pageOf(person: { api: ApiClient }) {
    const opened = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await addClientCookies(opened.context, server.url, person.api.cookieHeader());
    return opened;
  }

  async function invite(page: Page, name: string, role: keyof typeof ROLE_LABELS, email: string) {
    const form = page.getByRole("region", { name: JOURNAL_MESSAGES.inviteTitle });
    await form.getByLabel(JOURNAL_MESSAGES.inviteName).fill(name);
    await form.getByLabel(JOURNAL_MESSAGES.inviteRole).selectOption(role);
    await form.getByLabel(JOURNAL_MESSAGES.inviteEmail).fill(email);
    await form.getByRole("button", { name: JOURNAL_MESSAGES.inviteSubmit }).click();
    await page
      .getByText(formatMessage(JOURNAL_MESSAGES.invitationMailed, { name }))
      .first()
      .waitFor();
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    const link = /https?:\/\/\S+\/join\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();
    return new URL(link as string).pathname;
  }

  async function join(person: { api: ApiClient }, path: string) {
    const opened = await pageOf(person);
    await opened.page.goto(`${server.url}${path}`);
    await opened.page.getByRole("button", { name: JOURNAL_MESSAGES.joinAccept }).click();
    await opened.page
      .getByText(formatMessage(JOURNAL_MESSAGES.joined, { journal: "The Alvarez family" }))
      .first()
      .waitFor();
    return opened;
  }

  it("invites, records, listens and answers, then removes a member", async () => {
    // The daughter names her journal and invites her mother and her brother.
    const daughter = await pageOf(ana);
    await daughter.page.goto(`${server.url}/family`);
    await daughter.page.getByRole("heading", { name: JOURNAL_MESSAGES.familyTitle }).waitFor();
    const rename = daughter.page.getByLabel(JOURNAL_MESSAGES.renameJournal);
    await rename.fill("The Alvarez family");
    await daughter.page.getByRole("button", { name: JOURNAL_MESSAGES.renameSubmit }).click();
    await daughter.page.getByText(JOURNAL_MESSAGES.journalRenamed).first().waitFor();
    const rosaJoin = await invite(daughter.page, "Rosa", "storyteller", "rosa@example.org");
    const luisJoin = await invite(daughter.page, "Luis", "relative", "luis@example.org");
    expect(await seriousViolations(daughter.page)).toEqual([]);

    // The mother joins and records in the family's journal, which opens for her.
    const mother = await join(rosa, rosaJoin);
    await mother.page.getByRole("heading", { name: MESSAGES.recentMemories }).waitFor();
    await mother.page.getByRole("button", { name: MESSAGES.startRecording }).click();
    await mother.page.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await mother.page.waitForTimeout(speechSeconds * 1000 + 800);
    await mother.page.getByRole("button", { name: MESSAGES.stopRecording }).click();
    await mother.page.getByText(MESSAGES.memorySaved, { exact: true }).waitFor({ timeout: 60_000 });
    const journals = await rosa.api.json<Journal[]>("GET", "/api/journals");
    const family = journals.data.find((j) => j.name === "The Alvarez family") as Journal;
    expect(family.role).toBe("storyteller");
    const listed = await rosa.api.json<MemoryPage>("GET", `/api/journals/${family.id}/memories`);
    const story = listed.data.items[0] as Memory;
    expect(story.storyteller?.name).toBe("Rosa");
    expect(unexpectedConsoleErrors(mother.consoleErrors)).toEqual([]);

    // The brother joins, finds the story by searching, hears it and answers with his voice.
    const brother = await join(luis, luisJoin);
    await brother.page.getByRole("heading", { name: MESSAGES.recentMemories }).waitFor();
    // A relative gets no recorder.
    expect(await brother.page.getByRole("button", { name: MESSAGES.startRecording }).count()).toBe(
      0,
    );
    await brother.page.getByRole("searchbox").fill("orchard");
    await brother.page.getByRole("link", { name: TITLE }).first().click();
    await brother.page.getByRole("heading", { name: TITLE }).waitFor();
    await brother.page
      .getByText(formatMessage(JOURNAL_MESSAGES.toldBy, { name: "Rosa" }))
      .first()
      .waitFor();
    await brother.page.getByRole("button", { name: "Play" }).first().click();
    await brother.page.waitForFunction(() =>
      [...document.querySelectorAll("audio")].some((audio) => audio.currentTime > 0),
    );
    const card = brother.page.getByTestId("comments-card");
    await card.getByLabel(MESSAGES.yourName).fill("Luis");
    await card.getByRole("button", { name: MESSAGES.answerWithVoice }).click();
    await card.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await brother.page.waitForTimeout(2500);
    await card.getByRole("button", { name: MESSAGES.stopRecording }).click();
    await brother.page.getByText(MESSAGES.commentAdded).first().waitFor({ timeout: 60_000 });
    await card.getByTestId("comment").getByText("Luis").waitFor();

    // The daughter removes her brother; his next request is refused.
    await daughter.page.reload();
    await daughter.page
      .getByRole("button", {
        name: formatMessage(JOURNAL_MESSAGES.removeMemberNamed, { name: "Luis" }),
      })
      .click();
    const confirm = daughter.page.getByRole("alertdialog");
    await confirm.getByRole("button", { name: JOURNAL_MESSAGES.removeMember }).click();
    await daughter.page
      .getByText(formatMessage(JOURNAL_MESSAGES.memberRemoved, { name: "Luis" }))
      .first()
      .waitFor();
    const refused = await luis.api.request("GET", `/api/memories/${story.id}`);
    expect(refused.status).toBe(404);
    await brother.page.reload();
    await brother.page.getByTestId("not-found").waitFor();
    // His journals no longer list the family's.
    const left = await luis.api.json<Journal[]>("GET", "/api/journals");
    expect(left.data.map((j) => j.name)).not.toContain("The Alvarez family");

    for (const opened of [daughter, mother, brother]) await opened.context.close();
  });
});
