import { describe, expect, it } from "vitest";
import { INITIAL_JS_BUDGET_KB, measureInitialJs } from "../bench/bundle-size";

// Size, not speed: deterministic for a given build, so it is held here and not only in the bench.
describe("the home page's initial JavaScript", () => {
  it(`stays within ${INITIAL_JS_BUDGET_KB} kB gzip, without the MP3 encoder`, async () => {
    const { totalKb, scripts } = await measureInitialJs();
    expect(scripts.length).toBeGreaterThan(0);
    expect(totalKb).toBeLessThanOrEqual(INITIAL_JS_BUDGET_KB);
    expect(scripts.some((s) => /mp3|encoder|worker/i.test(s.path))).toBe(false);
  });
});
