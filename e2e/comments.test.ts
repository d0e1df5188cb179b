import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenAiStub, startOpenAiStub } from "../src/server/test/openai-stub";
import { MESSAGES } from "../src/shared/messages";
import type { Memory } from "../src/shared/schemas";
import { ApiClient, serverFixture } from "./api-client";
import {
  fakeMicrophoneArgs,
  launchBrowser,
  makeSpeechWav,
  newPage,
  type RunningServer,
  startServer,
} from "./harness";

describe("a visitor leaves a spoken comment", () => {
  let workDir: string;
  let stub: OpenAiStub;
  let server: RunningServer;
  let browser: Browser;
  let memory: Memory;

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), "vmj-comments-"));
    const { wav } = makeSpeechWav(workDir, "What a wonderful memory, I love you.");
    browser = await launchBrowser(fakeMicrophoneArgs(wav));
    stub = await startOpenAiStub((request) =>
      request.path.endsWith("/audio/transcriptions")
        ? { body: { text: "What a wonderful memory, I love you." } }
        : { status: 500, body: { error: { message: "not used" } } },
    );
    server = await startServer({
      AI_PROVIDER: "openai",
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: stub.baseURL,
    });
    const owner = new ApiClient(server.url);
    await owner.register("comment_owner");
    const upload = await owner.upload(await serverFixture("tone.mp3"));
    const { url } = (await upload.json()) as { url: string };
    const created = await owner.json<Memory>("POST", "/api/memories", {
      title: "Our first snow day",
      audioUrl: url,
      transcript: "It snowed all night.",
      summary: "Our first snow day. You laughed so much.",
      tags: ["snow"],
      recordedAt: new Date().toISOString(),
    });
    expect(created.status).toBe(201);
    memory = created.data;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.cleanup();
    await stub?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it("is refused without a name, then records, and sees the comment and the count", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await page.goto(`${server.url}/memory/${memory.id}`);
    const card = page.getByTestId("comments-card");
    await card.getByRole("heading", { name: MESSAGES.noComments }).waitFor();

    await card.getByRole("button", { name: MESSAGES.startRecording }).click();
    await page.getByText(MESSAGES.nameRequiredDescription).first().waitFor();
    await page.getByText(MESSAGES.nameRequired, { exact: true }).first().waitFor();
    expect(await card.getByRole("button", { name: MESSAGES.stopRecording }).count()).toBe(0);

    await card.getByLabel(MESSAGES.yourName).fill("Grandma Rose");
    await card.getByRole("button", { name: MESSAGES.startRecording }).click();
    await card.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await page.waitForTimeout(3000);
    await card.getByRole("button", { name: MESSAGES.stopRecording }).click();

    await page.getByText(MESSAGES.commentAdded).first().waitFor({ timeout: 60_000 });
    await card.getByRole("heading", { name: MESSAGES.oneComment }).waitFor();
    const comment = card.getByTestId("comment");
    await comment.getByText("Grandma Rose").waitFor();
    await comment.getByText("What a wonderful memory, I love you.").waitFor({ timeout: 30_000 });
    expect(consoleErrors.filter((e) => !e.includes("401"))).toEqual([]);

    const transcription = stub.requests.find((r) => r.path.endsWith("/audio/transcriptions"));
    expect(transcription?.form?.file?.type).toBe("audio/mpeg");
    await page.screenshot({
      path: path.join("test-results", "comments-journey.png"),
      fullPage: true,
    });
    await context.close();
  });
});
