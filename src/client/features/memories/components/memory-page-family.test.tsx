import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatMessage } from "../../../../shared/i18n/format";
import { JOURNAL_MESSAGES } from "../../../../shared/journals";
import { MESSAGES } from "../../../../shared/messages";
import type { Journal, Memory } from "../../../../shared/schemas";
import { MemoryScreen as MemoryPage } from "../../../app/memory-screen";
import {
  fakeApi,
  journalHandler,
  json,
  makeMember,
  makeMemory,
  me,
  renderWithApp,
  userHandler,
} from "../../../test/fake-api";

afterEach(() => {
  vi.unstubAllGlobals();
});

const family = (role: Journal["role"]): Journal => ({
  id: "j-smiths",
  name: "The Smiths",
  role,
  memberId: "s-nana",
  language: "en",
});

const toldBy = (id: string, name: string) =>
  makeMemory({ journalId: "j-smiths", storyteller: { id, name } });

function show(memory: Memory, journal: Journal) {
  fakeApi([
    userHandler(me),
    journalHandler([journal], {
      "j-smiths": [makeMember({ id: "s-nana" }), makeMember({ id: "s-grandpa", isYou: false })],
    }),
    ({ url }) => {
      if (url === `/api/memories/${memory.id}/comments`) return json([]);
      return url === `/api/memories/${memory.id}` ? json(memory) : undefined;
    },
  ]);
  vi.stubGlobal("scrollTo", vi.fn());
  renderWithApp(<MemoryPage id={memory.id} />, `/memory/${memory.id}`);
}

describe("a family's memory page", () => {
  it("says who told it to a relative, who may not change it", async () => {
    show(toldBy("s-grandpa", "Grandpa"), family("relative"));
    expect(
      await screen.findByText(formatMessage(JOURNAL_MESSAGES.toldBy, { name: "Grandpa" })),
    ).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: MESSAGES.editMemoryLabel })).toBeNull();
    expect(screen.queryByRole("button", { name: MESSAGES.deleteMemoryLabel })).toBeNull();
  });

  it("lets an organizer change a story another member told", async () => {
    show(toldBy("s-grandpa", "Grandpa"), family("organizer"));
    expect(
      await screen.findByRole("button", { name: MESSAGES.editMemoryLabel }),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: MESSAGES.deleteMemoryLabel })).toBeInTheDocument();
    expect(
      screen.getByText(formatMessage(JOURNAL_MESSAGES.toldBy, { name: "Grandpa" })),
    ).toBeInTheDocument();
  });

  it("lets a storyteller change their own story, without naming them to themselves", async () => {
    show(toldBy("s-nana", "Nana"), family("storyteller"));
    expect(
      await screen.findByRole("button", { name: MESSAGES.editMemoryLabel }),
    ).toBeInTheDocument();
    expect(screen.queryByText(formatMessage(JOURNAL_MESSAGES.toldBy, { name: "Nana" }))).toBeNull();
  });

  it("keeps a storyteller from changing another's story", async () => {
    show(toldBy("s-grandpa", "Grandpa"), family("storyteller"));
    expect(
      await screen.findByText(formatMessage(JOURNAL_MESSAGES.toldBy, { name: "Grandpa" })),
    ).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: MESSAGES.editMemoryLabel })).toBeNull();
  });

  it("keeps a person alone's page as it was: no line naming themselves", async () => {
    vi.stubGlobal("scrollTo", vi.fn());
    fakeApi([
      userHandler(me),
      ({ url }) => {
        if (url === "/api/memories/m1/comments") return json([]);
        return url === "/api/memories/m1" ? json(makeMemory()) : undefined;
      },
    ]);
    renderWithApp(<MemoryPage id="m1" />, "/memory/m1");
    expect(
      await screen.findByRole("button", { name: MESSAGES.editMemoryLabel }),
    ).toBeInTheDocument();
    expect(screen.queryByText(formatMessage(JOURNAL_MESSAGES.toldBy, { name: "Me" }))).toBeNull();
  });
});
