import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { documentTitle, ERROR_MESSAGES, MESSAGES } from "../../../shared/messages";
import { playMemoryLabel, RELATIVES, sharedWelcomeTitle } from "../../../shared/relatives";
import type { User } from "../../../shared/schemas";
import { SHARE_MESSAGES } from "../../../shared/share-links";
import { userKeys } from "../../features/auth/api/get-user";
import { RelativeViewProvider } from "../../lib/relative-view";
import { fakeApi, renderWithApp } from "../../test/fake-api";
import { TopBar } from "../top-bar";
import { ProfilePage } from "./profile-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("ProfilePage", () => {
  it("shows the title with the display name and the subtitle", async () => {
    fakeApi({
      "GET /api/users/joanna": {
        body: { id: "u1", username: "joanna", displayName: "Grandma Jo", isPublic: true },
      },
    });
    renderWithApp(<ProfilePage username="joanna" />);
    expect(
      await screen.findByRole("heading", { name: "Grandma Jo's Memories" }),
    ).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.profileSubtitle)).toBeInTheDocument();
  });

  it("falls back to the username", async () => {
    fakeApi({
      "GET /api/users/sam": {
        body: { id: "u2", username: "Sam", displayName: null, isPublic: true },
      },
    });
    renderWithApp(<ProfilePage username="sam" />);
    expect(await screen.findByRole("heading", { name: "Sam's Memories" })).toBeInTheDocument();
  });

  it("shows 'Profile not found' for a missing or private profile", async () => {
    fakeApi({
      "GET /api/users/ghost": {
        status: 404,
        body: { code: "profile.not_found", message: MESSAGES.profileNotFound },
      },
    });
    renderWithApp(<ProfilePage username="ghost" />);
    expect(
      await screen.findByRole("heading", { name: MESSAGES.profileNotFound }),
    ).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.profileSubtitle)).not.toBeInTheDocument();
  });

  it("says 'Failed to fetch user profile' when the server fails", async () => {
    fakeApi({ "GET /api/users/jo": { status: 500, body: { message: "boom" } } });
    renderWithApp(<ProfilePage username="jo" />);
    expect(
      await screen.findByRole("heading", { name: MESSAGES.failedFetchUserProfile }),
    ).toBeInTheDocument();
  });
});

const jo: User = {
  id: "u1",
  username: "joanna",
  displayName: "Grandma Jo",
  isPublic: false,
  email: null,
};
const emptyPage = { items: [], total: 0, page: 1, pageSize: 15 };

function profileApi(viewer: User | null, profile: Omit<User, "email">) {
  return fakeApi({
    "GET /api/user": viewer
      ? { body: viewer }
      : { status: 401, body: { code: "not_logged_in", message: "Not logged in" } },
    "GET /api/users/joanna": { body: profile },
    "GET /api/users/joanna/memories": { body: emptyPage },
  });
}

