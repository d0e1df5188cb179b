import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MESSAGES } from "../../../../shared/messages";
import { fakeApi, renderWithApp } from "../../../test/app-render";
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
