import { onlineManager } from "@tanstack/react-query";
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SESSION_USER_SCRIPT_ID, SHARED_WITH_ME_SCRIPT_ID } from "../../shared/constants";
import { JOURNAL_MESSAGES } from "../../shared/journals";
import { MESSAGES, signedInAs } from "../../shared/messages";
import { relativeGreeting } from "../../shared/relatives";
import type { User } from "../../shared/schemas";
import { USER_PATH, userKeys } from "../features/auth/api/get-user";
import { RelativeGreeting } from "../features/profiles/components/relative-greeting";
import { SHARED_WITH_ME_PATH } from "../lib/relative-view";
import {
  clearToasts,
  fakeApi,
  json,
  openUserMenu,
  renderWithApp,
  userHandler,
} from "../test/fake-api";
import { TopBar } from "./top-bar";

const jo: User = {
  id: "u1",
  username: "joanna",
  displayName: "Grandma Jo",
  isPublic: true,
  email: "jo@x.io",
};

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

/** Puts the session data block in the page, as the server does; the caller removes it. */
function embedBlock(id: string, value: unknown): HTMLScriptElement {
  const block = document.createElement("script");
  block.type = "application/json";
  block.id = id;
  block.textContent = JSON.stringify(value);
  document.head.append(block);
  return block;
}

function embedSessionUser(user: User | null): HTMLScriptElement {
  return embedBlock(SESSION_USER_SCRIPT_ID, user);
}

