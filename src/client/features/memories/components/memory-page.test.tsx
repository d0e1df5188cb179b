import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PAGE_MEMORY_OWNER_SCRIPT_ID, PAGE_MEMORY_SCRIPT_ID } from "../../../../shared/constants";
import { documentTitle, ERROR_MESSAGES, MESSAGES } from "../../../../shared/messages";
import type { Memory } from "../../../../shared/schemas";
import { MemoryScreen as MemoryPage } from "../../../app/memory-screen";
import { dismissToast } from "../../../components/ui/use-toast";
import {
  fakeApi,
  json,
  makeMemory,
  me,
  renderWithApp,
  someoneElses,
  userHandler,
} from "../../../test/fake-api";
import { memoryKeys } from "../api/memory-keys";

afterEach(() => {
  act(() => dismissToast());
  vi.unstubAllGlobals();
});

function setup(
  options: { memory?: Memory; loggedIn?: boolean; deleteStatus?: number; putStatus?: number } = {},
) {
  let memory = options.memory ?? makeMemory();
  const api = fakeApi([
    userHandler(options.loggedIn === false ? null : me),
    ({ method, url, body }) => {
      if (url === `/api/memories/${memory.id}/comments`) return json([]);
      if (url !== `/api/memories/${memory.id}` && url !== `/api/memories/${memory.id}/retry`) {
        return undefined;
      }
      if (method === "GET") return json(memory);
      if (method === "PUT") {
        if (options.putStatus) return json({ message: "Nope" }, options.putStatus);
        memory = { ...memory, ...(body as Partial<Memory>) };
        return json(memory);
      }
      if (method === "POST" && url.endsWith("/retry")) {
        memory = { ...memory, status: "processing", error: null };
        return json(memory);
      }
      if (method === "DELETE") {
        return options.deleteStatus
          ? json({ message: "Nope" }, options.deleteStatus)
          : json({ ok: true });
      }
      return undefined;
    },
  ]);
  const scrollTo = vi.fn();
  vi.stubGlobal("scrollTo", scrollTo);
  const rendered = renderWithApp(<MemoryPage id={memory.id} />, `/memory/${memory.id}`);
  return { api, scrollTo, user: userEvent.setup(), ...rendered };
}

