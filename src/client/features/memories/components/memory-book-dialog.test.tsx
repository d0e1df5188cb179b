import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DOWNLOAD_CHECK_HEADER } from "../../../../shared/constants";
import { ERROR_MESSAGES, MEMORY_BOOK } from "../../../../shared/messages";
import { dismissToast } from "../../../components/ui/use-toast";
import {
  fakeApi,
  json,
  pageOf,
  renderWithApp,
  stubDownloadLinks,
  userHandler,
} from "../../../test/fake-api";
import { HomeMemories } from "./home-memories";

afterEach(() => {
  act(() => dismissToast());
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const emptyList = ({ url }: { url: string }) =>
  url.startsWith("/api/memories") ? json(pageOf([], 0, 1)) : undefined;

async function openDialog() {
  const user = userEvent.setup();
  renderWithApp(<HomeMemories />);
  await user.click(await screen.findByRole("button", { name: MEMORY_BOOK.button }));
  await screen.findByRole("dialog", { name: MEMORY_BOOK.button });
  return user;
}

describe("Printable memory book", () => {
  it("sends the range and tag, shows 'Preparing your book...' while the server checks, then follows a link to the PDF", async () => {
    let release: () => void = () => {};
    const checked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const api = fakeApi([
      userHandler(),
      emptyList,
      ({ url, headers }) =>
        url.startsWith("/api/memory-book") && headers.get(DOWNLOAD_CHECK_HEADER)
          ? checked.then(() => new Response(null, { status: 204 }))
          : undefined,
    ]);
    const clicked = stubDownloadLinks();
    const user = await openDialog();
    fireEvent.change(screen.getByLabelText(MEMORY_BOOK.from), { target: { value: "2020-01-01" } });
    fireEvent.change(screen.getByLabelText(MEMORY_BOOK.to), { target: { value: "2021-12-31" } });
    await user.type(screen.getByLabelText(MEMORY_BOOK.tag), " family ");
    await user.click(screen.getByRole("button", { name: MEMORY_BOOK.create }));
    expect(await screen.findByText(MEMORY_BOOK.preparing)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: MEMORY_BOOK.create })).toBeDisabled();
    const bookUrl = "/api/memory-book?from=2020-01-01&to=2021-12-31&tag=family";
    expect(api.requests.map((r) => r.url)).toContain(bookUrl);
    expect(clicked).toEqual([]);
    release();
    expect(await screen.findByText(MEMORY_BOOK.ready)).toBeInTheDocument();
    expect(clicked).toEqual([{ href: bookUrl, download: MEMORY_BOOK.defaultFilename }]);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("asks for the whole journal when no field is filled", async () => {
    const api = fakeApi([
      userHandler(),
      emptyList,
      ({ url }) =>
        url.startsWith("/api/memory-book") ? new Response(null, { status: 204 }) : undefined,
    ]);
    const clicked = stubDownloadLinks();
    const user = await openDialog();
    await user.click(screen.getByRole("button", { name: MEMORY_BOOK.create }));
    expect(await screen.findByText(MEMORY_BOOK.ready)).toBeInTheDocument();
    expect(api.requests.map((r) => r.url)).toContain("/api/memory-book");
    expect(clicked.map((link) => link.href)).toEqual(["/api/memory-book"]);
  });

  it("asks for US Letter paper when it is chosen, A4 being the default", async () => {
    const api = fakeApi([
      userHandler(),
      emptyList,
      ({ url }) =>
        url.startsWith("/api/memory-book") ? new Response(null, { status: 204 }) : undefined,
    ]);
    const clicked = stubDownloadLinks();
    const user = await openDialog();
    expect(screen.getByRole("radio", { name: MEMORY_BOOK.paperSizes.a4 })).toBeChecked();
    await user.click(screen.getByRole("radio", { name: MEMORY_BOOK.paperSizes.letter }));
    expect(screen.getByRole("radio", { name: MEMORY_BOOK.paperSizes.a4 })).not.toBeChecked();
    await user.click(screen.getByRole("button", { name: MEMORY_BOOK.create }));
    expect(await screen.findByText(MEMORY_BOOK.ready)).toBeInTheDocument();
    expect(api.requests.map((r) => r.url)).toContain("/api/memory-book?paper=letter");
    expect(clicked.map((link) => link.href)).toEqual(["/api/memory-book?paper=letter"]);
  });

  it("says 'Memory book failed' with the server's message and keeps the dialog open", async () => {
    fakeApi([
      userHandler(),
      emptyList,
      ({ url }) =>
        url.startsWith("/api/memory-book")
          ? json({ code: "too_many_requests", message: "words the client does not show" }, 429)
          : undefined,
    ]);
    const clicked = stubDownloadLinks();
    const user = await openDialog();
    await user.click(screen.getByRole("button", { name: MEMORY_BOOK.create }));
    expect(await screen.findByText(MEMORY_BOOK.failed)).toBeInTheDocument();
    // The words of the server's code, from the catalogue.
    expect(screen.getByText(ERROR_MESSAGES.too_many_requests)).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: MEMORY_BOOK.button })).toBeInTheDocument();
    expect(clicked).toEqual([]);
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
