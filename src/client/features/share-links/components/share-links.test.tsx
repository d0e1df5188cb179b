import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatMessage } from "../../../../shared/i18n/format";
import { MESSAGES } from "../../../../shared/messages";
import type { User } from "../../../../shared/schemas";
import { SHARE_MESSAGES, type ShareLink } from "../../../../shared/share-links";
import { TopBar } from "../../../app/top-bar";
import { clearToasts, fakeApi, openUserMenu, renderWithApp } from "../../../test/fake-api";
import { USER_PATH } from "../../auth/api/get-user";
import { ShareLinksSection } from "./share-links-section";

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

const TOKEN = "t".repeat(43);
const grandma: ShareLink = {
  id: "l1",
  label: "Grandma",
  createdAt: "2026-11-01T10:00:00.000Z",
  lastUsedAt: "2026-11-02T10:00:00.000Z",
  visits: 3,
  subscribers: [],
};

/** A server holding share links that POST adds to and DELETE removes from. */
function linksServer(start: ShareLink[] = [grandma], user?: User) {
  let links = [...start];
  return fakeApi({
    ...(user ? { [`GET ${USER_PATH}`]: { body: user } } : {}),
    "GET /api/share-links": () => ({ body: links }),
    "POST /api/share-links": ({ body }) => {
      const { label, email } = body as { label: string; email: string | null };
      const link = {
        id: `l${links.length + 1}`,
        label,
        createdAt: new Date().toISOString(),
        lastUsedAt: null,
        visits: 0,
        subscribers: email ? [{ id: `s${links.length + 1}`, email, confirmed: true }] : [],
      };
      links = [link, ...links];
      return {
        status: 201,
        body: { ...link, url: `https://journal.example.org/s/${TOKEN}`, mailed: Boolean(email) },
      };
    },
    "DELETE /api/share-links/l1": () => {
      links = links.filter((l) => l.id !== "l1");
      return { status: 204 };
    },
  });
}

describe("ShareLinksSection", () => {
  it("lists links with their use, makes one, shows its address once as the server wrote it, and copies it", async () => {
    const api = linksServer();
    const user = userEvent.setup();
    renderWithApp(<ShareLinksSection />);
    const row = await screen.findByTestId("share-link");
    expect(row).toHaveTextContent("Grandma");
    expect(row).toHaveTextContent(`${SHARE_MESSAGES.visits}: 3`);

    const region = screen.getByRole("region", { name: SHARE_MESSAGES.sectionTitle });
    await user.click(within(region).getByRole("button", { name: SHARE_MESSAGES.create }));
    expect(await screen.findByText(/Please give the link a name/)).toBeInTheDocument();
    expect(api.requests.filter((c) => c.method === "POST")).toHaveLength(0);

    await user.type(within(region).getByLabelText(SHARE_MESSAGES.labelField), "Uncle Joe");
    await user.type(within(region).getByLabelText(SHARE_MESSAGES.emailField), "not-an-address");
    await user.click(within(region).getByRole("button", { name: SHARE_MESSAGES.create }));
    expect(await screen.findByText("Please enter a valid email address")).toBeInTheDocument();
    await user.clear(within(region).getByLabelText(SHARE_MESSAGES.emailField));
    await user.type(within(region).getByLabelText(SHARE_MESSAGES.emailField), "joe@example.org");
    await user.click(within(region).getByRole("button", { name: SHARE_MESSAGES.create }));

    const created = await screen.findByTestId("created-share-link");
    // The address the mail holds (the server's, on the journal's public address), not this origin.
    const here = `https://journal.example.org/s/${TOKEN}`;
    expect(window.location.origin).not.toBe("https://journal.example.org");
    expect(within(created).getByRole("textbox")).toHaveValue(here);
    expect(await screen.findByText(SHARE_MESSAGES.createdAndMailed)).toBeInTheDocument();
    expect(api.requests.filter((c) => c.method === "POST").map((c) => c.body)).toEqual([
      { label: "Uncle Joe", email: "joe@example.org" },
    ]);
    await waitFor(() => expect(screen.getAllByTestId("share-link")).toHaveLength(2));

    await user.click(within(created).getByRole("button", { name: SHARE_MESSAGES.copy }));
    await expect(navigator.clipboard.readText()).resolves.toBe(here);
  });

  it("revokes a link after confirming", async () => {
    const api = linksServer();
    const user = userEvent.setup();
    renderWithApp(<ShareLinksSection />);
    await user.click(
      await screen.findByRole("button", { name: `${SHARE_MESSAGES.revoke} Grandma` }),
    );
    const dialog = await screen.findByRole("dialog", { name: SHARE_MESSAGES.revokeTitle });
    await user.click(within(dialog).getByRole("button", { name: SHARE_MESSAGES.revoke }));
    expect(await screen.findByText(SHARE_MESSAGES.none)).toBeInTheDocument();
    expect(api.requests.filter((c) => c.method === "DELETE").map((c) => c.url)).toEqual([
      "/api/share-links/l1",
    ]);
  });
});

