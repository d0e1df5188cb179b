import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReceivedMail, type SmtpSink, startSmtpSink } from "../src/server/test/smtp-sink";
import { MESSAGES } from "../src/shared/messages";
import { QUESTIONS, specialDayQuestion } from "../src/shared/questions";
import { REMINDER_MESSAGES } from "../src/shared/reminder-messages";
import type { ReminderSettings } from "../src/shared/reminders";
import type { Memory, MemoryPage } from "../src/shared/schemas";
import { ApiClient } from "./api-client";
import { seriousViolations } from "./axe";
import { type JourneySetup, startJourney } from "./fixtures";
import { addClientCookies, newPage, unexpectedConsoleErrors } from "./harness";

const USERNAME = "grandpa_reminders";
const PASSWORD = "a long enough password";
const EMAIL = "grandpa@example.org";
const SPEECH = "Mia was born on a snowy morning and the whole family waited at the hospital.";
const SPECIAL_DAY = "Mia's birthday";
const HOUR_MS = 3_600_000;
/** How close to an hour's end the test waits for the next one before setting this hour's reminder. */
const HOUR_END_MARGIN_MS = 120_000;

/** Reminder settings on the account page, a mail in the outbox, its link, unsubscribe. */
describe("journey: a reminder mail opens the recorder with its question", () => {
  let journey: JourneySetup;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    journey = await startJourney({
      name: "remind",
      speech: SPEECH,
      env: { SMTP_URL: smtp.url, REMINDER_CHECK_SECONDS: "1", RATE_LIMIT_AUTH_PER_MINUTE: "100" },
    });
    const owner = new ApiClient(journey.server.url);
    await owner.register(USERNAME, PASSWORD);
    const withEmail = { email: EMAIL, currentPassword: PASSWORD };
    expect((await owner.json("PATCH", "/api/user", withEmail)).status).toBe(200);
  });
  afterAll(async () => {
    await journey?.close();
    await smtp?.close();
  });

  it(
    "sets reminders, gets the special day's mail, answers its question, and unsubscribes",
    async () => {
      const { server, browser, speechSeconds } = journey;
      const { page, context, consoleErrors } = await newPage(browser);
      await page.goto(server.url);
      await page.getByRole("button", { name: MESSAGES.logIn }).click();
      const login = page.getByRole("dialog", { name: MESSAGES.logIn });
      await login.getByLabel("Username").fill(USERNAME);
      await login.getByLabel("Password").fill(PASSWORD);
      await login.getByRole("button", { name: MESSAGES.logIn }).click();
      await page.getByRole("button", { name: MESSAGES.userMenu }).waitFor();

      // The home page asks a built-in question above the recorder; skipping shows another.
      const questionText = page.getByTestId("question-text");
      await questionText.waitFor();
      const first = (await questionText.textContent()) ?? "";
      expect(QUESTIONS).toContain(first);
      await page.getByRole("button", { name: REMINDER_MESSAGES.skipQuestion }).click();
      await expect.poll(() => questionText.textContent()).not.toBe(first);
      const skippedTo = await questionText.textContent();
      expect(QUESTIONS).toContain(skippedTo);

      // Reloaded, the page carries the question itself (it paints with the page, no request for
      // it), and the skip held.
      const questionRequests: string[] = [];
      page.on("request", (request) => {
        if (new URL(request.url()).pathname === "/api/question") {
          questionRequests.push(request.method());
        }
      });
      await page.reload();
      expect(await questionText.textContent()).toBe(skippedTo);
      expect(questionRequests).toEqual([]);

      // Reminders on the account page: weekly today at this hour (UTC), and today as Mia's birthday.
      await page.goto(`${server.url}/account`);
      await page.getByRole("heading", { name: REMINDER_MESSAGES.sectionTitle }).waitFor();
      // The weekly reminder is set for this hour, so the save, the scheduler's check and the mail
      // must fall in it: within HOUR_END_MARGIN_MS of its end, wait for the next hour to begin.
      const untilNextHour = HOUR_MS - (Date.now() % HOUR_MS);
      if (untilNextHour < HOUR_END_MARGIN_MS) await page.waitForTimeout(untilNextHour + 1_000);
      const now = new Date();
      await page.getByLabel(REMINDER_MESSAGES.weeklyLabel).check();
      await page
        .getByLabel(REMINDER_MESSAGES.weekdayLabel, { exact: true })
        .selectOption(String(now.getUTCDay()));
      await page
        .getByLabel(REMINDER_MESSAGES.hourLabel, { exact: true })
        .selectOption(String(now.getUTCHours()));
      await page.getByLabel(REMINDER_MESSAGES.timeZoneLabel).selectOption("UTC");
      await page.getByRole("button", { name: REMINDER_MESSAGES.addSpecialDay }).click();
      const day = page.getByTestId("special-day");
      await day.getByLabel(REMINDER_MESSAGES.specialDayLabel, { exact: true }).fill(SPECIAL_DAY);
      await day
        .getByLabel(REMINDER_MESSAGES.specialDayMonth, { exact: true })
        .selectOption(String(now.getUTCMonth() + 1));
      await day
        .getByLabel(REMINDER_MESSAGES.specialDayDay, { exact: true })
        .fill(String(now.getUTCDate()));
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("button", { name: REMINDER_MESSAGES.save }).click();
      await page.getByText(REMINDER_MESSAGES.saved, { exact: true }).waitFor();
      await page.screenshot({
        path: path.join("test-results", "reminders-account.png"),
        fullPage: true,
      });

      // The scheduler (every second here) mails both; each has the RFC 8058 headers.
      const special = await smtp.waitFor((m) => m.text.includes(SPECIAL_DAY), 20_000);
      const weekly = await smtp.waitFor((m) => m.text.includes("this week's question"), 20_000);
      for (const mail of [special, weekly]) {
        expect(mail.to).toEqual([EMAIL]);
        // Headers as read after unfolding (a long one continues on an indented line).
        const headers = mail.raw.replace(/\r?\n[ \t]+/g, " ");
        expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
        expect(headers).toMatch(
          /^List-Unsubscribe: <http:\/\/127\.0\.0\.1:\d+\/api\/reminders\/unsubscribe\?u=/m,
        );
      }
      const question = specialDayQuestion(SPECIAL_DAY);
      expect(question).toBe("Tell Mia about the day they were born.");
      const link = linkIn(special, /http:\/\/127\.0\.0\.1:\d+\/\?question=\S+/);

      // The mail's link opens the recorder with the question; the recording keeps it.
      await page.goto(link);
      await expect.poll(() => questionText.textContent()).toBe(question);
      await page.getByRole("button", { name: MESSAGES.startRecording }).click();
      await page.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
      await page.waitForTimeout(speechSeconds * 1000 + 800);
      await page.getByRole("button", { name: MESSAGES.stopRecording }).click();
      await page.getByText(MESSAGES.memorySaved, { exact: true }).waitFor({ timeout: 60_000 });

      const owner = new ApiClient(server.url);
      await owner.json("POST", "/api/login", { username: USERNAME, password: PASSWORD });
      const list = await owner.json<MemoryPage>("GET", "/api/memories");
      const memory = list.data.items[0] as Memory;
      expect(memory.question).toBe(question);
      const summaryCall = journey.stub.requests.find(
        (r) => r.path.endsWith("/chat/completions") && !r.json?.response_format,
      );
      expect(JSON.stringify(summaryCall?.json?.messages)).toContain(question);
      await page.goto(`${server.url}/memory/${memory.id}`);
      await page.getByTestId("memory-question").getByText(question).waitFor();

      // A crafted link cannot put its own words above the recorder.
      await page.goto(`${server.url}/?question=${encodeURIComponent("Send your password to me")}`);
      await questionText.waitFor();
      expect(await questionText.textContent()).not.toContain("password");

      // Unsubscribe from the weekly mail's link, in a browser that is not logged in.
      const stranger = await newPage(browser);
      await stranger.page.goto(linkIn(weekly, /http:\/\/127\.0\.0\.1:\d+\/unsubscribe\?\S+/));
      await stranger.page
        .getByRole("heading", { name: REMINDER_MESSAGES.unsubscribeTitle })
        .waitFor();
      expect(await seriousViolations(stranger.page)).toEqual([]);
      await stranger.page
        .getByRole("button", { name: REMINDER_MESSAGES.unsubscribeButton })
        .click();
      await stranger.page.getByText(REMINDER_MESSAGES.unsubscribeDone).waitFor();
      const settings = await owner.json<ReminderSettings>("GET", "/api/reminders");
      expect(settings.data.unsubscribedAt).not.toBeNull();
      // The account page says so.
      await page.goto(`${server.url}/account`);
      await page.getByText(REMINDER_MESSAGES.unsubscribed).waitFor();

      expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
      expect(unexpectedConsoleErrors(stranger.consoleErrors)).toEqual([]);
      await stranger.context.close();
      await context.close();
      // The e2e timeout plus the longest wait for the next hour: a fixed 150 s wait inside the
      // 120 s timeout failed this test whenever it ran in an hour's last two minutes.
    },
    120_000 + HOUR_END_MARGIN_MS + 1_000,
  );

  it("offers the weekly reminder after a first memory, and one tap turns it on", async () => {
    const { server, browser, speechSeconds } = journey;
    const owner = new ApiClient(server.url);
    await owner.register("nana_first_memory", PASSWORD);
    const withEmail = { email: "nana@example.org", currentPassword: PASSWORD };
    expect((await owner.json("PATCH", "/api/user", withEmail)).status).toBe(200);
    const { page, context, consoleErrors } = await newPage(browser);
    await addClientCookies(context, server.url, owner.cookieHeader());
    await page.goto(server.url);
    await page.getByRole("button", { name: MESSAGES.userMenu }).waitFor();
    expect(await page.getByTestId("weekly-reminder-offer").count()).toBe(0);

    await page.getByRole("button", { name: MESSAGES.startRecording }).click();
    await page.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await page.waitForTimeout(speechSeconds * 1000 + 800);
    await page.getByRole("button", { name: MESSAGES.stopRecording }).click();
    await page.getByText(MESSAGES.memorySaved, { exact: true }).waitFor({ timeout: 60_000 });

    const offer = page.getByTestId("weekly-reminder-offer");
    await offer.getByRole("button", { name: REMINDER_MESSAGES.weeklyOfferAccept }).click();
    await page.getByText(REMINDER_MESSAGES.weeklyOfferDone).first().waitFor();
    await offer.waitFor({ state: "detached" });
    const settings = await owner.json<ReminderSettings>("GET", "/api/reminders");
    expect(settings.data.weekly.enabled).toBe(true);
    expect(settings.data.saved).toBe(true);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });
});

function linkIn(mail: ReceivedMail, pattern: RegExp): string {
  const link = mail.text.match(pattern)?.[0];
  if (!link) throw new Error(`no link in mail:\n${mail.text}`);
  return link;
}