describe("Memory page", () => {
  it("shows Loading..., then the memory, scrolled to the top, with the comments card", async () => {
    const { scrollTo } = setup();
    expect(screen.getByRole("status", { name: MESSAGES.loading })).toBeInTheDocument();
    // Spec 2: the words themselves, not only a spinner that names itself to screen readers.
    expect(screen.getByText(MESSAGES.loading)).toBeVisible();
    expect(
      await screen.findByRole("heading", { name: "Our day at the beach" }),
    ).toBeInTheDocument();
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    expect(screen.getByText("We built castles.")).toBeInTheDocument();
    expect(screen.getByText("My darling, we built castles.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Play" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Back" })).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: MESSAGES.noComments })).toBeInTheDocument();
  });

  it("marks the family's own words dir=auto, so a Spanish story reads left to right on an Arabic page", async () => {
    setup({
      memory: makeMemory({
        title: "La playa",
        transcript: "Fuimos a la playa.",
        summary: "Un día en la playa, mi amor.",
      }),
    });
    const title = await screen.findByRole("heading", { name: "La playa" });
    for (const element of [
      title,
      screen.getByTestId("transcript"),
      screen.getByText("Un día en la playa, mi amor."),
    ]) {
      expect(element).toHaveAttribute("dir", "auto");
    }
    // The page's own words keep the page's direction.
    expect(screen.getByRole("heading", { name: MESSAGES.transcript })).not.toHaveAttribute("dir");
  });

  it("shows the scores collapsed, then each as value/10 with a bar of value x10 percent", async () => {
    const { user } = setup();
    const trigger = await screen.findByRole("button", { name: MESSAGES.memoryScores });
    expect(screen.queryByText("Cuteness")).not.toBeInTheDocument();
    expect(trigger).toHaveAttribute("aria-expanded", "false");
    await user.click(trigger);
    expect(trigger).toHaveAttribute("aria-expanded", "true");
    expect(document.getElementById(trigger.getAttribute("aria-controls") ?? "")).toContainElement(
      screen.getByText("Cuteness"),
    );
    const expected = {
      meaningfulness: 7,
      cuteness: 9,
      excitement: 4,
      interest: 6,
      uniqueness: 3,
      overall: 8,
    };
    for (const [name, value] of Object.entries(expected)) {
      const label = name.charAt(0).toUpperCase() + name.slice(1);
      const row = screen.getByText(label).closest("div") as HTMLElement;
      expect(within(row).getByText(`${value}/10`)).toBeInTheDocument();
      expect(screen.getByTestId(`score-bar-${name}`)).toHaveStyle({ width: `${value * 10}%` });
    }
    await user.click(trigger);
    expect(screen.queryByText("Cuteness")).not.toBeInTheDocument();
    expect(trigger).toHaveAttribute("aria-expanded", "false");
  });

  it("shows the Memory Scores only to those who may edit the memory, not to relatives", async () => {
    setup({ memory: makeMemory(someoneElses) });
    await screen.findByRole("heading", { name: "Our day at the beach" });
    expect(screen.queryByRole("button", { name: MESSAGES.memoryScores })).not.toBeInTheDocument();
  });

  it("shows no Memory Scores to someone who is not signed in", async () => {
    setup({ loggedIn: false });
    await screen.findByRole("heading", { name: "Our day at the beach" });
    expect(screen.queryByRole("button", { name: MESSAGES.memoryScores })).not.toBeInTheDocument();
  });

  it("hides the delete icon and tag editing from someone who is not the owner", async () => {
    setup({ memory: makeMemory(someoneElses) });
    await screen.findByRole("heading", { name: "Our day at the beach" });
    expect(screen.queryByRole("button", { name: "Delete memory" })).not.toBeInTheDocument();
    expect(
      screen.queryByRole("button", { name: MESSAGES.editMemoryLabel }),
    ).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Edit tags" })).not.toBeInTheDocument();
    expect(screen.getByText("beach")).toBeInTheDocument();
  });

  it("offers Edit beside Delete, opening the edit dialog; saving shows the new title", async () => {
    const { api, user } = setup();
    const edit = await screen.findByRole("button", { name: MESSAGES.editMemoryLabel });
    expect(edit.parentElement).toContainElement(
      screen.getByRole("button", { name: "Delete memory" }),
    );
    await user.click(edit);
    const dialog = await screen.findByRole("dialog", { name: MESSAGES.editMemory });
    const title = within(dialog).getByLabelText("Title");
    await user.clear(title);
    await user.type(title, "Castles at the beach");
    await user.click(within(dialog).getByRole("button", { name: MESSAGES.saveChanges }));
    expect(await screen.findByRole("heading", { name: "Castles at the beach" })).toBeVisible();
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    await waitFor(() => expect(edit).toHaveFocus());
    expect(api.requests.filter((r) => r.method === "PUT")[0]?.body).toMatchObject({
      title: "Castles at the beach",
    });
  });

  it("offers no Edit while the memory is still being processed", async () => {
    setup({ memory: makeMemory({ status: "processing", stage: "summarize" }) });
    await screen.findByRole("button", { name: "Delete memory" });
    expect(
      screen.queryByRole("button", { name: MESSAGES.editMemoryLabel }),
    ).not.toBeInTheDocument();
  });

  it("enables Delete only once 'delete' is typed in any case, then deletes and goes home", async () => {
    const { api, user, location } = setup();
    await user.click(await screen.findByRole("button", { name: "Delete memory" }));
    const dialog = await screen.findByRole("dialog");
    const confirm = within(dialog).getByRole("button", { name: "Delete" });
    const input = within(dialog).getByLabelText("Confirmation");
    expect(confirm).toBeDisabled();
    await user.type(input, "delet");
    expect(confirm).toBeDisabled();
    await user.type(input, "{Enter}");
    expect(await screen.findByText(MESSAGES.invalidConfirmation)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.invalidConfirmationDescription)).toBeInTheDocument();
    expect(api.requests.some((r) => r.method === "DELETE")).toBe(false);
    await user.clear(input);
    await user.type(input, "DeLeTe");
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    expect(await screen.findByText(MESSAGES.memoryDeleted)).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === "DELETE").map((r) => r.url)).toEqual([
      "/api/memories/m1",
    ]);
    await waitFor(() => expect(location.history?.at(-1)).toBe("/"));
  });

  it("drops a deleted memory from the lists kept from before, so home never shows it again", async () => {
    const { user, queryClient } = setup();
    const other = makeMemory({ id: "m2", title: "Another day" });
    const ownList = memoryKeys.journal("juser-1", 1, "", "");
    queryClient.setQueryData(ownList, { items: [makeMemory(), other], total: 2, page: 1 });
    await user.click(await screen.findByRole("button", { name: "Delete memory" }));
    await user.type(
      within(await screen.findByRole("dialog")).getByLabelText("Confirmation"),
      "delete",
    );
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText(MESSAGES.memoryDeleted)).toBeInTheDocument();
    const kept = queryClient.getQueryData<{ items: Memory[] }>(ownList);
    expect(kept?.items.map((memory) => memory.id)).toEqual(["m2"]);
  });

  it("says 'Failed to delete memory' when the server refuses", async () => {
    const { user, location } = setup({ deleteStatus: 403 });
    await user.click(await screen.findByRole("button", { name: "Delete memory" }));
    await user.type(screen.getByLabelText("Confirmation"), "delete");
    await user.click(screen.getByRole("button", { name: "Delete" }));
    expect(await screen.findByText(MESSAGES.failedDeleteMemory)).toBeInTheDocument();
    expect(location.history?.at(-1)).toBe("/memory/m1");
  });

  it("lets the owner add and remove tags, saving each change", async () => {
    const { api, user } = setup();
    await user.click(await screen.findByRole("button", { name: "Edit tags" }));
    expect(screen.getByText("2/5 tags used")).toBeInTheDocument();
    await user.type(screen.getByLabelText("New tag"), "sun{Enter}");
    expect(await screen.findByText(MESSAGES.tagAdded)).toBeInTheDocument();
    expect(await screen.findByText("3/5 tags used")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Remove tag beach" }));
    expect(await screen.findByText(MESSAGES.tagRemoved)).toBeInTheDocument();
    expect(await screen.findByText("2/5 tags used")).toBeInTheDocument();
    const puts = api.requests.filter((r) => r.method === "PUT").map((r) => (r.body as Memory).tags);
    expect(puts).toEqual([
      ["beach", "family", "sun"],
      ["family", "sun"],
    ]);
  });

  it("lets the owner retry a failed memory", async () => {
    const { api, user } = setup({
      memory: makeMemory({
        status: "failed",
        stage: "summarize",
        error: "summarize.failed",
      }),
    });
    expect(await screen.findByText(ERROR_MESSAGES["summarize.failed"])).toBeInTheDocument();
    await user.click(await screen.findByRole("button", { name: "Retry" }));
    expect(await screen.findByText(/^Processing…/)).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === "POST").map((r) => r.url)).toEqual([
      "/api/memories/m1/retry",
    ]);
    expect(screen.queryByRole("button", { name: "Retry" })).not.toBeInTheDocument();
  });

  it("says 'Failed to update tags' and keeps the typed tag when saving fails", async () => {
    const { user } = setup({ putStatus: 500 });
    await user.click(await screen.findByRole("button", { name: "Edit tags" }));
    await user.type(screen.getByLabelText("New tag"), "sun{Enter}");
    expect(await screen.findByText(MESSAGES.failedUpdateTags)).toBeInTheDocument();
    expect(screen.getByLabelText("New tag")).toHaveValue("sun");
    expect(screen.getByText("2/5 tags used")).toBeInTheDocument();
  });
});

