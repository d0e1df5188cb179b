import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DOWNLOAD_CHECK_HEADER } from "../../../../shared/constants";
import { DEFAULT_BACKUP_FILENAME, ERROR_MESSAGES, MESSAGES } from "../../../../shared/messages";
import type { Memory } from "../../../../shared/schemas";
import { dismissToast } from "../../../components/ui/use-toast";
import {
  fakeApi,
  json,
  makeMemory,
  me,
  pageOf,
  renderWithApp,
  someoneElses,
  stubDownloadLinks,
  userHandler,
} from "../../../test/fake-api";
import { PROCESSING_REFRESH_MS } from "../api/get-memories";
import { HomeMemories } from "./home-memories";

afterEach(() => {
  act(() => dismissToast());
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/**
 * Moves the clock on (timers faked, still advancing on their own so Testing Library's waits
 * work): what waits on a timer (polling, the search box's pause) runs without a real wait.
 */
function fakeTimers() {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  return (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
}

const all: Memory[] = Array.from({ length: 31 }, (_, i) =>
  makeMemory({ id: `m${i}`, title: `Memory ${i}`, tags: i === 0 ? ["beach"] : [] }),
);

/** The open journal's memories: a person alone's own journal. */
const LIST = "/api/journals/juser-1/memories";

function listHandler(items: Memory[]) {
  return ({ url }: { url: string }) => {
    const parsed = new URL(url, "http://x");
    if (parsed.pathname !== LIST) {
      return undefined;
    }
    const q = parsed.searchParams.get("q")?.toLowerCase() ?? "";
    const page = Number(parsed.searchParams.get("page") ?? "1");
    const matches = items.filter((m) => m.title.toLowerCase().includes(q));
    return json(pageOf(matches.slice((page - 1) * 15, page * 15), matches.length, page));
  };
}

describe("Home memories", () => {
  it("fetches nothing about memories when logged out", async () => {
    const api = fakeApi([userHandler(null), listHandler(all)]);
    renderWithApp(<HomeMemories />);
    await waitFor(() => expect(api.requests.map((r) => r.url)).toEqual(["/api/user"]));
    expect(screen.queryByText(MESSAGES.recentMemories)).not.toBeInTheDocument();
  });

  it("lists 15 per page with numbered page buttons, links, dates, tags and edit buttons", async () => {
    fakeApi([userHandler(), listHandler(all)]);
    const user = userEvent.setup();
    renderWithApp(<HomeMemories />);
    expect(await screen.findByText(MESSAGES.recentMemories)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: MESSAGES.backupMemories })).toBeInTheDocument();
    expect(screen.getByPlaceholderText(MESSAGES.searchPlaceholder)).toBeInTheDocument();
    const list = await screen.findByRole("list", { name: "Memories" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(15);
    expect(within(list).getByRole("link", { name: /Memory 0/ })).toHaveAttribute(
      "href",
      "/memory/m0",
    );
    expect(within(list).getByText("beach")).toBeInTheDocument();
    expect(within(list).getAllByRole("button", { name: /^Edit / })).toHaveLength(15);
    const pages = screen.getByRole("navigation", { name: "Pages" });
    expect(
      within(pages)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["1", "2", "3"]);
    await user.click(within(pages).getByRole("button", { name: "Page 3" }));
    await waitFor(() =>
      expect(
        within(screen.getByRole("list", { name: "Memories" })).getAllByRole("listitem"),
      ).toHaveLength(1),
    );
    expect(within(pages).getByRole("button", { name: "Page 3" })).toHaveAttribute(
      "aria-current",
      "page",
    );
  });

  it("resets to page 1 on a new search and shows 'No memories found.' without the recording hint", async () => {
    const api = fakeApi([userHandler(), listHandler(all)]);
    const user = userEvent.setup();
    renderWithApp(<HomeMemories />);
    await user.click(await screen.findByRole("button", { name: "Page 2" }));
    await user.type(screen.getByPlaceholderText(MESSAGES.searchPlaceholder), "memory 1");
    await waitFor(() => expect(api.requests.at(-1)?.url).toBe(`${LIST}?page=1&q=memory+1`));
    await user.clear(screen.getByPlaceholderText(MESSAGES.searchPlaceholder));
    await user.type(screen.getByPlaceholderText(MESSAGES.searchPlaceholder), "zebra");
    expect(await screen.findByText(MESSAGES.noMemoriesFound)).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.startByRecording)).not.toBeInTheDocument();
  });

  it("invites a first recording when there are no memories", async () => {
    fakeApi([userHandler(), listHandler([])]);
    renderWithApp(<HomeMemories />);
    expect(await screen.findByText(MESSAGES.noMemoriesFound)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.startByRecording)).toBeInTheDocument();
  });

  it("shows processing and failed memories with their state", async () => {
    fakeApi([
      userHandler(),
      listHandler([
        makeMemory({ id: "p", title: "", status: "processing", stage: "transcribe" }),
        makeMemory({
          id: "f",
          title: "",
          status: "failed",
          error: "transcribe.failed",
        }),
      ]),
    ]);
    renderWithApp(<HomeMemories />);
    expect(await screen.findByText("Processing… Transcribing...")).toBeInTheDocument();
    expect(screen.getByText("Processing failed")).toBeInTheDocument();
    expect(screen.getByText(ERROR_MESSAGES["transcribe.failed"])).toBeInTheDocument();
    expect(await screen.findAllByRole("button", { name: "Retry" })).toHaveLength(1);
  });

  it("says 'Processing failed' once when the reason has no more to say", async () => {
    fakeApi([
      userHandler(),
      listHandler([
        makeMemory({ id: "f", title: "", status: "failed", error: "processing.failed" }),
      ]),
    ]);
    renderWithApp(<HomeMemories />);
    expect(await screen.findAllByText(MESSAGES.processingFailed)).toHaveLength(1);
  });

  it("refreshes the list while a memory is processing, until it is saved", async () => {
    let calls = 0;
    fakeApi([
      userHandler(),
      ({ url }) => {
        if (!url.startsWith(`${LIST}?`)) return undefined;
        calls++;
        return json(
          pageOf([
            calls === 1
              ? makeMemory({ title: "", status: "processing", stage: "summarize" })
              : makeMemory({ title: "Finished at last" }),
          ]),
        );
      },
    ]);
    const advance = fakeTimers();
    renderWithApp(<HomeMemories />);
    expect(await screen.findByText("Processing… Summarizing...")).toBeInTheDocument();
    await advance(PROCESSING_REFRESH_MS);
    expect(await screen.findByText("Finished at last")).toBeInTheDocument();
    // Saved: the list stops refreshing.
    await advance(2 * PROCESSING_REFRESH_MS);
    expect(calls).toBe(2);
  });

  it("shows the edit button only on the user's own memories", async () => {
    fakeApi([
      userHandler(),
      listHandler([
        makeMemory({ id: "mine" }),
        makeMemory({ ...someoneElses, id: "theirs", title: "Theirs" }),
      ]),
    ]);
    renderWithApp(<HomeMemories />);
    await screen.findByRole("list", { name: "Memories" });
    expect(screen.getAllByRole("button", { name: /^Edit / })).toHaveLength(1);
    expect(me.id).toBe("user-1");
  });

  it("checks the backup can start, then follows a link to it (saved to disk) and says 'Backup successful'", async () => {
    const api = fakeApi([
      userHandler(),
      listHandler([]),
      ({ url, headers }) =>
        url === "/api/backup-memories" && headers.get(DOWNLOAD_CHECK_HEADER)
          ? new Response(null, { status: 204 })
          : undefined,
    ]);
    const clicked = stubDownloadLinks();
    const user = userEvent.setup();
    renderWithApp(<HomeMemories />);
    await user.click(await screen.findByRole("button", { name: MESSAGES.backupMemories }));
    expect(await screen.findByText(MESSAGES.backupSuccessful)).toBeInTheDocument();
    expect(clicked).toEqual([{ href: "/api/backup-memories", download: DEFAULT_BACKUP_FILENAME }]);
    // Only the check went through fetch: the zip itself is never read into the page.
    expect(api.requests.filter((r) => r.url === "/api/backup-memories")).toHaveLength(1);
  });

  it("says 'Backup failed' with the server's message", async () => {
    fakeApi([
      userHandler(),
      listHandler([]),
      ({ url }) =>
        url === "/api/backup-memories"
          ? json({ code: "not_logged_in", message: ERROR_MESSAGES.not_logged_in }, 401)
          : undefined,
    ]);
    const clicked = stubDownloadLinks();
    const user = userEvent.setup();
    renderWithApp(<HomeMemories />);
    await user.click(await screen.findByRole("button", { name: MESSAGES.backupMemories }));
    expect(await screen.findByText(MESSAGES.backupFailed)).toBeInTheDocument();
    expect(screen.getByText(ERROR_MESSAGES.not_logged_in)).toBeInTheDocument();
    expect(clicked).toEqual([]);
  });
});

