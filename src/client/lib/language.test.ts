import { afterEach, describe, expect, it } from "vitest";
import { PAGE_LANGUAGE_SCRIPT_ID } from "../../shared/constants";
import { hasPageLanguage, pageLanguage } from "./language";

afterEach(() => {
  document.getElementById(PAGE_LANGUAGE_SCRIPT_ID)?.remove();
  localStorage.clear();
});

/** What the server puts in a page that speaks a language of its own (a recording link's). */
function embed(text: string) {
  const block = document.createElement("script");
  block.type = "application/json";
  block.id = PAGE_LANGUAGE_SCRIPT_ID;
  block.textContent = text;
  document.head.append(block);
}

describe("pageLanguage", () => {
  it("speaks the page's own language over the account's and this browser's choice", () => {
    localStorage.setItem("language", "de");
    expect(pageLanguage({ language: "fr" })).toBe("fr");
    expect(hasPageLanguage()).toBe(false);
    embed('"ar"');
    expect(pageLanguage({ language: "fr" })).toBe("ar");
    expect(pageLanguage(null)).toBe("ar");
    expect(hasPageLanguage()).toBe(true);
  });

  it("ignores a block that names no language the product speaks", () => {
    embed('"tlh"');
    expect(pageLanguage({ language: "es" })).toBe("es");
    document.getElementById(PAGE_LANGUAGE_SCRIPT_ID)?.remove();
    embed("not json");
    expect(pageLanguage({ language: "es" })).toBe("es");
    expect(hasPageLanguage()).toBe(false);
  });
});
