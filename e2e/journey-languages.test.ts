import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatReply, defaultStubHandler } from "../src/server/test/openai-stub";
import { ALL_CATALOGUES } from "../src/shared/i18n/all-catalogues";
import { translated } from "../src/shared/i18n/catalogues";
import { flatten } from "../src/shared/i18n/check";
import { messageArguments } from "../src/shared/i18n/format";
import {
  directionOf,
  LANGUAGES,
  type Language,
  SOURCE_LANGUAGE,
} from "../src/shared/i18n/languages";
import type { Memory } from "../src/shared/schemas";
import { ApiClient } from "./api-client";
import { type JourneySetup, startJourney } from "./fixtures";
import { addClientCookies, newPage, unexpectedConsoleErrors } from "./harness";

const SPEECH = "We baked bread with grandmother every Sunday morning.";
const TITLE = "Bread with grandmother on Sunday mornings.";
const SUMMARY = `${TITLE} You kneaded the dough with me, my love.`;
const PHONE = { viewport: { width: 390, height: 844 } };
/** The family's own words, which no language changes. */
const FAMILY_WORDS = [SPEECH, SUMMARY, "You kneaded the dough with me, my love.", TITLE, "my love"];

const wordsOf = (language: Language) =>
  language === "en"
    ? ALL_CATALOGUES
    : translated(
        ALL_CATALOGUES,
        JSON.parse(
          readFileSync(
            path.join(import.meta.dirname, `../src/shared/i18n/locales/${language}.json`),
            "utf8",
          ),
        ),
      );

/**
 * The English words a page in `language` must not show: every catalogue word without values whose
 * translation differs from English (so "PDF" or "A4" do not count), three letters or longer.
 */
function englishLeftOver(language: Language): { english: string; pattern: RegExp }[] {
  const english = flatten(ALL_CATALOGUES);
  const words = flatten(wordsOf(language));
  // An English word the language writes too ("Tag" is German for day) tells nothing: the week's
  // question may well use it.
  const ownText = [...words.values()].join("\n");
  return [...english]
    .filter(([key, word]) => words.get(key) !== word && word.length >= 3)
    .filter(([, word]) => messageArguments(word).length === 0 && /[A-Za-z]{3}/.test(word))
    .map(([, word]) => ({
      english: word,
      pattern: new RegExp(
        `(^|[^A-Za-z])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^A-Za-z])`,
      ),
    }))
    .filter(({ pattern }) => !pattern.test(ownText));
}

/** What a person reads on the page: its text, and the names and hints only some of them hear. */
async function pageWords(page: Page): Promise<string> {
  return page.evaluate(() => {
    const said = [...document.querySelectorAll("[aria-label],[placeholder],[title],[alt]")].flatMap(
      (element) =>
        ["aria-label", "placeholder", "title", "alt"].map(
          (name) => element.getAttribute(name) ?? "",
        ),
    );
    // biome-ignore lint/performance/useDomNodeTextContent: the text as laid out is what a person reads (hidden text excluded)
    return [document.body.innerText, document.title, ...said].join("\n");
  });
}

/**
 * A person records, saves and reads a memory, and a relative opens the share link, in each
 * language the product speaks beside English (the other journeys' language), on a phone: every screen speaks that language (no English word of
 * the catalogues is left, beside the family's own words), and Arabic is written right to left.
 */
describe("journey: each language on a phone", () => {
  let journey: JourneySetup;

  beforeAll(async () => {
    journey = await startJourney({
      name: "languages",
      speech: SPEECH,
      stub: async (request) => {
        if (request.path.endsWith("/audio/transcriptions")) return { body: { text: SPEECH } };
        const json = request.json ?? {};
        if (request.path.endsWith("/chat/completions") && json.response_format === undefined) {
          return chatReply(SUMMARY);
        }
        return defaultStubHandler(request);
      },
    });
  });
  afterAll(async () => {
    await journey?.close();
  });

  async function expectOnlyLanguage(page: Page, language: Language, screen: string) {
    // The tab's title follows the page once it has rendered (an effect after the first paint).
    await page.waitForFunction(
      (app) => document.title.endsWith(app),
      wordsOf(language).MESSAGES.appTitle,
    );
    await page.screenshot({
      path: path.join("test-results", `language-${language}-${screen}.png`),
      fullPage: true,
      animations: "disabled",
    });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
    expect(await page.evaluate(() => document.documentElement.dir)).toBe(directionOf(language));
    if (language === "en") return;
    let text = await pageWords(page);
    for (const family of FAMILY_WORDS) text = text.replaceAll(family, "");
    const left = englishLeftOver(language)
      .filter(({ pattern }) => pattern.test(text))
      .map(({ english }) => english);
    expect(left, `${language} ${screen}`).toEqual([]);
  }

  // English is every other journey's language. Three at a time (the e2e project's
  // maxConcurrency): each waits mostly on the microphone and the processing.
  it.concurrent.each(LANGUAGES.filter((l) => l !== SOURCE_LANGUAGE))("in %s", async (language) => {
    const { server, browser, speechSeconds } = journey;
    const words = wordsOf(language);
    const owner = new ApiClient(server.url);
    const username = `lang_${language.replace("-", "_").toLowerCase()}_${Date.now() % 100000}`;
    await owner.register(username);
    expect((await owner.request("PATCH", "/api/user", { language })).status).toBe(200);

    // The owner records on the home page and reads the saved memory.
    const tab = await newPage(browser, PHONE);
    await addClientCookies(tab.context, server.url, owner.cookieHeader());
    const page = tab.page;
    await page.goto(server.url);
    await page.getByRole("heading", { name: words.MESSAGES.recentMemories }).waitFor();
    await expectOnlyLanguage(page, language, "home");
    await page.getByRole("button", { name: words.MESSAGES.startRecording }).click();
    await page.getByRole("button", { name: words.MESSAGES.stopRecording }).waitFor();
    await page.waitForTimeout(speechSeconds * 1000 + 800);
    await page.getByRole("button", { name: words.MESSAGES.stopRecording }).click();
    await page
      .getByText(words.MESSAGES.memorySaved, { exact: true })
      .first()
      .waitFor({ timeout: 60_000 });
    await expectOnlyLanguage(page, language, "saved");
    await page.getByRole("link", { name: TITLE }).first().click();
    await page.getByRole("heading", { name: TITLE }).waitFor();
    await page.getByTestId("comments-card").waitFor();
    await expectOnlyLanguage(page, language, "memory");
    expect(unexpectedConsoleErrors(tab.consoleErrors)).toEqual([]);
    await tab.context.close();

    // A relative whose phone speaks the language opens the share link.
    const link = await owner.json<{ url: string }>("POST", "/api/share-links", { label: "Family" });
    expect(link.status).toBe(201);
    const memories = await owner.json<{ items: Memory[] }>("GET", "/api/memories");
    const relative = await newPage(browser, { ...PHONE, locale: language });
    await relative.page.goto(link.data.url);
    await relative.page.getByRole("link", { name: TITLE }).first().waitFor();
    await expectOnlyLanguage(relative.page, language, "shared");
    await relative.page.goto(`${server.url}/memory/${memories.data.items[0]?.id}`);
    await relative.page.getByRole("heading", { name: TITLE }).waitFor();
    await expectOnlyLanguage(relative.page, language, "shared-memory");
    expect(unexpectedConsoleErrors(relative.consoleErrors)).toEqual([]);
    await relative.context.close();
  });
});
