import { describe, expect, it } from "vitest";
import { can } from "./authorization";
import { memoryFacts } from "./memory-facts";
import type { Memory } from "./schemas";

const memory = {
  user_id: "u-organizer",
  status: "saved",
  journalId: "j1",
  storyteller: { id: "m-grandpa", name: "Grandpa" },
} as Memory;

describe("memoryFacts", () => {
  it("reads a memory's journal and storyteller as the rules name them", () => {
    expect(memoryFacts(memory)).toEqual({
      user_id: "u-organizer",
      status: "saved",
      journal_id: "j1",
      storyteller_id: "m-grandpa",
    });
    expect(memoryFacts({ ...memory, journalId: null, storyteller: null })).toMatchObject({
      journal_id: null,
      storyteller_id: null,
    });
  });

  it("lets the rules tell the storyteller who told it from another", () => {
    const actor = (memberId: string) => ({
      userId: "u1",
      memberships: [{ journalId: "j1", memberId, role: "storyteller" as const }],
    });
    expect(can(actor("m-grandpa"), "memory.edit", memoryFacts(memory))).toBe(true);
    expect(can(actor("m-nana"), "memory.edit", memoryFacts(memory))).toBe(false);
  });
});
