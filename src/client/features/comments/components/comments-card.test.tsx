import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatMessage } from "../../../../shared/i18n/format";
import { ERROR_MESSAGES, MESSAGES, removeCommentDescription } from "../../../../shared/messages";
import type { Comment } from "../../../../shared/schemas";
import { dismissToast } from "../../../components/ui/use-toast";
import { formatRecordedAt } from "../../../lib/format-date";
import { fakeApi, json, me, renderWithApp, userHandler } from "../../../test/fake-api";
import { commentKeys } from "../api/comments";
import { COMMENTER_NAME_KEY, CommentsCard } from "./comments-card";

afterEach(() => {
  act(() => dismissToast());
  vi.unstubAllGlobals();
  localStorage.clear();
});

function comment(id: string, overrides: Partial<Comment> = {}): Comment {
  return {
    id,
    memoryId: "m1",
    commenterName: `Name ${id}`,
    audioUrl: `/api/audio/${id}`,
    transcript: `Transcript ${id}`,
    createdAt: "2024-06-01T12:31:00.000Z",
    status: "saved",
    error: null,
    ...overrides,
  };
}

function setup(comments: Comment[], isOwner = false) {
  const api = fakeApi([
    userHandler(isOwner ? me : null),
    ({ method, url }) => {
      if (url === "/api/memories/m1/comments" && method === "GET") return json(comments);
      if (url.startsWith("/api/memories/m1/comments/") && method === "DELETE") {
        return new Response(null, { status: 204 });
      }
      return undefined;
    },
  ]);
  const { queryClient } = renderWithApp(
    <CommentsCard memoryId="m1" isOwner={isOwner} />,
    "/memory/m1",
  );
  return { api, queryClient, user: userEvent.setup() };
}

