import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ERROR_MESSAGES, MESSAGES } from "../../../../shared/messages";
import type { Memory, PipelineStage } from "../../../../shared/schemas";
import { dismissToast } from "../../../components/ui/use-toast";
import {
  type FakeRequest,
  fakeApi,
  fakeClock,
  json,
  makeMemory,
  me,
  passTime,
  renderWithApp,
  someoneElses,
  userHandler,
} from "../../../test/fake-api";
import { PROCESSING_POLL_MS } from "../processing/run-processing";
import { EditMemoryDialog } from "./edit-memory-dialog";
import { MemoryPage } from "./memory-page";

afterEach(() => {
  act(() => dismissToast());
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const REGENERATED = {
  title: "You built a sandcastle with Lucia.",
  summary: "You built a sandcastle with Lucia. I love you so much.",
  tags: ["sandcastle", "lucia", "beach"],
};

const STAGES: PipelineStage[] = ["summarize", "score", "tag", "save"];

/**
 * A server that regenerates: POST .../regenerate answers the memory at 'summarize'; each GET after
 * it moves one stage on, then saves it with the new text (or fails it at `failAt`).
 */
function regeneratingServer(options: { failAt?: PipelineStage; refuse?: number } = {}) {
  let memory = makeMemory();
  const stages = STAGES;
  let step = -1;
  const api = fakeApi([
    userHandler(me),
    ({ method, url, body }: FakeRequest) => {
      if (url === `/api/memories/${memory.id}/comments`) return json([]);
      if (method === "POST" && url === `/api/memories/${memory.id}/regenerate`) {
        if (options.refuse) {
          return json(
            { code: "memory.already_processing", message: MESSAGES.alreadyProcessing },
            options.refuse,
          );
        }
        step = 0;
        memory = { ...memory, status: "processing", stage: "summarize", error: null };
        return json(memory);
      }
      if (method === "PUT" && url === `/api/memories/${memory.id}`) {
        memory = { ...memory, ...(body as Partial<Memory>) };
        return json(memory);
      }
      if (method === "GET" && url === `/api/memories/${memory.id}`) {
        if (step >= 0) {
          step += 1;
          const stage = stages[step];
          if (options.failAt && stage === options.failAt) {
            memory = {
              ...memory,
              status: "failed",
              stage,
              error: "tag.invalid_format",
            };
            step = -1;
          } else if (!stage) {
            memory = { ...memory, ...REGENERATED, status: "saved", stage: null };
            step = -1;
          } else {
            memory = { ...memory, stage };
          }
        }
        return json(memory);
      }
      return undefined;
    },
  ]);
  return api;
}

/** Moves the clock past every poll of the regeneration, each notice's minimum time included. */
const passProcessing = () => passTime(STAGES.length * PROCESSING_POLL_MS);

/** Every text the status line showed, in order. */
function recordNotices(status: HTMLElement): string[] {
  const seen: string[] = [];
  const observer = new MutationObserver(() => {
    const text = status.textContent ?? "";
    if (text && seen.at(-1) !== text) seen.push(text);
  });
  observer.observe(status, { childList: true, characterData: true, subtree: true });
  return seen;
}

/** Answers the question Regenerate asks first: "Replace your title and summary?". */
async function confirmRegenerate(user: { click: (element: Element) => Promise<void> }) {
  const dialog = await screen.findByRole("dialog", { name: MESSAGES.regenerateConfirmTitle });
  await user.click(within(dialog).getByRole("button", { name: MESSAGES.regenerateConfirm }));
}

describe("Regenerate on the memory page", () => {
  it("asks first, saying what it replaces, and Cancel leaves the memory alone", async () => {
    const api = regeneratingServer();
    renderWithApp(<MemoryPage id="m1" />, "/memory/m1");
    vi.stubGlobal("scrollTo", vi.fn());
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: MESSAGES.regenerate }));
    const dialog = await screen.findByRole("dialog", { name: MESSAGES.regenerateConfirmTitle });
    expect(dialog).toHaveAccessibleDescription(MESSAGES.regenerateConfirmDescription);
    await user.click(within(dialog).getByRole("button", { name: MESSAGES.cancel }));
    expect(dialog).not.toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Our day at the beach" })).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("offers Undo, which puts the owner's title, summary and tags back", async () => {
    const api = regeneratingServer();
    renderWithApp(<MemoryPage id="m1" />, "/memory/m1");
    vi.stubGlobal("scrollTo", vi.fn());
    const user = fakeClock();
    const before = makeMemory();
    await user.click(await screen.findByRole("button", { name: MESSAGES.regenerate }));
    await confirmRegenerate(user);
    await passProcessing();
    expect(screen.getByRole("heading", { name: REGENERATED.title })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: MESSAGES.undo }));
    expect(await screen.findByText(MESSAGES.regenerateUndone)).toBeVisible();
    expect(screen.getByRole("heading", { name: before.title })).toBeInTheDocument();
    expect(screen.getByText(before.summary)).toBeInTheDocument();
    const put = api.requests.filter((r) => r.method === "PUT");
    expect(put.map((r) => r.url)).toEqual(["/api/memories/m1"]);
    expect(put[0]?.body).toMatchObject({
      title: before.title,
      summary: before.summary,
      tags: before.tags,
      transcript: before.transcript,
    });
  });

  it("makes the title, summary and tags again, showing each step's notice, then 'Memory updated!'", async () => {
    const api = regeneratingServer();
    renderWithApp(<MemoryPage id="m1" />, "/memory/m1");
    vi.stubGlobal("scrollTo", vi.fn());
    const user = fakeClock();
    const button = await screen.findByRole("button", { name: MESSAGES.regenerate });
    const status = button.parentElement?.querySelector("[role=status]") as HTMLElement;
    const notices = recordNotices(status);

    await user.click(button);
    await confirmRegenerate(user);
    await passProcessing();
    expect(screen.getByText(MESSAGES.memoryUpdated)).toBeVisible();
    expect(notices).toEqual([
      MESSAGES.summarizing,
      MESSAGES.scoring,
      MESSAGES.tagging,
      MESSAGES.saving,
    ]);
    expect(screen.getByRole("heading", { name: REGENERATED.title })).toBeInTheDocument();
    expect(screen.getByText(REGENERATED.summary)).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === "POST").map((r) => r.url)).toEqual([
      "/api/memories/m1/regenerate",
    ]);
    await waitFor(() => expect(button).toBeEnabled());
  });

  it("says why when the server refuses (already processing)", async () => {
    regeneratingServer({ refuse: 409 });
    renderWithApp(<MemoryPage id="m1" />, "/memory/m1");
    vi.stubGlobal("scrollTo", vi.fn());
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: MESSAGES.regenerate }));
    await confirmRegenerate(user);
    expect(await screen.findByText(MESSAGES.regenerateFailed)).toBeVisible();
    expect(screen.getByText(MESSAGES.alreadyProcessing)).toBeVisible();
  });

  it("shows the failed step's message when processing fails", async () => {
    regeneratingServer({ failAt: "tag" });
    renderWithApp(<MemoryPage id="m1" />, "/memory/m1");
    vi.stubGlobal("scrollTo", vi.fn());
    const user = fakeClock();
    await user.click(await screen.findByRole("button", { name: MESSAGES.regenerate }));
    await confirmRegenerate(user);
    await passProcessing();
    expect(screen.getByText(MESSAGES.regenerateFailed)).toBeVisible();
    expect(screen.getAllByText(ERROR_MESSAGES["tag.invalid_format"]).length).toBeGreaterThan(0);
  });

  /** The memory page as `viewer` sees `memory`, once its heading shows. */
  async function showMemoryPage(viewer: typeof me, memory: ReturnType<typeof makeMemory>) {
    fakeApi([
      userHandler(viewer),
      ({ url }) =>
        url === "/api/memories/m1"
          ? json(memory)
          : url === "/api/memories/m1/comments"
            ? json([])
            : undefined,
    ]);
    vi.stubGlobal("scrollTo", vi.fn());
    renderWithApp(<MemoryPage id="m1" />, "/memory/m1");
    expect(await screen.findByRole("heading", { name: "Our day at the beach" })).toBeVisible();
  }

  it("is not offered without a transcript to make it from", async () => {
    await showMemoryPage(me, makeMemory({ transcript: "  " }));
    expect(screen.queryByRole("button", { name: MESSAGES.regenerate })).not.toBeInTheDocument();
  });

  it("is not offered to anyone but the owner", async () => {
    await showMemoryPage(
      { ...me, id: "someone-else", username: "visitor" },
      makeMemory(someoneElses),
    );
    expect(screen.queryByRole("button", { name: MESSAGES.regenerate })).not.toBeInTheDocument();
  });
});

