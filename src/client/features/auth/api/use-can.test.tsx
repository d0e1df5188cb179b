import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryFacts } from "../../../../shared/memory-facts";
import type { Journal } from "../../../../shared/schemas";
import {
  fakeApi,
  journalHandler,
  makeMemory,
  me,
  renderWithApp,
  userHandler,
} from "../../../test/fake-api";
import { useCan } from "./use-can";

afterEach(() => {
  vi.unstubAllGlobals();
});

const journal = (id: string, role: Journal["role"]): Journal => ({
  id,
  name: id,
  role,
  memberId: `me-in-${id}`,
  language: "en",
});

/** What the reader may do, as the screens ask it, written out to read in the test. */
function Answers() {
  const may = useCan();
  const grandpas = memoryFacts(
    makeMemory({ journalId: "j-told", storyteller: { id: "s-grandpa", name: "Grandpa" } }),
  );
  const mine = memoryFacts(
    makeMemory({ journalId: "j-told", storyteller: { id: "me-in-j-told", name: "Nana" } }),
  );
  const answers = {
    manageOwn: may("journal.manage", { id: "j-own" }),
    recordInTold: may("journal.record", { id: "j-told" }),
    recordInListened: may("journal.record", { id: "j-listened" }),
    viewListened: may("journal.view", { id: "j-listened" }),
    viewStranger: may("journal.view", { id: "j-stranger" }),
    editGrandpas: may("memory.edit", grandpas),
    editMine: may("memory.edit", mine),
    deleteMine: may("memory.delete", mine),
    editListened: may(
      "memory.edit",
      memoryFacts(makeMemory({ journalId: "j-listened", storyteller: { id: "x", name: "X" } })),
    ),
  };
  return <pre data-testid="answers">{JSON.stringify(answers)}</pre>;
}

describe("useCan", () => {
  it("asks the rules with the reader's memberships from their journals", async () => {
    fakeApi([
      userHandler(me),
      journalHandler([
        journal("j-own", "organizer"),
        journal("j-told", "storyteller"),
        journal("j-listened", "relative"),
      ]),
    ]);
    renderWithApp(<Answers />);
    // Once the journals are read, the answers are theirs.
    await screen.findByText(/"manageOwn":true/);
    expect(JSON.parse(screen.getByTestId("answers").textContent ?? "")).toEqual({
      manageOwn: true,
      recordInTold: true,
      recordInListened: false,
      viewListened: true,
      viewStranger: false,
      editGrandpas: false,
      editMine: true,
      deleteMine: true,
      editListened: false,
    });
  });

  it("allows a logged-out reader nothing in a journal", async () => {
    fakeApi([userHandler(null)]);
    renderWithApp(<Answers />);
    await screen.findByTestId("answers");
    expect(JSON.parse(screen.getByTestId("answers").textContent ?? "")).toMatchObject({
      manageOwn: false,
      viewListened: false,
      editMine: false,
    });
  });
});
