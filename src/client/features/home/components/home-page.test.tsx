import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeApi, renderWithApp } from "../../../test/fake-api";
import { HomePage } from "./home-page";

const renders = vi.hoisted(() => ({ recorder: 0 }));
vi.mock("../../recorder/components/recorder", () => ({
  Recorder: () => {
    renders.recorder++;
    return <p>recorder</p>;
  },
}));
vi.mock("../../recorder/components/pending-recordings", () => ({ PendingRecordings: () => null }));
vi.mock("../../reminders/components/question-prompt", () => ({ QuestionPrompt: () => null }));
vi.mock("../../memories/components/unclaimed-recordings", () => ({
  UnclaimedRecordings: () => <p>unclaimed recordings</p>,
}));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("HomePage", () => {
  it("shows the recorder, rendered once, and this browser's unclaimed recordings", async () => {
    fakeApi({ "GET /api/user": { status: 401, body: { message: "Not logged in" } } });
    renderWithApp(<HomePage />);
    expect(await screen.findByText("unclaimed recordings")).toBeInTheDocument();
    expect(screen.getByText("recorder")).toBeInTheDocument();
    expect(renders.recorder).toBe(1);
  });
});