describe("Save and regenerate in the edit dialog", () => {
  it("saves the corrected transcript, then regenerates from it with the notices, and closes", async () => {
    const api = regeneratingServer();
    const onOpenChange = vi.fn();
    renderWithApp(<EditMemoryDialog memory={makeMemory()} open onOpenChange={onOpenChange} />);
    const user = fakeClock();
    const dialog = screen.getByRole("dialog", { name: MESSAGES.editMemory });
    const transcript = within(dialog).getByLabelText("Transcript");
    await user.clear(transcript);
    await user.type(transcript, "We built castles with Lucia.");
    const status = within(dialog).getByRole("status");
    const notices = recordNotices(status);

    await user.click(within(dialog).getByRole("button", { name: MESSAGES.saveAndRegenerate }));
    await passProcessing();
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(notices).toEqual([
      MESSAGES.summarizing,
      MESSAGES.scoring,
      MESSAGES.tagging,
      MESSAGES.saving,
    ]);
    expect(screen.getByText(MESSAGES.memoryUpdated)).toBeVisible();
    const writes = api.requests.filter((r) => r.method !== "GET");
    expect(writes.map((r) => `${r.method} ${r.url}`)).toEqual([
      "PUT /api/memories/m1",
      "POST /api/memories/m1/regenerate",
    ]);
    expect(writes[0]?.body).toMatchObject({ transcript: "We built castles with Lucia." });
  });

  it("cannot regenerate from an empty transcript", async () => {
    regeneratingServer();
    renderWithApp(<EditMemoryDialog memory={makeMemory()} open onOpenChange={vi.fn()} />);
    const user = userEvent.setup();
    const dialog = screen.getByRole("dialog", { name: MESSAGES.editMemory });
    const button = within(dialog).getByRole("button", { name: MESSAGES.saveAndRegenerate });
    expect(button).toBeEnabled();
    await user.clear(within(dialog).getByLabelText("Transcript"));
    expect(button).toBeDisabled();
  });
});