describe("ProfilePage for its owner and for visitors", () => {
  it("invites a visitor to search these memories, without the owner's badge", async () => {
    profileApi(null, { ...jo, isPublic: true });
    renderWithApp(<ProfilePage username="joanna" />);
    expect(await screen.findByPlaceholderText(MESSAGES.searchTheseMemories)).toBeInTheDocument();
    expect(screen.queryByPlaceholderText(MESSAGES.searchPlaceholder)).toBeNull();
    expect(screen.queryByTestId("profile-visibility")).toBeNull();
  });

  it("treats another logged-in user as a visitor", async () => {
    profileApi({ ...jo, id: "someone-else", username: "sam" }, { ...jo, isPublic: true });
    renderWithApp(<ProfilePage username="joanna" />);
    expect(await screen.findByPlaceholderText(MESSAGES.searchTheseMemories)).toBeInTheDocument();
    expect(screen.queryByTestId("profile-visibility")).toBeNull();
  });

  it("shows the owner that their profile is private, and 'Search your memories...'", async () => {
    profileApi(jo, jo);
    renderWithApp(<ProfilePage username="joanna" />);
    expect(await screen.findByPlaceholderText(MESSAGES.searchPlaceholder)).toBeInTheDocument();
    const badge = await screen.findByTestId("profile-visibility");
    expect(badge).toHaveTextContent(MESSAGES.profilePrivate);
    expect(badge).toHaveTextContent(MESSAGES.profilePrivateHint);
  });

  it("follows the owner's visibility as it changes", async () => {
    profileApi(jo, jo);
    const { queryClient } = renderWithApp(<ProfilePage username="joanna" />);
    const badge = await screen.findByTestId("profile-visibility");
    // What the visibility toggle in the user menu does on success (the user cache is updated).
    act(() => queryClient.setQueryData(userKeys.session, { ...jo, isPublic: true }));
    await waitFor(() => expect(badge).toHaveTextContent(MESSAGES.profilePublic));
    expect(badge).toHaveTextContent(MESSAGES.profilePublicHint);
  });

  it("names the browser tab after the profile, or after what went wrong", async () => {
    profileApi(null, { ...jo, isPublic: true });
    renderWithApp(<ProfilePage username="joanna" />);
    await screen.findByRole("heading", { name: "Grandma Jo's Memories" });
    await waitFor(() => expect(document.title).toBe(documentTitle("Grandma Jo's Memories")));
  });

  it("shows a missing profile in the app's one not-found layout, titled so", async () => {
    fakeApi({
      "GET /api/users/ghost": { status: 404, body: { code: "not_found", message: "Not found" } },
    });
    renderWithApp(<ProfilePage username="ghost" />);
    expect(await screen.findByTestId("not-found")).toHaveTextContent(MESSAGES.profileNotFound);
    expect(screen.getByRole("link", { name: MESSAGES.returnToHome })).toHaveAttribute("href", "/");
    await waitFor(() => expect(document.title).toBe(documentTitle(MESSAGES.profileNotFound)));
  });
});

