import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { SESSION_USER_SCRIPT_ID } from "../../../shared/constants";
import { MESSAGES } from "../../../shared/messages";
import {
  fakeApi,
  journalHandler,
  json,
  makeMember,
  me,
  myJournal,
  renderWithApp,
  userHandler,
} from "../../test/fake-api";
import { HomePage } from "./home-page";

const renders = vi.hoisted(() => ({ recorder: 0, meta: undefined as unknown }));
vi.mock("../../features/recorder/components/recorder", () => ({
  Recorder: ({ meta }: { meta?: unknown }) => {
    renders.recorder++;
    renders.meta = meta;
    return <p>recorder</p>;
  },
}));
vi.mock("../../features/recorder/components/pending-recordings", () => ({
  PendingRecordings: () => null,
}));
vi.mock("../../features/memories/components/unclaimed-recordings", () => ({
  UnclaimedRecordings: () => <p>unclaimed recordings</p>,
}));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("HomePage", () => {
  it("shows the question and the recorder, rendered once, and this browser's unclaimed recordings", async () => {
    fakeApi({
      "GET /api/user": { status: 401, body: { code: "not_logged_in", message: "Not logged in" } },
    });
    // As the server serves the page to a visitor: nobody is logged in, said in the page itself.
    const session = document.createElement("script");
    session.type = "application/json";
    session.id = SESSION_USER_SCRIPT_ID;
    session.textContent = "null";
    document.head.append(session);
    onTestFinished(() => session.remove());
    renderWithApp(<HomePage />);
    expect(await screen.findByText("unclaimed recordings")).toBeInTheDocument();
    expect(screen.getByText("recorder")).toBeInTheDocument();
    // The recorder has the question shown with it from the first render: no second render to be
    // told of it.
    expect(screen.getByTestId("question-text").textContent).not.toBe("");
    expect(renders.recorder).toBe(1);
  });

  it("records in the open journal", async () => {
    fakeApi([userHandler(me)]);
    renderWithApp(<HomePage />);
    await waitFor(() => expect(renders.meta).toEqual({ journalId: myJournal.id }));
  });

  it("offers a relative no recorder: they listen and answer", async () => {
    const theirs = {
      id: "j-rose",
      name: "Rose's journal",
      role: "relative" as const,
      memberId: "s-nana",
      language: "en" as const,
    };
    fakeApi([
      userHandler(me),
      journalHandler([theirs], {
        "j-rose": [
          makeMember({ id: "s-rose", name: "Rose", isYou: false }),
          makeMember({ id: "s-nana", role: "relative" }),
        ],
      }),
      ({ url }) =>
        url.startsWith("/api/journals/j-rose/memories")
          ? json({ items: [], total: 0, page: 1, pageSize: 15 })
          : undefined,
    ]);
    renderWithApp(<HomePage />);
    expect(await screen.findByText(MESSAGES.recentMemories)).toBeInTheDocument();
    expect(screen.queryByText("recorder")).toBeNull();
    expect(screen.queryByTestId("record-card")).toBeNull();
    // Nor the memory book and the backup, which are the organizers'.
    expect(screen.queryByRole("button", { name: MESSAGES.backupMemories })).toBeNull();
  });
});