describe("editing waits for processing", () => {
  it("offers no edit button on a memory that is still processing (ADR 0011)", async () => {
    const items = [
      makeMemory({
        id: "busy",
        title: "Still processing",
        status: "processing",
        stage: "summarize",
      }),
      makeMemory({ id: "done", title: "Ready" }),
    ];
    fakeApi([userHandler(), listHandler(items)]);
    renderWithApp(<HomeMemories />);
    const list = await screen.findByRole("list", { name: "Memories" });
    expect(within(list).getByRole("button", { name: "Edit Ready" })).toBeInTheDocument();
    expect(within(list).queryByRole("button", { name: /Edit Still processing/ })).toBeNull();
  });
});

describe("page and search live in the URL", () => {
  const listRequests = (requests: { url: string }[]) =>
    requests.filter((r) => r.url.startsWith(`${LIST}?`)).map((r) => r.url);

  it("opens at the page and search the URL names (a reload, or Back from a memory)", async () => {
    const api = fakeApi([userHandler(), listHandler(all)]);
    const advance = fakeTimers();
    renderWithApp(<HomeMemories />, "/?page=2&q=memory");
    const list = await screen.findByRole("list", { name: "Memories" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(15);
    expect(screen.getByPlaceholderText(MESSAGES.searchPlaceholder)).toHaveValue("memory");
    expect(screen.getByRole("button", { name: "Page 2" })).toHaveAttribute("aria-current", "page");
    // Past the search box's pause: it does not search again for the text it started with.
    await advance(1000);
    expect(listRequests(api.requests)).toEqual([`${LIST}?page=2&q=memory`]);
  });

  it("makes each page a history entry and scrolls to the top of the list", async () => {
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
    fakeApi([userHandler(), listHandler(all)]);
    const user = userEvent.setup();
    const { location } = renderWithApp(<HomeMemories />);
    await user.click(await screen.findByRole("button", { name: "Page 3" }));
    await waitFor(() => expect(location.history).toEqual(["/", "/?page=3"]));
    expect(scrolled).toEqual([screen.getByTestId("memory-list")]);
    await user.click(screen.getByRole("button", { name: "Page 1" }));
    await waitFor(() => expect(location.history).toEqual(["/", "/?page=3", "/"]));
    expect(scrolled).toHaveLength(2);
  });

  it("writes the search to the URL in place and starts again at page 1", async () => {
    const api = fakeApi([userHandler(), listHandler(all)]);
    const user = userEvent.setup();
    const { location } = renderWithApp(<HomeMemories />);
    await user.click(await screen.findByRole("button", { name: "Page 2" }));
    await user.type(screen.getByPlaceholderText(MESSAGES.searchPlaceholder), "memory 1");
    await waitFor(() => expect(location.history?.at(-1)).toBe("/?q=memory+1"));
    expect(location.history).toEqual(["/", "/?q=memory+1"]);
    expect(api.requests.at(-1)?.url).toBe(`${LIST}?page=1&q=memory+1`);
  });

  it("follows the URL when it changes from outside, as Back does", async () => {
    const api = fakeApi([userHandler(), listHandler(all)]);
    const advance = fakeTimers();
    const { location } = renderWithApp(<HomeMemories />, "/?q=memory");
    await screen.findByRole("list", { name: "Memories" });
    const box = screen.getByPlaceholderText(MESSAGES.searchPlaceholder);
    expect(box).toHaveValue("memory");
    act(() => location.navigate("/?page=2"));
    await waitFor(() => expect(box).toHaveValue(""));
    await waitFor(() => expect(listRequests(api.requests).at(-1)).toBe(`${LIST}?page=2`));
    // The emptied box does not write its old text back, even past its pause.
    await advance(1000);
    expect(location.history?.at(-1)).toBe("/?page=2");
  });

  it("offers the years of a journal spanning several, and a year opens its page", async () => {
    const years = [
      { year: "2024", count: 16, page: 1 },
      { year: "2001", count: 15, page: 2 },
    ];
    const api = fakeApi([
      userHandler(),
      ({ url }) => (url === "/api/journals/juser-1/years" ? json({ years }) : undefined),
      listHandler(all),
    ]);
    const user = userEvent.setup();
    const { location } = renderWithApp(<HomeMemories />);
    const nav = await screen.findByRole("navigation", { name: "Years" });
    await user.click(within(nav).getByRole("button", { name: "2001, 15 memories" }));
    expect(location.history?.at(-1)).toBe("/?year=2001&page=2");
    await waitFor(() => expect(listRequests(api.requests).at(-1)).toBe(`${LIST}?page=2`));
  });

  it.each(["abc", "0", "-2", "1.5"])("reads ?page=%s as page 1", async (page) => {
    const api = fakeApi([userHandler(), listHandler(all)]);
    renderWithApp(<HomeMemories />, `/?page=${page}`);
    await screen.findByRole("list", { name: "Memories" });
    expect(listRequests(api.requests)).toEqual([`${LIST}?page=1`]);
  });
});
