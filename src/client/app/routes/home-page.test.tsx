import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { SESSION_USER_SCRIPT_ID } from "../../../shared/constants";
import { fakeApi, renderWithApp } from "../../test/fake-api";
import { HomePage } from "./home-page";

const renders = vi.hoisted(() => ({ recorder: 0 }));
vi.mock("../../features/recorder/components/recorder", () => ({
  Recorder: () => {
    renders.recorder++;
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
});
