import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  mailHeader,
  type ReceivedMail,
  type SmtpSink,
  startSmtpSink,
} from "../src/server/test/smtp-sink";
import { formatMessage } from "../src/shared/i18n/format";
import type { CreatedShareLink } from "../src/shared/share-links";
import { SHARE_MESSAGES } from "../src/shared/share-links";
import { ApiClient } from "./api-client";
import { everyViolation, seriousViolations } from "./axe";
import { type JourneySetup, seedMemory, startJourney } from "./fixtures";
import { newPage, unexpectedConsoleErrors } from "./harness";

const NAME = "Grandma Rose";

describe("journey: a relative confirms their address, is mailed news of new stories, once, until they stop it", () => {
  let journey: JourneySetup;
  let smtp: SmtpSink;
  let parent: ApiClient;
  const username = `rose${Date.now().toString(36)}`;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    journey = await startJourney({
      name: "relative-news",
      // A mail 3 seconds after the first of the memories saved together.
      env: {
        SMTP_URL: smtp.url,
        RELATIVE_DIGEST_MINUTES: "0.05",
        RATE_LIMIT_AUTH_PER_MINUTE: "100",
      },
    });
    parent = new ApiClient(journey.server.url);
    await parent.register(username);
    expect((await parent.json("PATCH", "/api/user", { displayName: NAME })).status).toBe(200);
  });
  afterAll(async () => {
    await journey?.close();
    await smtp?.close();
  });

  const isNews = (mail: ReceivedMail) =>
    mail.text.includes(formatMessage(SHARE_MESSAGES.newsMailIntro, { name: NAME }));
  const newsTo = (email: string) => smtp.messages.filter((m) => isNews(m) && m.to.includes(email));

  it("Aunt May asks on the shared view, confirms from the mail, gets one mail for two memories saved together, opens one, stops the mails and gets none for the next", async () => {
    const { server, browser } = journey;
    // Grandpa's link is mailed to him: he gets news too, and shows when the next mail has gone.
    const grandpaLink = await parent.json<CreatedShareLink>("POST", "/api/share-links", {
      label: "Grandpa",
      email: "grandpa@example.org",
    });
    expect(grandpaLink.status).toBe(201);
    const mayLink = await parent.json<CreatedShareLink>("POST", "/api/share-links", {
      label: "Aunt May",
    });
    expect(mayLink.status).toBe(201);

    // Aunt May opens her link and leaves her address under the memories.
    const may = await newPage(browser);
    await may.page.goto(mayLink.data.url);
    const news = may.page.getByRole("region", { name: SHARE_MESSAGES.newsTitle });
    await news.getByLabel(SHARE_MESSAGES.newsEmailField).fill("may@example.org");
    await news.getByRole("button", { name: SHARE_MESSAGES.newsSubscribe }).click();
    await news.getByRole("status").filter({ hasText: SHARE_MESSAGES.newsSubscribed }).waitFor();
    expect(await seriousViolations(may.page)).toEqual([]);
    await may.page.screenshot({ path: "test-results/relative-news-form.png", fullPage: true });

    // She gets a mail to confirm her address first: its link asks, the button confirms.
    const ask = await smtp.waitFor(
      (m) => m.to.includes("may@example.org") && m.text.includes(SHARE_MESSAGES.confirmMailAsk),
      30_000,
    );
    const confirm = ask.text.match(/https?:\/\/\S+\/api\/relative-news\/confirm\?\S+/)?.[0];
    expect(confirm).toBeDefined();
    await may.page.goto(confirm as string);
    await may.page.getByText(SHARE_MESSAGES.confirmExplain).waitFor();
    expect(await everyViolation(may.page)).toEqual([]);
    await may.page.getByRole("button", { name: SHARE_MESSAGES.confirmButton }).click();
    await may.page.getByText(SHARE_MESSAGES.confirmDone).waitFor();
    expect(await everyViolation(may.page)).toEqual([]);

    // Two memories saved together: one mail each, listing both.
    const seaside = await seedMemory(parent, {
      title: "The seaside in 1962",
      transcript: "A story.",
      summary: "A story.",
    });
    const car = await seedMemory(parent, {
      title: "Our first car",
      transcript: "A story.",
      summary: "A story.",
    });
    const mail = await smtp.waitFor((m) => isNews(m) && m.to.includes("may@example.org"), 30_000);
    await smtp.waitFor((m) => isNews(m) && m.to.includes("grandpa@example.org"), 30_000);
    for (const text of [mail.text, newsTo("grandpa@example.org")[0]?.text]) {
      expect(text).toContain(seaside.title);
      expect(text).toContain(car.title);
    }
    expect(mailHeader(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");

    // The mail's link opens the memory through her share link.
    const token = new URL(mayLink.data.url).pathname.slice(3);
    const memoryLink = `${server.url}/s/${token}/${car.id}`;
    expect(mail.text).toContain(memoryLink);
    await may.page.goto(memoryLink);
    await may.page.getByRole("heading", { name: car.title }).waitFor();

    // The visible stop link asks first; the button stops the mails.
    const stop = mail.text.match(/https?:\/\/\S+\/api\/relative-news\/unsubscribe\?\S+/)?.[0];
    expect(stop).toBeDefined();
    await may.page.goto(stop as string);
    await may.page.getByText(SHARE_MESSAGES.unsubscribeExplain).waitFor();
    expect(await everyViolation(may.page)).toEqual([]);
    await may.page.screenshot({ path: "test-results/relative-news-stop.png" });
    await may.page.getByRole("button", { name: SHARE_MESSAGES.unsubscribeButton }).click();
    await may.page.getByText(SHARE_MESSAGES.unsubscribeDone).waitFor();
    expect(await everyViolation(may.page)).toEqual([]);

    // The next memory reaches Grandpa; Aunt May got nothing more.
    const garden = await seedMemory(parent, {
      title: "The garden in May",
      transcript: "A story.",
      summary: "A story.",
    });
    await smtp.waitFor(
      (m) => isNews(m) && m.to.includes("grandpa@example.org") && m.text.includes(garden.title),
      30_000,
    );
    expect(newsTo("grandpa@example.org")).toHaveLength(2);
    expect(newsTo("may@example.org")).toHaveLength(1);
    expect(unexpectedConsoleErrors(may.consoleErrors)).toEqual([]);
    await may.context.close();
  }, 120_000);
});
