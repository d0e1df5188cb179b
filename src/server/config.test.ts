import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./config";

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
