import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MEMORY_BOOK } from "../../../../shared/messages";
import { dismissToast } from "../../../components/ui/use-toast";
import { fakeApi, json, pageOf, renderWithApp, userHandler } from "../test/fake-api";
import { HomeMemories } from "./home-memories";

afterEach(() => {
  act(() => dismissToast());
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const emptyList = ({ url }: { url: string }) =>
  url.startsWith("/api/memories") ? json(pageOf([], 0, 1)) : undefined;

function stubDownload() {
  vi.stubGlobal(
    "URL",
    Object.assign(URL, { createObjectURL: vi.fn(() => "blob:book"), revokeObjectURL: vi.fn() }),
  );
  const saved: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push(this.download);
  });
  return saved;
}

async function openDialog() {
  const user = userEvent.setup();
  renderWithApp(<HomeMemories />);
  await user.click(await screen.findByRole("button", { name: MEMORY_BOOK.button }));
  await screen.findByRole("dialog", { name: MEMORY_BOOK.button });
  return user;
}

describe("Printable memory book", () => {
  it("sends the range and tag, shows 'Preparing your book...' until the PDF arrives, then saves it", async () => {
    let release: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      release = resolve;
    });
    const api = fakeApi([
      userHandler(),
      emptyList,
      ({ url }) =>
        url.startsWith("/api/memory-book")
          ? arrived.then(
              () =>
                new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), {
                  headers: {
                    "content-type": "application/pdf",
                    "content-disposition": 'attachment; filename="memory-book-nana-2026-11-22.pdf"',
                  },
                }),
            )
          : undefined,
    ]);
    const saved = stubDownload();
    const user = await openDialog();
    fireEvent.change(screen.getByLabelText(MEMORY_BOOK.from), { target: { value: "2020-01-01" } });
    fireEvent.change(screen.getByLabelText(MEMORY_BOOK.to), { target: { value: "2021-12-31" } });
    await user.type(screen.getByLabelText(MEMORY_BOOK.tag), " family ");
    await user.click(screen.getByRole("button", { name: MEMORY_BOOK.create }));
    expect(await screen.findByText(MEMORY_BOOK.preparing)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: MEMORY_BOOK.create })).toBeDisabled();
    expect(api.requests.map((r) => r.url)).toContain(
      "/api/memory-book?from=2020-01-01&to=2021-12-31&tag=family",
    );
    release();
    expect(await screen.findByText(MEMORY_BOOK.ready)).toBeInTheDocument();
    expect(saved).toEqual(["memory-book-nana-2026-11-22.pdf"]);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("asks for the whole journal when no field is filled", async () => {
    const api = fakeApi([
      userHandler(),
      emptyList,
      ({ url }) =>
        url.startsWith("/api/memory-book")
          ? new Response(new Uint8Array([0x25]), { headers: { "content-type": "application/pdf" } })
          : undefined,
    ]);
    const saved = stubDownload();
    const user = await openDialog();
    await user.click(screen.getByRole("button", { name: MEMORY_BOOK.create }));
    expect(await screen.findByText(MEMORY_BOOK.ready)).toBeInTheDocument();
    expect(api.requests.map((r) => r.url)).toContain("/api/memory-book");
    expect(saved).toEqual([MEMORY_BOOK.defaultFilename]);
  });

  it("says 'Memory book failed' with the server's message and keeps the dialog open", async () => {
    fakeApi([
      userHandler(),
      emptyList,
      ({ url }) =>
        url.startsWith("/api/memory-book")
          ? json({ message: "Too many requests. Please wait a moment and try again." }, 429)
          : undefined,
    ]);
    const user = await openDialog();
    await user.click(screen.getByRole("button", { name: MEMORY_BOOK.create }));
    expect(await screen.findByText(MEMORY_BOOK.failed)).toBeInTheDocument();
    expect(
      screen.getByText("Too many requests. Please wait a moment and try again."),
    ).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: MEMORY_BOOK.button })).toBeInTheDocument();
  });

  it("refuses a 'To' date before 'From' without asking the server", async () => {
    const api = fakeApi([userHandler(), emptyList]);
    await openDialog();
    fireEvent.change(screen.getByLabelText(MEMORY_BOOK.from), { target: { value: "2022-05-02" } });
    fireEvent.change(screen.getByLabelText(MEMORY_BOOK.to), { target: { value: "2022-05-01" } });
    expect(screen.getByText(MEMORY_BOOK.toBeforeFrom)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: MEMORY_BOOK.create })).toBeDisabled();
    expect(api.requests.some((r) => r.url.startsWith("/api/memory-book"))).toBe(false);
  });
});
