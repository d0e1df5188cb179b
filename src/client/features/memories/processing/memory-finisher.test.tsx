import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ERROR_MESSAGES, MESSAGES } from "../../../../shared/messages";
import type { Memory } from "../../../../shared/schemas";
import type { UploadQueue } from "../../../lib/upload-queue";
import {
  fakeApi,
  fakeClock,
  json,
  makeMemory,
  passTime,
  renderWithApp,
} from "../../../test/fake-api";
import { memoryKeys } from "../api/memory-keys";
import { MemorySavedEffects } from "./memory-saved-effects";
import { PROCESSING_POLL_MS } from "./run-processing";

afterEach(() => {
  vi.useRealTimers();
});

function server(final: Partial<Memory>) {
  let polls = 0;
  return fakeApi([
    ({ url }) =>
      url === "/api/upload" ? json({ url: "/api/audio/a1", id: "a1" }, 201) : undefined,
    ({ method, url }) =>
      method === "POST" && url === "/api/memories/process"
        ? json(makeMemory({ status: "processing", stage: "transcribe" }), 201)
        : undefined,
    ({ method, url }) =>
      method === "GET" && url === "/api/memories/m1"
        ? json(makeMemory(polls++ === 0 ? { status: "processing", stage: "tag" } : final))
        : undefined,
  ]);
}

/**
 * Keeps a recording in the app's upload queue and runs it through the 'memory' finisher, the clock
 * moved past the server's two polls.
 */
async function recordAndFinish(uploads: UploadQueue, notices: string[], meta?: unknown) {
  fakeClock();
  const id = await uploads.keep({
    kind: "memory",
    meta,
    blob: new Blob([new Uint8Array(2048)], { type: "audio/mpeg" }),
    filename: "recording.mp3",
    recordedAt: "2026-05-01T10:00:00.000Z",
  });
  let settled = false;
  const finished = uploads.process(id, (notice) => void notices.push(notice));
  // The caller awaits it; a rejection meanwhile is not an unhandled one.
  finished.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await passTime(2 * PROCESSING_POLL_MS, () => settled);
  return finished;
}

describe("the memory finisher", () => {
  it("saves the memory in the journal that was open when it was recorded", async () => {
    const api = server({ status: "saved", stage: null });
    const { uploads } = renderWithApp(<MemorySavedEffects />);
    await recordAndFinish(uploads, [], { journalId: "j-smiths" });
    expect(api.requests.find((r) => r.url === "/api/memories/process")?.body).toEqual({
      audioUrl: "/api/audio/a1",
      recordedAt: "2026-05-01T10:00:00.000Z",
      journalId: "j-smiths",
    });
  });

  it("uploads, has the server process it with progress notices, then celebrates and refreshes lists", async () => {
    const api = server({ status: "saved", stage: null });
    const { queryClient, uploads } = renderWithApp(<MemorySavedEffects />);
    queryClient.setQueryData(memoryKeys.journal("juser-1", 1, "", ""), {
      items: [],
      total: 0,
      page: 1,
      pageSize: 15,
    });
    const notices: string[] = [];
    const result = (await recordAndFinish(uploads, notices)) as Memory;
    expect(result.status).toBe("saved");
    // Summarizing and scoring ran between two polls: their notices are not skipped.
    expect(notices).toEqual([
      MESSAGES.uploading,
      MESSAGES.transcribing,
      MESSAGES.summarizing,
      MESSAGES.scoring,
      MESSAGES.tagging,
      MESSAGES.saving,
    ]);
    expect(await screen.findByText(MESSAGES.memorySaved)).toBeInTheDocument();
    expect(queryClient.getQueryState(memoryKeys.journal("juser-1", 1, "", ""))?.isInvalidated).toBe(
      true,
    );
    expect(api.requests.find((r) => r.url === "/api/memories/process")?.body).toEqual({
      audioUrl: "/api/audio/a1",
      recordedAt: "2026-05-01T10:00:00.000Z",
    });
  });

  it("shows 'Processing failed' with the server's message; the server keeps the recording", async () => {
    server({
      status: "failed",
      stage: "tag",
      error: "tag.invalid_format",
    });
    const { uploads } = renderWithApp(<MemorySavedEffects />);
    // The failed memory (with its audio) is on the server, where its owner retries it: the
    // browser's copy is done with, so no stuck "waiting" recording lingers.
    await expect(recordAndFinish(uploads, [])).resolves.toMatchObject({ status: "failed" });
    expect(await screen.findByText(MESSAGES.processingFailed)).toBeInTheDocument();
    expect(screen.getByText(ERROR_MESSAGES["tag.invalid_format"])).toBeInTheDocument();
  });

  it("shows 'Failed to save memory' saying once to try again when the server refuses (429)", async () => {
    fakeApi([
      ({ url }) =>
        url === "/api/upload" ? json({ url: "/api/audio/a2", id: "a2" }, 201) : undefined,
      ({ url }) =>
        url === "/api/memories/process"
          ? json({ code: "too_many_requests", message: MESSAGES.tooManyRequests }, 429)
          : undefined,
    ]);
    const { uploads } = renderWithApp(<MemorySavedEffects />);
    await expect(recordAndFinish(uploads, [])).rejects.toThrow();
    expect(await screen.findByText(MESSAGES.failedSaveMemory)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.tooManyRequests)).toBeInTheDocument();
    expect(screen.queryByText(/try again\. Please try again/)).toBeNull();
  });

  it("shows 'Failed to save memory' with the refusal's words and 'Please try again' when they do not say what to do", async () => {
    fakeApi([
      ({ url }) =>
        url === "/api/upload" ? json({ url: "/api/audio/a3", id: "a3" }, 201) : undefined,
      ({ url }) =>
        url === "/api/memories/process"
          ? json({ code: "audio.not_yours", message: ERROR_MESSAGES["audio.not_yours"] }, 400)
          : undefined,
    ]);
    const { uploads } = renderWithApp(<MemorySavedEffects />);
    await expect(recordAndFinish(uploads, [])).rejects.toThrow();
    expect(await screen.findByText(MESSAGES.failedSaveMemory)).toBeInTheDocument();
    expect(
      screen.getByText(`${ERROR_MESSAGES["audio.not_yours"]}. Please try again.`),
    ).toBeInTheDocument();
  });
});