describe("a new link on a phone", () => {
  /** The browser's share sheet, stubbed at the API's edge (jsdom has none). */
  function stubShare(share: unknown) {
    Object.defineProperty(navigator, "share", { value: share, configurable: true, writable: true });
  }
  afterEach(() => {
    Reflect.deleteProperty(navigator, "share");
  });
  async function makeLink() {
    linksServer();
    const user = userEvent.setup();
    renderWithApp(<ShareLinksSection />);
    const region = await screen.findByRole("region", { name: SHARE_MESSAGES.sectionTitle });
    await user.type(within(region).getByLabelText(SHARE_MESSAGES.labelField), "Grandpa");
    await user.click(within(region).getByRole("button", { name: SHARE_MESSAGES.create }));
    return { user, created: await screen.findByTestId("created-share-link") };
  }
  const url = `https://journal.example.org/s/${TOKEN}`;

  it("offers the share sheet beside Copy, with the link, a title and a line of text", async () => {
    const share = vi.fn(async (_data: ShareData) => undefined);
    stubShare(share);
    const { user, created } = await makeLink();
    expect(within(created).getByRole("button", { name: SHARE_MESSAGES.copy })).toBeInTheDocument();
    await user.click(within(created).getByRole("button", { name: SHARE_MESSAGES.shareSheet }));
    expect(share).toHaveBeenCalledWith({
      title: SHARE_MESSAGES.shareSheetTitle,
      text: SHARE_MESSAGES.shareSheetText,
      url,
    });
    expect(screen.queryByText(SHARE_MESSAGES.copied)).toBeNull();
  });

  it("says nothing when the sheet is closed, and copies when it cannot open", async () => {
    const share = vi
      .fn<(data: ShareData) => Promise<void>>()
      .mockRejectedValueOnce(new DOMException("closed", "AbortError"))
      .mockRejectedValueOnce(new DOMException("not allowed", "NotAllowedError"));
    stubShare(share);
    const { user, created } = await makeLink();
    await navigator.clipboard.writeText("before");
    const button = within(created).getByRole("button", { name: SHARE_MESSAGES.shareSheet });
    await user.click(button);
    await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    await expect(navigator.clipboard.readText()).resolves.toBe("before");
    await user.click(button);
    expect(await screen.findByText(SHARE_MESSAGES.copied)).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe(url);
  });

  it("offers only Copy where the browser has no share sheet", async () => {
    const { created } = await makeLink();
    expect(within(created).getByRole("button", { name: SHARE_MESSAGES.copy })).toBeInTheDocument();
    expect(within(created).queryByRole("button", { name: SHARE_MESSAGES.shareSheet })).toBeNull();
  });
});

describe("the addresses that get news through a link", () => {
  it("lists them under their link, says which wait for confirmation, and removes one", async () => {
    let subscribers = [
      { id: "s1", email: "may@example.org", confirmed: true },
      { id: "s2", email: "joe@example.org", confirmed: false },
    ];
    const api = fakeApi({
      "GET /api/share-links": () => ({ body: [{ ...grandma, subscribers }] }),
      "DELETE /api/share-links/l1/subscribers/s1": () => {
        subscribers = subscribers.filter((s) => s.id !== "s1");
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    renderWithApp(<ShareLinksSection />);
    const list = await screen.findByRole("list", {
      name: `${SHARE_MESSAGES.subscribers} Grandma`,
    });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([
      `may@example.org${SHARE_MESSAGES.removeSubscriber}`,
      `joe@example.org${SHARE_MESSAGES.awaitingConfirmation}${SHARE_MESSAGES.removeSubscriber}`,
    ]);
    await user.click(
      within(list).getByRole("button", {
        name: formatMessage(SHARE_MESSAGES.removeSubscriberLabel, { email: "may@example.org" }),
      }),
    );
    expect(await screen.findByText(SHARE_MESSAGES.subscriberRemoved)).toBeInTheDocument();
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(1));
    expect(list).toHaveTextContent("joe@example.org");
    expect(api.requests.filter((c) => c.method === "DELETE").map((c) => c.url)).toEqual([
      "/api/share-links/l1/subscribers/s1",
    ]);
  });

  it("shows no list for a link without addresses", async () => {
    fakeApi({ "GET /api/share-links": { body: [grandma] } });
    renderWithApp(<ShareLinksSection />);
    await screen.findByTestId("share-link");
    expect(screen.queryByText(`${SHARE_MESSAGES.subscribers}:`)).toBeNull();
  });
});

describe("Share Profile in the user menu", () => {
  const jo: User = {
    id: "u1",
    username: "joanna",
    displayName: "Grandma Jo",
    isPublic: false,
    email: null,
  };

  it("offers a share link for a private profile instead of copying its address", async () => {
    const api = linksServer([], jo);
    const user = userEvent.setup();
    renderWithApp(<TopBar />);
    await openUserMenu(user);
    await user.click(await screen.findByRole("menuitem", { name: MESSAGES.shareProfile }));
    const dialog = await screen.findByRole("dialog", { name: SHARE_MESSAGES.dialogTitle });
    expect(screen.queryByText(MESSAGES.linkCopied)).toBeNull();
    await user.type(within(dialog).getByLabelText(SHARE_MESSAGES.labelField), "Grandma");
    await user.click(within(dialog).getByRole("button", { name: SHARE_MESSAGES.create }));
    const created = await within(dialog).findByTestId("created-share-link");
    expect(within(created).getByRole("textbox")).toHaveValue(
      `https://journal.example.org/s/${TOKEN}`,
    );
    expect(api.requests.some((c) => c.url === USER_PATH)).toBe(true);
  });
});