describe("the shared view: a relative come through a share link", () => {
  const page = (memory: Record<string, unknown>) => ({
    items: [memory],
    total: 1,
    page: 1,
    pageSize: 15,
  });
  const memory = {
    id: "m1",
    user_id: "u1",
    title: "The summer we learned to swim in the cold lake behind Grandpa's house",
    audioUrl: "/api/audio/a1",
    transcript: "",
    summary: "",
    scores: {
      meaningfulness: 5,
      cuteness: 5,
      excitement: 5,
      interest: 5,
      uniqueness: 5,
      overall: 5,
    },
    duration: 3,
    recordedAt: "2024-06-01T12:30:00.000Z",
    tags: [],
    status: "saved",
    stage: null,
    error: null,
    createdAt: "2024-06-01T12:31:00.000Z",
    journalId: "j-rose",
    storyteller: { id: "s-rose", name: "Rose" },
    question: null,
    language: null,
    photos: [],
  };

  function relativeApi(sharedWithYou: boolean) {
    return fakeApi({
      "GET /api/user": { status: 401, body: { code: "not_logged_in", message: "Not logged in" } },
      "GET /api/users/joanna": { body: { ...jo, sharedWithYou } },
      "GET /api/users/joanna/memories": { body: page(memory) },
    });
  }

  it("welcomes them: who shared, that they can listen and answer by voice, no Log in or Sign up", async () => {
    relativeApi(true);
    renderWithApp(
      <RelativeViewProvider>
        <TopBar />
        <ProfilePage username="joanna" />
      </RelativeViewProvider>,
    );
    const welcome = await screen.findByTestId("shared-welcome");
    expect(
      within(welcome).getByRole("heading", { name: sharedWelcomeTitle("Grandma Jo") }),
    ).toBeInTheDocument();
    expect(welcome).toHaveTextContent(RELATIVES.welcomeListen);
    expect(welcome).toHaveTextContent(RELATIVES.welcomeAnswer);
    // Each memory plays in place; its title may take two lines.
    expect(
      await screen.findByRole("button", { name: playMemoryLabel(memory.title) }),
    ).toBeInTheDocument();
    expect(screen.getByText(memory.title)).toHaveClass("line-clamp-2");
    await waitFor(() => expect(screen.queryByRole("button", { name: MESSAGES.logIn })).toBeNull());
    expect(screen.queryByRole("button", { name: MESSAGES.signUp })).toBeNull();
  });

  it("a visitor of a public profile gets no welcome and keeps Log in", async () => {
    relativeApi(false);
    renderWithApp(
      <RelativeViewProvider>
        <TopBar />
        <ProfilePage username="joanna" />
      </RelativeViewProvider>,
    );
    await screen.findByRole("heading", { name: "Grandma Jo's Memories" });
    expect(await screen.findByRole("button", { name: MESSAGES.logIn })).toBeInTheDocument();
    expect(screen.queryByTestId("shared-welcome")).toBeNull();
  });

  it("a relative asks for news of new stories with their email, checked first", async () => {
    const api = fakeApi({
      "GET /api/user": { status: 401, body: { code: "not_logged_in", message: "Not logged in" } },
      "GET /api/users/joanna": { body: { ...jo, sharedWithYou: true } },
      "GET /api/users/joanna/memories": { body: page(memory) },
      "POST /api/relative-news": { status: 201, body: { ok: true } },
    });
    const user = userEvent.setup();
    renderWithApp(<ProfilePage username="joanna" />);
    const news = await screen.findByRole("region", { name: SHARE_MESSAGES.newsTitle });
    const field = within(news).getByLabelText(SHARE_MESSAGES.newsEmailField);
    await user.type(field, "not-an-address");
    await user.click(within(news).getByRole("button", { name: SHARE_MESSAGES.newsSubscribe }));
    expect(await within(news).findByText("Please enter a valid email address")).toBeVisible();
    expect(api.requests.filter((c) => c.method === "POST")).toEqual([]);

    await user.clear(field);
    await user.type(field, "may@example.org");
    await user.click(within(news).getByRole("button", { name: SHARE_MESSAGES.newsSubscribe }));
    expect(await within(news).findByRole("status")).toHaveTextContent(
      SHARE_MESSAGES.newsSubscribed,
    );
    expect(api.requests.filter((c) => c.method === "POST").map((c) => c.body)).toEqual([
      { username: "joanna", email: "may@example.org", language: "en" },
    ]);
  });

  it("says so in the product's words when it could not be saved", async () => {
    fakeApi({
      "GET /api/user": { status: 401, body: { code: "not_logged_in", message: "Not logged in" } },
      "GET /api/users/joanna": { body: { ...jo, sharedWithYou: true } },
      "GET /api/users/joanna/memories": { body: page(memory) },
      "POST /api/relative-news": {
        status: 409,
        body: { code: "share.too_many_subscribers", message: "x" },
      },
    });
    const user = userEvent.setup();
    renderWithApp(<ProfilePage username="joanna" />);
    const news = await screen.findByRole("region", { name: SHARE_MESSAGES.newsTitle });
    await user.type(within(news).getByLabelText(SHARE_MESSAGES.newsEmailField), "may@example.org");
    await user.click(within(news).getByRole("button", { name: SHARE_MESSAGES.newsSubscribe }));
    expect(await within(news).findByRole("alert")).toHaveTextContent(
      ERROR_MESSAGES["share.too_many_subscribers"],
    );
  });

  it("is not offered without a share link", async () => {
    relativeApi(false);
    renderWithApp(<ProfilePage username="joanna" />);
    await screen.findByRole("button", { name: playMemoryLabel(memory.title) });
    expect(screen.queryByRole("region", { name: SHARE_MESSAGES.newsTitle })).toBeNull();
  });
});
