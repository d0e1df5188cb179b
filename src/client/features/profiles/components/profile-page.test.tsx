import { act, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { documentTitle, MESSAGES } from "../../../../shared/messages";
import type { User } from "../../../../shared/schemas";
import { fakeApi, renderWithApp } from "../../../test/app-render";
import { USER_PATH } from "../../auth/api/get-user";
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
      "GET /api/users/ghost": { status: 404, body: { message: MESSAGES.profileNotFound } },
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
      : { status: 401, body: { message: "Not logged in" } },
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
    act(() => queryClient.setQueryData([USER_PATH], { ...jo, isPublic: true }));
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
    fakeApi({ "GET /api/users/ghost": { status: 404, body: { message: "Not found" } } });
    renderWithApp(<ProfilePage username="ghost" />);
    expect(await screen.findByTestId("not-found")).toHaveTextContent(MESSAGES.profileNotFound);
    expect(screen.getByRole("link", { name: MESSAGES.returnToHome })).toHaveAttribute("href", "/");
    await waitFor(() => expect(document.title).toBe(documentTitle(MESSAGES.profileNotFound)));
  });
});