describe("Comments card", () => {
  it.each([
    [0, MESSAGES.noComments],
    [1, MESSAGES.oneComment],
    [3, "3 comments"],
  ])("labels %i comments as '%s'", async (count, label) => {
    const { queryClient } = setup(Array.from({ length: count }, (_, i) => comment(`c${i}`)));
    // The count shows 'No comments' while loading too: the list is read once it has arrived.
    await waitFor(() =>
      expect(queryClient.getQueryState(commentKeys.list("m1"))?.status).toBe("success"),
    );
    expect(screen.getByRole("heading", { name: label })).toBeInTheDocument();
    expect(screen.queryAllByTestId("comment")).toHaveLength(count);
  });

  it("shows each comment's name, transcript, player, and its pending or failed state", async () => {
    setup([
      comment("a"),
      comment("b", { status: "processing", transcript: "" }),
      comment("c", { status: "failed", error: "transcribe.failed", transcript: "" }),
    ]);
    const items = await screen.findAllByTestId("comment");
    expect(within(items[0] as HTMLElement).getByText("Name a")).toBeInTheDocument();
    expect(within(items[0] as HTMLElement).getByText("Transcript a")).toBeInTheDocument();
    expect(
      within(items[0] as HTMLElement).getByRole("group", { name: "Comment by Name a" }),
    ).toBeInTheDocument();
    expect(
      within(items[0] as HTMLElement).getByRole("button", { name: "Play" }),
    ).toBeInTheDocument();
    // A transcribed comment's player has its captions; one still transcribing has none yet.
    const tracks = items.map((item) => item.querySelector("audio track"));
    expect(tracks[0]).toHaveAttribute("src", "/api/memories/m1/comments/a/captions.vtt");
    expect(tracks[0]).toHaveAttribute("kind", "captions");
    expect(tracks[1]).toBeNull();
    expect(tracks[2]).toBeNull();
    expect(within(items[1] as HTMLElement).getByText(MESSAGES.transcribing)).toBeInTheDocument();
    expect(
      within(items[2] as HTMLElement).getByText(
        formatMessage(MESSAGES.transcriptUnavailable, {
          reason: ERROR_MESSAGES["transcribe.failed"],
        }),
      ),
    ).toBeInTheDocument();
  });

  it("refuses to record without a name", async () => {
    const { user } = setup([]);
    await screen.findByRole("heading", { name: MESSAGES.noComments });
    await user.type(screen.getByLabelText(MESSAGES.yourName), "   ");
    await user.click(screen.getByRole("button", { name: MESSAGES.answerWithVoice }));
    expect((await screen.findAllByText(MESSAGES.nameRequired)).length).toBeGreaterThan(0);
    expect(screen.getAllByText(MESSAGES.nameRequiredDescription).length).toBeGreaterThan(0);
    expect(screen.queryByRole("button", { name: MESSAGES.stopRecording })).toBeNull();
  });

  it("says what its button does, and dates comments as memories are dated", async () => {
    setup([comment("a")]);
    const item = await screen.findByTestId("comment");
    expect(screen.getByRole("button", { name: MESSAGES.answerWithVoice })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: MESSAGES.startRecording })).toBeNull();
    const date = formatRecordedAt("2024-06-01T12:31:00.000Z");
    expect(date).toMatch(/2024/);
    expect(within(item).getByText(date)).toBeInTheDocument();
    // A relative types their name; nothing is filled in for them.
    expect(screen.getByLabelText(MESSAGES.yourName)).toHaveValue("");
  });

  it("remembers a relative's name on this device, so the next answer needs no typing", async () => {
    const { user } = setup([]);
    await screen.findByRole("heading", { name: MESSAGES.noComments });
    await user.type(screen.getByLabelText(MESSAGES.yourName), "  Cousin Ada ");
    await user.click(screen.getByRole("button", { name: MESSAGES.answerWithVoice }));
    expect(localStorage.getItem(COMMENTER_NAME_KEY)).toBe("Cousin Ada");
  });

  it("fills in the name a relative answered under before, which they can still change", async () => {
    localStorage.setItem(COMMENTER_NAME_KEY, "Cousin Ada");
    const { user } = setup([]);
    const name = screen.getByLabelText(MESSAGES.yourName);
    expect(name).toHaveValue("Cousin Ada");
    await user.clear(name);
    await user.type(name, "Ada");
    expect(name).toHaveValue("Ada");
  });

  it("fills in the owner's display name, not a relative's remembered one", async () => {
    localStorage.setItem(COMMENTER_NAME_KEY, "Cousin Ada");
    setup([], true);
    const name = screen.getByLabelText(MESSAGES.yourName);
    await vi.waitFor(() => expect(name).toHaveValue(me.displayName));
  });

  it("fills in the owner's display name, which they can still change", async () => {
    const { user } = setup([], true);
    const name = screen.getByLabelText(MESSAGES.yourName);
    await vi.waitFor(() => expect(name).toHaveValue(me.displayName));
    await user.clear(name);
    expect(name).toHaveValue("");
    await user.type(name, "Grandma");
    expect(name).toHaveValue("Grandma");
  });

  it("offers removal to the memory's owner only", async () => {
    setup([comment("a")], false);
    await screen.findAllByTestId("comment");
    expect(screen.queryByRole("button", { name: "Remove comment by Name a" })).toBeNull();
  });

  it("asks before removing a comment, and keeps it on Cancel", async () => {
    const { api, user } = setup([comment("a")], true);
    const remove = await screen.findByRole("button", { name: "Remove comment by Name a" });
    await user.click(remove);
    const dialog = await screen.findByRole("alertdialog", { name: MESSAGES.removeCommentTitle });
    expect(within(dialog).getByText(removeCommentDescription("Name a"))).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: MESSAGES.cancel }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    await user.click(remove);
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(api.requests.some((r) => r.method === "DELETE")).toBe(false);
    expect(screen.getAllByTestId("comment")).toHaveLength(1);
  });

  it("lets the owner remove a comment once confirmed", async () => {
    const { api, user } = setup([comment("a")], true);
    await user.click(await screen.findByRole("button", { name: "Remove comment by Name a" }));
    expect(api.requests.some((r) => r.method === "DELETE")).toBe(false);
    const dialog = await screen.findByRole("alertdialog", { name: MESSAGES.removeCommentTitle });
    await user.click(within(dialog).getByRole("button", { name: MESSAGES.remove }));
    expect((await screen.findAllByText(MESSAGES.commentRemoved)).length).toBeGreaterThan(0);
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(api.requests.some((r) => r.method === "DELETE" && r.url.endsWith("/comments/a"))).toBe(
      true,
    );
  });
});
