import { get } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  INITIAL_JS_BUDGET_KB,
  LANGUAGE_WORDS_BUDGET_KB,
  measureInitialJs,
  measureLanguageKb,
} from "../bench/bundle-size";
import { LANGUAGES, SOURCE_LANGUAGE } from "../src/shared/i18n/languages";
import { type RunningServer, startServer } from "./harness";

/** One GET as a browser would send it; the bytes as they cross the wire (not decoded). */
function wireGet(url: string): Promise<{ encoding?: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { "accept-encoding": "gzip, deflate, br" } }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on("end", () => resolve({ encoding: res.headers["content-encoding"], bytes }));
      res.on("error", reject);
    }).on("error", reject);
  });
}

// Size, not speed: deterministic for a given build, so it is held here and not only in the bench.
describe("the home page's initial JavaScript", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server.cleanup());

  it(`stays within ${INITIAL_JS_BUDGET_KB} kB gzip, without the MP3 encoder`, async () => {
    const { totalKb, scripts } = await measureInitialJs();
    expect(scripts.length).toBeGreaterThan(0);
    expect(totalKb).toBeLessThanOrEqual(INITIAL_JS_BUDGET_KB);
    expect(scripts.some((s) => /mp3|encoder|worker/i.test(s.path))).toBe(false);
  });

  it(`adds at most ${LANGUAGE_WORDS_BUDGET_KB} kB gzip of words in any other language`, async () => {
    for (const language of LANGUAGES.filter((l) => l !== SOURCE_LANGUAGE)) {
      const kb = await measureLanguageKb(language);
      expect(kb, language).toBeGreaterThan(1);
      expect(kb, language).toBeLessThanOrEqual(LANGUAGE_WORDS_BUDGET_KB);
    }
  });

  it("crosses the wire compressed, as the build precompressed it", async () => {
    const { scripts } = await measureInitialJs();
    let wireKb = 0;
    for (const script of scripts) {
      const res = await wireGet(`${server.url}${script.path}`);
      if (script.kb > 1) expect(res.encoding, script.path).toBe("br");
      wireKb += res.bytes / 1024;
    }
    expect(wireKb).toBeGreaterThan(0);
    expect(wireKb).toBeLessThanOrEqual(INITIAL_JS_BUDGET_KB);
  });
});