/** Puts a JSON data block in the page, as the server does (ADR 0031). */
function embed(id: string, value: unknown): HTMLScriptElement {
  const block = document.createElement("script");
  block.type = "application/json";
  block.id = id;
  block.textContent = JSON.stringify(value);
  document.head.append(block);
  return block;
}

const embedMemory = (memory: Memory) => embed(PAGE_MEMORY_SCRIPT_ID, memory);

describe("Memory page carried by the page", () => {
  afterEach(() => {
    document.getElementById(PAGE_MEMORY_SCRIPT_ID)?.remove();
    document.getElementById(PAGE_MEMORY_OWNER_SCRIPT_ID)?.remove();
  });

  it("names the owner the page carries in its first render, without asking for it", async () => {
    const memory = makeMemory({ title: "By the sea" });
    embedMemory(memory);
    embed(PAGE_MEMORY_OWNER_SCRIPT_ID, {
      owner: { username: "rose", displayName: "Grandma Rose" },
    });
    const { api } = setup({ memory, loggedIn: false });
    expect(screen.getByTestId("memory-owner")).toHaveTextContent("Grandma Rose's Memories");
    expect(document.getElementById(PAGE_MEMORY_OWNER_SCRIPT_ID)).toBeNull();
    expect(await screen.findByRole("heading", { name: MESSAGES.noComments })).toBeInTheDocument();
    expect(
      api.requests.filter((r) => r.url.startsWith(`/api/memories/${memory.id}/owner`)),
    ).toEqual([]);
  });

  it("paints the memory the page carries in its first render, without asking for it", async () => {
    const memory = makeMemory({ title: "By the sea" });
    embedMemory(memory);
    const { api } = setup({ memory });
    // Synchronously: no loading step between the page and its memory.
    expect(screen.getByRole("heading", { name: "By the sea" })).toBeInTheDocument();
    // Taken once: a query for it built again later asks the API.
    expect(document.getElementById(PAGE_MEMORY_SCRIPT_ID)).toBeNull();
    // What else the page shows still comes: the comments.
    expect(await screen.findByRole("heading", { name: MESSAGES.noComments })).toBeInTheDocument();
    expect(api.requests.filter((r) => r.url === `/api/memories/${memory.id}`)).toEqual([]);
  });

  it("still follows a carried memory that is processing until it settles", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const processing = makeMemory({ status: "processing", stage: "transcribe" });
      embedMemory(processing);
      const { api } = setup({ memory: processing });
      expect(screen.getByText(/^Processing…/)).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(1600));
      await waitFor(() =>
        expect(api.requests.filter((r) => r.url === `/api/memories/${processing.id}`)).toHaveLength(
          1,
        ),
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it("asks the API when the page carries another memory", async () => {
    embedMemory(makeMemory({ id: "another", title: "Not this one" }));
    const { api } = setup();
    expect(screen.getByRole("status", { name: MESSAGES.loading })).toBeInTheDocument();
    expect(
      await screen.findByRole("heading", { name: "Our day at the beach" }),
    ).toBeInTheDocument();
    expect(screen.queryByText("Not this one")).not.toBeInTheDocument();
    expect(api.requests.filter((r) => r.url === "/api/memories/m1")).toHaveLength(1);
  });

  it("asks the API when the page's block names no memory", async () => {
    embed(PAGE_MEMORY_SCRIPT_ID, { title: "No id" });
    const { api } = setup();
    expect(screen.getByRole("status", { name: MESSAGES.loading })).toBeInTheDocument();
    expect(
      await screen.findByRole("heading", { name: "Our day at the beach" }),
    ).toBeInTheDocument();
    expect(api.requests.filter((r) => r.url === "/api/memories/m1")).toHaveLength(1);
  });
});

describe("Memory page titles and the not-found layout", () => {
  it("names the browser tab after the memory", async () => {
    setup();
    await screen.findByRole("heading", { name: "Our day at the beach" });
    await waitFor(() => expect(document.title).toBe(documentTitle("Our day at the beach")));
  });

  it("shows a missing memory in the app's one not-found layout", async () => {
    fakeApi([userHandler(me), () => json({ code: "not_found", message: MESSAGES.notFound }, 404)]);
    renderWithApp(<MemoryPage id="gone" />, "/memory/gone");
    const notFound = await screen.findByTestId("not-found");
    expect(within(notFound).getByRole("heading", { name: MESSAGES.notFoundPage })).toBeVisible();
    expect(within(notFound).getByRole("link", { name: MESSAGES.returnToHome })).toHaveAttribute(
      "href",
      "/",
    );
    await waitFor(() => expect(document.title).toBe(documentTitle(MESSAGES.pageNotFoundTitle)));
  });

  it("says 'Failed to fetch memory' in the same layout when the server fails", async () => {
    fakeApi([userHandler(me), () => json({ message: "boom" }, 500)]);
    renderWithApp(<MemoryPage id="m1" />, "/memory/m1");
    expect(await screen.findByTestId("not-found")).toHaveTextContent(MESSAGES.failedFetchMemory);
  });
});
