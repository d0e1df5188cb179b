import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { createAi } from "./ai-factory";

describe("createAi", () => {
  it("uses the local provider when no key is configured", () => {
    expect(createAi(loadConfig({ NODE_ENV: "test" })).name).toBe("local");
  });
  it("uses OpenAI when a key is configured", () => {
    expect(createAi(loadConfig({ NODE_ENV: "test", OPENAI_API_KEY: "sk-x" })).name).toBe("openai");
  });
  it("lets AI_PROVIDER choose a self-hosted server without a key", () => {
    const config = loadConfig({
      NODE_ENV: "test",
      AI_PROVIDER: "openai",
      OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
    });
    expect(createAi(config).name).toBe("openai");
    expect(createAi(loadConfig({ AI_PROVIDER: "local", OPENAI_API_KEY: "sk-x" })).name).toBe(
      "local",
    );
  });
});