describe("TopBar", () => {
  it("shows a spinner while the session loads", async () => {
    const pending: (() => void)[] = [];
    const release = () => {
      for (const answer of pending.splice(0)) answer();
    };
    vi.stubGlobal(
      "fetch",
      vi.fn(
        () =>
          new Promise<Response>((resolve) => {
            pending.push(() => resolve(new Response("", { status: 401 })));
          }),
      ),
    );
    renderWithApp(<TopBar />);
    expect(screen.getByRole("status", { name: "Loading session" })).toBeInTheDocument();
    release();
    // Then whose memories this browser's links open (none: the answer below is a refusal).
    await waitFor(() => expect(pending).toHaveLength(1));
    release();
    expect(await screen.findByRole("button", { name: MESSAGES.logIn })).toBeInTheDocument();
  });

  it("offers no Log in while offline, when who is logged in cannot be known yet", async () => {
    // The installed app opened offline from its cached shell, which holds no user (ADR 0016).
    const onLine = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    const { requests: calls } = fakeApi({ "GET /api/user": { body: jo } });
    try {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      renderWithApp(<TopBar />);
      // Whatever would ask for the user on a timer (retries, refetches) has had its time.
      await act(() => vi.advanceTimersByTimeAsync(5000));
      vi.useRealTimers();
      expect(screen.queryByRole("button", { name: MESSAGES.logIn })).toBeNull();
      expect(screen.queryByRole("status", { name: "Loading session" })).toBeNull();
      expect(calls).toEqual([]);
      // Back online, the user is asked for and shown.
      onLine.mockReturnValue(true);
      window.dispatchEvent(new Event("online"));
      expect(await screen.findByRole("button", { name: MESSAGES.userMenu })).toBeInTheDocument();
    } finally {
      onlineManager.setOnline(true);
    }
  });

  it("shows the user the server embedded in the page at once, without asking the API", async () => {
    const { requests: calls } = fakeApi({});
    const block = embedSessionUser(jo);
    try {
      renderWithApp(<TopBar />);
      expect(screen.getByRole("button", { name: MESSAGES.userMenu })).toBeInTheDocument();
      expect(screen.queryByRole("status", { name: "Loading session" })).toBeNull();
      await openUserMenu();
      expect(screen.getByText(signedInAs(jo))).toBeInTheDocument();
      expect(calls.filter((c) => c.url === USER_PATH)).toEqual([]);
    } finally {
      block.remove();
    }
  });

  it("shows Log in at once when the page says nobody is logged in and no share link is held", async () => {
    const { requests: calls } = fakeApi({});
    const blocks = [embedSessionUser(null), embedBlock(SHARED_WITH_ME_SCRIPT_ID, { owners: [] })];
    try {
      renderWithApp(<TopBar />);
      expect(screen.getByRole("button", { name: MESSAGES.logIn })).toBeInTheDocument();
      expect(calls).toEqual([]);
    } finally {
      for (const block of blocks) block.remove();
    }
  });

  it("shows no Log in at all when the page says the browser is a relative's", async () => {
    const { requests: calls } = fakeApi({});
    const owners = [{ username: "rose", displayName: "Grandma Rose" }];
    const blocks = [embedSessionUser(null), embedBlock(SHARED_WITH_ME_SCRIPT_ID, { owners })];
    try {
      renderWithApp(
        <>
          <TopBar />
          <RelativeGreeting />
        </>,
      );
      expect(screen.getByText(relativeGreeting(["Grandma Rose"]))).toBeInTheDocument();
      expect(screen.queryByRole("button", { name: MESSAGES.logIn })).toBeNull();
      expect(screen.queryByRole("link", { name: MESSAGES.watchView })).toBeNull();
      expect(calls).toEqual([]);
    } finally {
      for (const block of blocks) block.remove();
    }
  });

  it("offers Watch View, Log in, Sign up and the reset-email dialog when logged out", async () => {
    fakeApi({
      [`GET ${USER_PATH}`]: {
        status: 401,
        body: { code: "not_logged_in", message: MESSAGES.notLoggedIn },
      },
    });
    renderWithApp(<TopBar />);
    expect(await screen.findByRole("link", { name: MESSAGES.watchView })).toHaveAttribute(
      "href",
      "/watch",
    );
    await userEvent.click(screen.getByRole("button", { name: MESSAGES.logIn }));
    expect(await screen.findByRole("dialog", { name: MESSAGES.logIn })).toBeInTheDocument();
    await userEvent.keyboard("{Escape}");
    await userEvent.click(screen.getByRole("button", { name: MESSAGES.signUp }));
    expect(await screen.findByRole("dialog", { name: MESSAGES.signUp })).toBeInTheDocument();
    await userEvent.keyboard("{Escape}");
    await userEvent.click(screen.getByRole("button", { name: MESSAGES.forgotPassword }));
    const dialog = await screen.findByRole("dialog", { name: "Reset your password" });
    expect(dialog).toContainElement(screen.getByLabelText("Email"));
  });

  it("offers 'Forgot your password?' inside the Log in dialog (the top bar hides it on phones)", async () => {
    fakeApi({
      [`GET ${USER_PATH}`]: {
        status: 401,
        body: { code: "not_logged_in", message: MESSAGES.notLoggedIn },
      },
    });
    renderWithApp(<TopBar />);
    await userEvent.click(await screen.findByRole("button", { name: MESSAGES.logIn }));
    const login = await screen.findByRole("dialog", { name: MESSAGES.logIn });
    await userEvent.click(within(login).getByRole("button", { name: MESSAGES.forgotPassword }));
    expect(await screen.findByRole("dialog", { name: "Reset your password" })).toBeInTheDocument();
    expect(screen.queryByRole("dialog", { name: MESSAGES.logIn })).toBeNull();
  });

  it("logs in from the dialog and then shows the user menu", async () => {
    let loggedIn = false;
    fakeApi({
      [`GET ${USER_PATH}`]: () =>
        loggedIn
          ? { body: jo }
          : { status: 401, body: { code: "not_logged_in", message: MESSAGES.notLoggedIn } },
      "POST /api/login": () => {
        loggedIn = true;
        return { body: jo };
      },
    });
    renderWithApp(<TopBar />);
    await userEvent.click(await screen.findByRole("button", { name: MESSAGES.logIn }));
    await userEvent.type(screen.getByLabelText("Username"), "joanna");
    await userEvent.type(screen.getByLabelText("Password"), "secret1");
    await userEvent.click(
      screen.getAllByRole("button", { name: MESSAGES.logIn }).at(-1) as HTMLElement,
    );
    expect(await screen.findByRole("button", { name: MESSAGES.userMenu })).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.welcomeBack)).toBeInTheDocument();
  });

  it("shows the user menu with every item when logged in", async () => {
    fakeApi({ [`GET ${USER_PATH}`]: { body: jo } });
    renderWithApp(<TopBar />);
    const menu = await openUserMenu();
    expect(menu).toHaveTextContent(signedInAs(jo));
    expect(signedInAs(jo)).toBe("Signed in as Grandma Jo");
    const items = screen.getAllByRole("menuitem").map((item) => item.textContent);
    expect(items).toEqual([
      MESSAGES.viewProfile,
      JOURNAL_MESSAGES.familyTitle,
      MESSAGES.account,
      MESSAGES.shareProfile,
      MESSAGES.makeProfilePrivate,
      MESSAGES.language,
      MESSAGES.watchView,
      MESSAGES.logOut,
    ]);
  });

  it("navigates to the profile and the watch view", async () => {
    fakeApi({ [`GET ${USER_PATH}`]: { body: jo } });
    const { location } = renderWithApp(<TopBar />);
    await openUserMenu();
    await userEvent.click(screen.getByRole("menuitem", { name: MESSAGES.viewProfile }));
    expect(location.history.at(-1)).toBe("/profile/joanna");
    await openUserMenu();
    await userEvent.click(screen.getByRole("menuitem", { name: MESSAGES.watchView }));
    expect(location.history.at(-1)).toBe("/watch");
    await openUserMenu();
    await userEvent.click(screen.getByRole("menuitem", { name: MESSAGES.account }));
    expect(location.history.at(-1)).toBe("/account");
    await openUserMenu();
    await userEvent.click(screen.getByRole("menuitem", { name: JOURNAL_MESSAGES.familyTitle }));
    expect(location.history.at(-1)).toBe("/family");
  });

  it("copies the profile link and says 'Link copied!'", async () => {
    fakeApi({ [`GET ${USER_PATH}`]: { body: jo } });
    renderWithApp(<TopBar />);
    const user = userEvent.setup();
    await openUserMenu(user);
    await user.click(await screen.findByRole("menuitem", { name: MESSAGES.shareProfile }));
    expect(await screen.findByText(MESSAGES.linkCopied)).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe(
      `${window.location.origin}/profile/joanna`,
    );
  });

  it("makes the profile private, updates the cached user, then offers Make Profile Public", async () => {
    const api = fakeApi({
      [`GET ${USER_PATH}`]: { body: jo },
      "POST /api/user/visibility": ({ body }) => ({
        body: { ...jo, isPublic: (body as { isPublic: boolean }).isPublic },
      }),
    });
    const { queryClient } = renderWithApp(<TopBar />);
    await openUserMenu();
    await userEvent.click(screen.getByRole("menuitem", { name: MESSAGES.makeProfilePrivate }));
    expect(await screen.findByText(MESSAGES.profileNowPrivate)).toBeInTheDocument();
    expect(queryClient.getQueryData<User>(userKeys.session)?.isPublic).toBe(false);
    expect(api.requests.filter((c) => c.url === USER_PATH)).toHaveLength(1);
    await openUserMenu();
    await userEvent.click(screen.getByRole("menuitem", { name: MESSAGES.makeProfilePublic }));
    expect(await screen.findByText(MESSAGES.profileNowPublic)).toBeInTheDocument();
    expect(api.requests.filter((c) => c.url === "/api/user/visibility").map((c) => c.body)).toEqual(
      [{ isPublic: false }, { isPublic: true }],
    );
  });

  it("says 'Failed to update profile visibility' and keeps the cached user on failure", async () => {
    fakeApi({
      [`GET ${USER_PATH}`]: { body: jo },
      "POST /api/user/visibility": { status: 500, body: { message: "boom" } },
    });
    const { queryClient } = renderWithApp(<TopBar />);
    await openUserMenu();
    await userEvent.click(screen.getByRole("menuitem", { name: MESSAGES.makeProfilePrivate }));
    expect(await screen.findByText(MESSAGES.failedUpdateVisibility)).toBeInTheDocument();
    expect(queryClient.getQueryData<User>(userKeys.session)?.isPublic).toBe(true);
  });

  it("logs out with 'Goodbye!' and refetches the user", async () => {
    let loggedIn = true;
    const api = fakeApi({
      [`GET ${USER_PATH}`]: () =>
        loggedIn
          ? { body: jo }
          : { status: 401, body: { code: "not_logged_in", message: MESSAGES.notLoggedIn } },
      "POST /api/logout": () => {
        loggedIn = false;
        return { body: { ok: true } };
      },
    });
    renderWithApp(<TopBar />);
    await openUserMenu();
    await userEvent.click(screen.getByRole("menuitem", { name: MESSAGES.logOut }));
    expect(await screen.findByText(MESSAGES.goodbye)).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: MESSAGES.logIn })).toBeInTheDocument();
    expect(api.requests.filter((c) => c.url === USER_PATH)).toHaveLength(2);
  });

  it("says 'Logout failed' / 'Please try again' when logout fails", async () => {
    fakeApi({
      [`GET ${USER_PATH}`]: { body: jo },
      "POST /api/logout": { status: 503, body: { message: "down" } },
    });
    renderWithApp(<TopBar />);
    await openUserMenu();
    await userEvent.click(screen.getByRole("menuitem", { name: MESSAGES.logOut }));
    expect(await screen.findByText(MESSAGES.logoutFailed)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.pleaseTryAgain)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole("button", { name: MESSAGES.userMenu })).toBeInTheDocument(),
    );
  });

  it("offers a relative's browser (holding a share link) no Log in, Sign up or watch view", async () => {
    const { requests } = fakeApi([
      userHandler(null),
      ({ url }) =>
        url === SHARED_WITH_ME_PATH
          ? json({ owners: [{ username: "rose", displayName: "Grandma Rose" }] })
          : undefined,
    ]);
    renderWithApp(
      <>
        <TopBar />
        <RelativeGreeting />
      </>,
    );
    expect(await screen.findByText(relativeGreeting(["Grandma Rose"]))).toHaveTextContent(
      "Welcome, you are listening to Grandma Rose's memories",
    );
    const bar = screen.getByTestId("session-controls");
    expect(within(bar).queryByRole("button", { name: MESSAGES.logIn })).toBeNull();
    expect(within(bar).queryByRole("button", { name: MESSAGES.signUp })).toBeNull();
    expect(screen.queryByRole("link", { name: MESSAGES.watchView })).toBeNull();
    expect(requests.some((r) => r.url === SHARED_WITH_ME_PATH)).toBe(true);
  });

  it("offers Log in and greets nobody when the browser holds no share link", async () => {
    fakeApi([
      userHandler(null),
      ({ url }) => (url === SHARED_WITH_ME_PATH ? json({ owners: [] }) : undefined),
    ]);
    renderWithApp(
      <>
        <TopBar />
        <RelativeGreeting />
      </>,
    );
    expect(await screen.findByRole("button", { name: MESSAGES.logIn })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: MESSAGES.watchView })).toBeInTheDocument();
    expect(screen.queryByTestId("relative-greeting")).toBeNull();
  });

  it("greets no logged-in owner, and does not ask whose links the browser holds", async () => {
    const { requests } = fakeApi([userHandler(jo)]);
    renderWithApp(
      <>
        <TopBar />
        <RelativeGreeting />
      </>,
    );
    expect(await openUserMenu()).toHaveTextContent(signedInAs(jo));
    expect(screen.queryByTestId("relative-greeting")).toBeNull();
    expect(requests.some((r) => r.url === SHARED_WITH_ME_PATH)).toBe(false);
  });
});
