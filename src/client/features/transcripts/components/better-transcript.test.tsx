import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MESSAGES, transcribingAgainLabel } from "../../../../shared/messages";
import type { PipelineStage } from "../../../../shared/schemas";
import { dismissToast } from "../../../components/ui/use-toast";
import {
  type FakeRoute,
  fakeApi,
  fakeClock,
  makeMemory,
  me,
  passTime,
  renderWithApp,
  routes,
  userHandler,
} from "../../../test/fake-api";
import { MemoryPage } from "../../memories/components/memory-page";
import { PROCESSING_POLL_MS } from "../../memories/processing/run-processing";
import { BetterTranscriptsSection } from "./better-transcripts-section";

afterEach(() => {
  act(() => dismissToast());
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const BETTER = "We built castles, and the sea took them.";

/** The server as its owner (me) sees it: memory m1 has no comments; `answers` says the rest. */
function ownerServer(answers: Record<string, FakeRoute>) {
  return fakeApi([
    userHandler(me),
    routes({ "GET /api/memories/m1/comments": { body: [] }, ...answers }),
  ]);
}

const STAGES: PipelineStage[] = ["transcribe", "summarize", "score", "tag", "save"];

/**
 * A server holding a memory the fallback transcribed: POST .../retranscribe answers it at
 * 'transcribe'; each GET after it moves one stage on, then saves it with the better transcript.
 */
function fallbackServer(options: { edited?: boolean } = {}) {
  let memory = makeMemory();
  let engine = "pocketsphinx";
  let step = -1;
  return ownerServer({
    "GET /api/memories/m1/transcript": () => ({
      body: {
        engine,
        edited: options.edited ?? false,
        segments: [],
        retranscribe: engine === "pocketsphinx",
        proposal: null,
      },
    }),
    "POST /api/memories/m1/retranscribe": () => {
      step = 0;
      memory = { ...memory, status: "processing", stage: "transcribe" };
      return { body: memory };
    },
    "GET /api/memories/m1": () => {
      if (step >= 0) {
        step += 1;
        const stage = STAGES[step];
        if (!stage) {
          memory = { ...memory, transcript: BETTER, status: "saved", stage: null };
          engine = "whisper.cpp ggml-base.bin";
          step = -1;
        } else {
          memory = { ...memory, stage };
        }
      }
      return { body: memory };
    },
  });
}

describe("a better transcription on the memory page", () => {
  it("is offered to the owner and runs again from transcription with each step's notice", async () => {
    const api = fallbackServer();
    vi.stubGlobal("scrollTo", vi.fn());
    renderWithApp(<MemoryPage id="m1" />, "/memory/m1");
    expect(await screen.findByText(MESSAGES.betterTranscriptAvailable)).toBeVisible();
    const button = screen.getByRole("button", { name: MESSAGES.transcribeAgain });
    const status = button.parentElement?.querySelector("[role=status]") as HTMLElement;
    const seen: string[] = [];
    new MutationObserver(() => {
      const text = status.textContent ?? "";
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(status, { childList: true, characterData: true, subtree: true });

    await fakeClock().click(button);
    await passTime(
      STAGES.length * PROCESSING_POLL_MS,
      () => screen.queryByText(MESSAGES.memoryUpdated) !== null,
    );
    expect(screen.getByText(MESSAGES.memoryUpdated)).toBeVisible();
    expect(screen.getByText(BETTER)).toBeVisible();
    expect(seen).toEqual([
      MESSAGES.transcribing,
      MESSAGES.summarizing,
      MESSAGES.scoring,
      MESSAGES.tagging,
      MESSAGES.saving,
    ]);
    await waitFor(() =>
      expect(screen.queryByText(MESSAGES.betterTranscriptAvailable)).not.toBeInTheDocument(),
    );
    expect(api.requests.filter((r) => r.method === "POST").map((r) => r.url)).toEqual([
      "/api/memories/m1/retranscribe",
    ]);
  });

  it("is offered for a transcript the owner edited too, saying theirs stays", async () => {
    fallbackServer({ edited: true });
    vi.stubGlobal("scrollTo", vi.fn());
    renderWithApp(<MemoryPage id="m1" />, "/memory/m1");
    expect(await screen.findByText(MESSAGES.betterTranscriptAvailable)).toBeVisible();
    expect(screen.getByRole("button", { name: MESSAGES.transcribeAgain })).toHaveAttribute(
      "title",
      MESSAGES.transcribeBesideHint,
    );
  });
});

const MINE = "We built castles, my darling, and the sea came for them.";

/** A memory whose owner edited its transcript, with a new transcription made beside it. */
function proposalServer(options: { busy?: boolean } = {}) {
  let memory = makeMemory({ transcript: MINE });
  let proposal: { transcript: string; segments: unknown[]; engine: string } | null = {
    transcript: BETTER,
    segments: [{ start: 0, end: 2, text: BETTER }],
    engine: "whisper.cpp ggml-base.bin",
  };
  let edited = true;
  return ownerServer({
    "GET /api/memories/m1/transcript": () => ({
      body: {
        engine: edited ? "pocketsphinx" : "whisper.cpp ggml-base.bin",
        edited,
        segments: [],
        retranscribe: false,
        proposal,
      },
    }),
    "POST /api/memories/m1/proposed-transcript/accept": () => {
      if (options.busy)
        return {
          status: 409,
          body: { code: "memory.already_processing", message: MESSAGES.alreadyProcessing },
        };
      memory = { ...memory, transcript: proposal?.transcript ?? "" };
      proposal = null;
      edited = false;
      return { body: memory };
    },
    "POST /api/memories/m1/proposed-transcript/dismiss": () => {
      proposal = null;
      return { status: 204 };
    },
    "GET /api/memories/m1": () => ({ body: memory }),
  });
}

describe("a new transcription beside the owner's edit", () => {
  it("shows both side by side; the owner takes the new one", async () => {
    const api = proposalServer();
    vi.stubGlobal("scrollTo", vi.fn());
    renderWithApp(<MemoryPage id="m1" />, "/memory/m1");
    const panel = await screen.findByRole("region", { name: MESSAGES.proposalHeading });
    const sides = within(panel).getAllByRole("figure");
    expect(sides.map((side) => side.textContent)).toEqual([
      `${MESSAGES.yourTranscript}${MINE}`,
      `${MESSAGES.newTranscription}${BETTER}`,
    ]);
    // No offer to transcribe again beside it.
    expect(screen.queryByText(MESSAGES.betterTranscriptAvailable)).not.toBeInTheDocument();

    await userEvent
      .setup()
      .click(within(panel).getByRole("button", { name: MESSAGES.useNewTranscription }));
    expect(await screen.findByText(MESSAGES.memoryUpdated)).toBeVisible();
    await waitFor(() => expect(screen.queryByTestId("transcript-proposal")).toBeNull());
    expect(screen.getByText(BETTER)).toBeVisible();
    expect(screen.queryByText(MINE)).toBeNull();
    expect(api.requests.filter((r) => r.method === "POST").map((r) => r.url)).toEqual([
      "/api/memories/m1/proposed-transcript/accept",
    ]);
  });

  it("keeps the owner's transcript when they choose theirs", async () => {
    const api = proposalServer();
    vi.stubGlobal("scrollTo", vi.fn());
    renderWithApp(<MemoryPage id="m1" />, "/memory/m1");
    const panel = await screen.findByRole("region", { name: MESSAGES.proposalHeading });
    await userEvent.setup().click(within(panel).getByRole("button", { name: MESSAGES.keepMine }));
    await waitFor(() => expect(screen.queryByTestId("transcript-proposal")).toBeNull());
    expect(screen.getByText(MINE)).toBeVisible();
    expect(screen.queryByText(BETTER)).toBeNull();
    expect(api.requests.filter((r) => r.method === "POST").map((r) => r.url)).toEqual([
      "/api/memories/m1/proposed-transcript/dismiss",
    ]);
  });

  it("says so when the choice could not be made, and keeps both on screen", async () => {
    proposalServer({ busy: true });
    vi.stubGlobal("scrollTo", vi.fn());
    renderWithApp(<MemoryPage id="m1" />, "/memory/m1");
    const panel = await screen.findByRole("region", { name: MESSAGES.proposalHeading });
    await userEvent
      .setup()
      .click(within(panel).getByRole("button", { name: MESSAGES.useNewTranscription }));
    expect(await screen.findByText(MESSAGES.proposalFailed)).toBeVisible();
    expect(screen.getByText(MESSAGES.alreadyProcessing)).toBeVisible();
    expect(within(panel).getByText(MINE)).toBeVisible();
    expect(within(panel).getByText(BETTER)).toBeVisible();
  });
});

/** A memory the fallback transcribed while no speech model is there: nothing better to offer. */
const roughTranscript: Record<string, FakeRoute> = {
  "GET /api/memories/m1": () => ({ body: makeMemory() }),
  "GET /api/memories/m1/transcript": () => ({
    body: {
      engine: "pocketsphinx",
      edited: false,
      segments: [],
      retranscribe: false,
      proposal: null,
    },
  }),
};

describe("a rough transcript, while the speech model is missing", () => {
  it("tells the owner calmly that a better transcript will come", async () => {
    ownerServer(roughTranscript);
    vi.stubGlobal("scrollTo", vi.fn());
    renderWithApp(<MemoryPage id="m1" />, "/memory/m1");
    expect(await screen.findByTestId("rough-transcript-note")).toHaveTextContent(
      MESSAGES.roughTranscriptNote,
    );
    expect(screen.queryByRole("button", { name: MESSAGES.transcribeAgain })).toBeNull();
  });

  it("says nothing of it to someone else, such as a relative", async () => {
    fakeApi([
      userHandler(null),
      routes({ "GET /api/memories/m1/comments": { body: [] }, ...roughTranscript }),
    ]);
    vi.stubGlobal("scrollTo", vi.fn());
    renderWithApp(<MemoryPage id="m1" />, "/memory/m1");
    expect(await screen.findByText(makeMemory().title)).toBeVisible();
    expect(screen.queryByTestId("rough-transcript-note")).toBeNull();
  });

  it("says nothing of it once the owner edited the transcript", async () => {
    ownerServer({
      ...roughTranscript,
      "GET /api/memories/m1/transcript": () => ({
        body: {
          engine: "pocketsphinx",
          edited: true,
          segments: [],
          retranscribe: false,
          proposal: null,
        },
      }),
    });
    vi.stubGlobal("scrollTo", vi.fn());
    const { queryClient } = renderWithApp(<MemoryPage id="m1" />, "/memory/m1");
    await waitFor(() =>
      expect(queryClient.getQueryState(["memories", "transcript", "m1"])?.status).toBe("success"),
    );
    expect(screen.queryByTestId("rough-transcript-note")).toBeNull();
  });

  it("tells the owner on the Account page that the speech model is missing", async () => {
    ownerServer({
      "GET /api/memories/retranscribe": () => ({ body: { count: 0, speechModelMissing: true } }),
    });
    renderWithApp(<BetterTranscriptsSection />, "/account");
    expect(
      await screen.findByRole("heading", { name: MESSAGES.speechModelMissingTitle }),
    ).toBeVisible();
    expect(screen.getByText(MESSAGES.speechModelMissing)).toBeVisible();
  });
});

describe("better transcriptions on the Account page", () => {
  it("offers all of them at once, and says how many are being transcribed again", async () => {
    let count = 2;
    const api = ownerServer({
      "GET /api/memories/retranscribe": () => ({ body: { count } }),
      "POST /api/memories/retranscribe": () => {
        const queued = count;
        count = 0;
        return { body: { count: queued } };
      },
    });
    renderWithApp(<BetterTranscriptsSection />, "/account");
    expect(
      await screen.findByText(
        "2 memories were transcribed by the rough offline engine. A better transcription is available.",
      ),
    ).toBeVisible();
    await userEvent
      .setup()
      .click(screen.getByRole("button", { name: MESSAGES.transcribeAllAgain }));
    expect(await screen.findByText(transcribingAgainLabel(2))).toBeVisible();
    expect(screen.queryByRole("button", { name: MESSAGES.transcribeAllAgain })).toBeNull();
    expect(api.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("shows nothing when there is nothing to transcribe again", async () => {
    const api = ownerServer({ "GET /api/memories/retranscribe": () => ({ body: { count: 0 } }) });
    const { container } = renderWithApp(<BetterTranscriptsSection />, "/account");
    await waitFor(() =>
      expect(api.requests.some((r) => r.url === "/api/memories/retranscribe")).toBe(true),
    );
    expect(container.textContent).toBe("");
  });
});
