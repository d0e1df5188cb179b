import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, publicAppUrl, startupWarnings } from "./config";

describe("loadConfig", () => {
  it("uses the embedded defaults", () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(5000);
    expect(config.dataDir).toBe(path.resolve("./data"));
    expect(config.database).toEqual({ kind: "sqlite", file: path.resolve("./data/journal.db") });
    expect(config.aiProvider).toBe("local");
  });
  it("chooses PostgreSQL for a postgres URL", () => {
    const config = loadConfig({ DATABASE_URL: "postgres://u@h:5432/db" });
    expect(config.database).toEqual({ kind: "postgres", url: "postgres://u@h:5432/db" });
  });
  it("chooses openai when a key is configured", () => {
    expect(loadConfig({ OPENAI_API_KEY: "sk-test" }).aiProvider).toBe("openai");
  });
  it.each([
    ["PORT", "not-a-port"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://x"],
    ["UPLOAD_MAX_BYTES", "-5"],
    ["AI_PROVIDER", "gemini"],
    ["APP_URL", "not a url"],
  ])("names the variable in the error for %s=%s", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe("the public address", () => {
  it("is APP_URL when set, and no start-up warning is needed", () => {
    const config = loadConfig({ APP_URL: "https://journal.example" });
    expect(publicAppUrl(config)).toBe("https://journal.example");
    expect(startupWarnings(config)).toEqual([]);
  });
  it("falls back to localhost on PORT, and start-up says once to set APP_URL", () => {
    const config = loadConfig({ PORT: "5123" });
    expect(publicAppUrl(config)).toBe("http://localhost:5123");
    const warnings = startupWarnings(config);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/APP_URL/);
    expect(warnings[0]).toContain("http://localhost:5123");
  });
});
