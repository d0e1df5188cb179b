import { describe, expect, it } from "vitest";
import { type Actor, can, type MemoryFacts } from "./authorization";

// The Alvarez journal: Ana organizes it, her mother Rosa tells stories, her brother Luis listens.
const J = "j-alvarez";
const ana: Actor = {
  userId: "u-ana",
  visitorHash: "h-ana",
  memberships: [{ journalId: J, memberId: "m-ana", role: "organizer" }],
};
const secondOrganizer: Actor = {
  userId: "u-ines",
  memberships: [{ journalId: J, memberId: "m-ines", role: "organizer" }],
};
const rosa: Actor = {
  userId: "u-rosa",
  memberships: [
    { journalId: J, memberId: "m-rosa", role: "storyteller" },
    { journalId: "j-rosa", memberId: "m-rosa-own", role: "organizer" },
  ],
};
const otherStoryteller: Actor = {
  userId: "u-pablo",
  memberships: [{ journalId: J, memberId: "m-pablo", role: "storyteller" }],
};
const luis: Actor = {
  userId: "u-luis",
  memberships: [{ journalId: J, memberId: "m-luis", role: "relative" }],
};
/** Luis once he was removed: his account no longer has the membership. */
const removed: Actor = { userId: "u-luis", memberships: [] };
const linkHolder: Actor = { userId: null, visitorHash: "h-relative", sharedJournalIds: [J] };
const stranger: Actor = { userId: "u-stranger", visitorHash: "h-stranger", memberships: [] };
const loggedOutRecorder: Actor = { userId: null, visitorHash: "h-anon" };
/** Whoever opens Grandpa Tomas's personal recording link (he has no account). */
const tomasLink: Actor = {
  userId: null,
  visitorHash: "h-tomas",
  recordingFor: { journalId: J, memberId: "m-tomas", role: "storyteller" },
};
const loggedInRecorder: Actor = { userId: "u-new", visitorHash: "h-anon" };

const privateJournal = { id: J, isPublic: false };
const publicJournal = { id: J, isPublic: true };
const rosasStory: MemoryFacts = {
  user_id: "u-rosa",
  anon_owner_hash: null,
  status: "saved",
  journal_id: J,
  storyteller_id: "m-rosa",
};
const processing: MemoryFacts = { ...rosasStory, status: "processing" };
const unclaimed: MemoryFacts = {
  user_id: null,
  anon_owner_hash: "h-anon",
  status: "saved",
  journal_id: null,
  storyteller_id: null,
};
const view = (actor: Actor, memory: MemoryFacts, journal = privateJournal) =>
  can(actor, "memory.view", { memory, journal });

describe("profile.view", () => {
  const privateProfile = { id: "u-ana", isPublic: false, journalId: J };
  it("a public profile is seen by anyone, logged in or not", () => {
    expect(can({ userId: null }, "profile.view", { ...privateProfile, isPublic: true })).toBe(true);
    expect(can(stranger, "profile.view", { ...privateProfile, isPublic: true })).toBe(true);
  });
  it("a private profile by its owner and by browsers holding a share link of its journal", () => {
    expect(can(ana, "profile.view", privateProfile)).toBe(true);
    expect(can(linkHolder, "profile.view", privateProfile)).toBe(true);
    expect(can(stranger, "profile.view", privateProfile)).toBe(false);
    expect(can({ userId: null }, "profile.view", privateProfile)).toBe(false);
    expect(can(linkHolder, "profile.view", { ...privateProfile, journalId: null })).toBe(false);
  });
});

describe("profile.manage", () => {
  it("only the account itself, never an organizer of its journal or a share link's holder", () => {
    expect(can(ana, "profile.manage", { id: "u-ana" })).toBe(true);
    expect(can(secondOrganizer, "profile.manage", { id: "u-ana" })).toBe(false);
    expect(can(linkHolder, "profile.manage", { id: "u-ana" })).toBe(false);
    expect(can({ userId: null }, "profile.manage", { id: "u-ana" })).toBe(false);
  });
});

describe("journal.view, journal.record and journal.manage", () => {
  it("every member opens the journal; a removed member, a stranger or a link's holder does not", () => {
    for (const member of [ana, secondOrganizer, rosa, luis]) {
      expect(can(member, "journal.view", { id: J })).toBe(true);
    }
    for (const other of [removed, stranger, linkHolder, loggedOutRecorder]) {
      expect(can(other, "journal.view", { id: J })).toBe(false);
    }
  });
  it("organizers and storytellers record; relatives do not", () => {
    expect(can(ana, "journal.record", { id: J })).toBe(true);
    expect(can(rosa, "journal.record", { id: J })).toBe(true);
    expect(can(luis, "journal.record", { id: J })).toBe(false);
    expect(can(stranger, "journal.record", { id: J })).toBe(false);
  });
  it("organizers and relatives ask a storyteller questions; storytellers and outsiders do not", () => {
    expect(can(ana, "journal.ask", { id: J })).toBe(true);
    expect(can(luis, "journal.ask", { id: J })).toBe(true);
    expect(can(rosa, "journal.ask", { id: J })).toBe(false);
    expect(can(removed, "journal.ask", { id: J })).toBe(false);
    expect(can(linkHolder, "journal.ask", { id: J })).toBe(false);
  });
  it("only organizers look after it, each in their own journals", () => {
    expect(can(ana, "journal.manage", { id: J })).toBe(true);
    expect(can(secondOrganizer, "journal.manage", { id: J })).toBe(true);
    expect(can(rosa, "journal.manage", { id: J })).toBe(false);
    expect(can(rosa, "journal.manage", { id: "j-rosa" })).toBe(true);
    expect(can(ana, "journal.manage", { id: "j-rosa" })).toBe(false);
    expect(can(luis, "journal.manage", { id: J })).toBe(false);
  });
  it("a membership without an account counts for nothing", () => {
    const loggedOut: Actor = { userId: null, memberships: ana.memberships };
    expect(can(loggedOut, "journal.view", { id: J })).toBe(false);
  });
});

describe("memory.view", () => {
  it("every member sees the journal's memories in any state", () => {
    for (const member of [ana, secondOrganizer, rosa, otherStoryteller, luis]) {
      expect(view(member, processing)).toBe(true);
    }
  });
  it("others see a saved memory of a public journal, or of one whose share link they hold", () => {
    expect(view(stranger, rosasStory, publicJournal)).toBe(true);
    expect(view(linkHolder, rosasStory)).toBe(true);
    expect(view(stranger, rosasStory)).toBe(false);
    expect(view(removed, rosasStory)).toBe(false);
    expect(can(stranger, "memory.view", { memory: rosasStory, journal: undefined })).toBe(false);
  });
  it("the storyteller's account sees nothing once it is no longer a member", () => {
    expect(view({ userId: "u-rosa", memberships: [] }, rosasStory)).toBe(false);
  });
  it("others never see a memory still processing or failed", () => {
    expect(view(stranger, processing, publicJournal)).toBe(false);
    expect(view(linkHolder, processing)).toBe(false);
  });
  it("an unclaimed recording only by the browser that made it", () => {
    expect(can(loggedOutRecorder, "memory.view", { memory: unclaimed, journal: undefined })).toBe(
      true,
    );
    expect(can(stranger, "memory.view", { memory: unclaimed, journal: undefined })).toBe(false);
    expect(can(ana, "memory.view", { memory: unclaimed, journal: undefined })).toBe(false);
  });
});

describe("memory.edit and memory.delete", () => {
  it("organizers change any memory of their journal; its storyteller their own", () => {
    for (const action of ["memory.edit", "memory.delete"] as const) {
      expect(can(ana, action, rosasStory)).toBe(true);
      expect(can(secondOrganizer, action, rosasStory)).toBe(true);
      expect(can(rosa, action, rosasStory)).toBe(true);
    }
  });
  it("another storyteller, a relative, a removed member, a link's holder or a stranger cannot", () => {
    for (const action of ["memory.edit", "memory.delete"] as const) {
      for (const other of [otherStoryteller, luis, removed, linkHolder, stranger]) {
        expect(can(other, action, rosasStory)).toBe(false);
      }
    }
  });
  it("a storyteller demoted to relative no longer changes their own", () => {
    const demoted: Actor = {
      userId: "u-rosa",
      memberships: [{ journalId: J, memberId: "m-rosa", role: "relative" }],
    };
    expect(can(demoted, "memory.edit", rosasStory)).toBe(false);
  });
  it("an unclaimed recording is deleted by the browser that made it, edited by no one", () => {
    expect(can(loggedOutRecorder, "memory.delete", unclaimed)).toBe(true);
    expect(can(stranger, "memory.delete", unclaimed)).toBe(false);
    expect(can(loggedOutRecorder, "memory.edit", unclaimed)).toBe(false);
  });
});

describe("memory.retry", () => {
  it("who may edit it, or the browser that recorded it unclaimed", () => {
    expect(can(rosa, "memory.retry", rosasStory)).toBe(true);
    expect(can(ana, "memory.retry", rosasStory)).toBe(true);
    expect(can(luis, "memory.retry", rosasStory)).toBe(false);
    expect(can(loggedOutRecorder, "memory.retry", unclaimed)).toBe(true);
    expect(can(stranger, "memory.retry", unclaimed)).toBe(false);
  });
});

describe("memory.claim", () => {
  it("only a logged-in account in the browser that recorded it", () => {
    expect(can(loggedInRecorder, "memory.claim", unclaimed)).toBe(true);
    expect(can(loggedOutRecorder, "memory.claim", unclaimed)).toBe(false);
    expect(can(stranger, "memory.claim", unclaimed)).toBe(false);
  });
});

describe("upload.use", () => {
  it("the account or the browser that sent it", () => {
    const byAccount = { owner_user_id: "u-rosa", owner_anon_hash: null };
    const byBrowser = { owner_user_id: null, owner_anon_hash: "h-anon" };
    expect(can(rosa, "upload.use", byAccount)).toBe(true);
    expect(can(ana, "upload.use", byAccount)).toBe(false);
    expect(can(loggedOutRecorder, "upload.use", byBrowser)).toBe(true);
    expect(can(stranger, "upload.use", byBrowser)).toBe(false);
  });
});

describe("link.record", () => {
  it("a recording link records in its journal while its member tells stories", () => {
    expect(can(tomasLink, "link.record", { id: J })).toBe(true);
    expect(can(tomasLink, "link.record", { id: "j-rosa" })).toBe(false);
    const demoted: Actor = {
      ...tomasLink,
      recordingFor: { journalId: J, memberId: "m-tomas", role: "relative" },
    };
    expect(can(demoted, "link.record", { id: J })).toBe(false);
  });
  it("no one records through a link they do not hold, members included", () => {
    for (const other of [ana, rosa, linkHolder, stranger, loggedOutRecorder]) {
      expect(can(other, "link.record", { id: J })).toBe(false);
    }
  });
  it("a recording link opens nothing else of the journal", () => {
    expect(can(tomasLink, "journal.view", { id: J })).toBe(false);
    expect(can(tomasLink, "journal.record", { id: J })).toBe(false);
    expect(can(tomasLink, "journal.manage", { id: J })).toBe(false);
    const tomasStory: MemoryFacts = { ...rosasStory, user_id: null, storyteller_id: "m-tomas" };
    for (const action of ["memory.edit", "memory.delete", "memory.retry"] as const) {
      expect(can(tomasLink, action, tomasStory)).toBe(false);
    }
  });
});

describe("memory.view through a recording link", () => {
  it("its member's own stories in any state, and no one else's", () => {
    const tomasStory: MemoryFacts = { ...processing, user_id: null, storyteller_id: "m-tomas" };
    expect(view(tomasLink, tomasStory)).toBe(true);
    expect(view(tomasLink, rosasStory)).toBe(false);
    expect(view(tomasLink, { ...tomasStory, journal_id: "j-rosa" })).toBe(false);
    expect(view(tomasLink, unclaimed)).toBe(false);
  });
});

describe("memory.replies", () => {
  const tomasStory: MemoryFacts = { ...rosasStory, user_id: null, storyteller_id: "m-tomas" };
  it("the member who told it hears of its replies, logged in or through their link", () => {
    expect(can(rosa, "memory.replies", rosasStory)).toBe(true);
    expect(can(tomasLink, "memory.replies", tomasStory)).toBe(true);
  });
  it("no one else: organizers, relatives, other storytellers, other links, the removed", () => {
    for (const actor of [ana, luis, otherStoryteller, removed, linkHolder, stranger, tomasLink]) {
      expect(can(actor, "memory.replies", rosasStory)).toBe(false);
    }
    expect(can(rosa, "memory.replies", tomasStory)).toBe(false);
    expect(can(rosa, "memory.replies", unclaimed)).toBe(false);
  });
});

describe("memory.addPhoto", () => {
  const tomasStory: MemoryFacts = { ...rosasStory, user_id: null, storyteller_id: "m-tomas" };
  it("who may edit it, and a recording link for its own member's stories", () => {
    expect(can(ana, "memory.addPhoto", rosasStory)).toBe(true);
    expect(can(rosa, "memory.addPhoto", rosasStory)).toBe(true);
    expect(can(tomasLink, "memory.addPhoto", tomasStory)).toBe(true);
  });
  it("a link adds nothing to another's story, nor once its member is a relative", () => {
    expect(can(tomasLink, "memory.addPhoto", rosasStory)).toBe(false);
    const demoted: Actor = {
      ...tomasLink,
      recordingFor: { journalId: J, memberId: "m-tomas", role: "relative" },
    };
    expect(can(demoted, "memory.addPhoto", tomasStory)).toBe(false);
    for (const actor of [luis, otherStoryteller, linkHolder, stranger]) {
      expect(can(actor, "memory.addPhoto", rosasStory)).toBe(false);
    }
  });
});

describe("member.language", () => {
  const tomas = { journalId: J, memberId: "m-tomas" };
  it("a recording link chooses the language of its own member's page only", () => {
    expect(can(tomasLink, "member.language", tomas)).toBe(true);
    expect(can(tomasLink, "member.language", { journalId: J, memberId: "m-rosa" })).toBe(false);
    expect(can(tomasLink, "member.language", { journalId: "j-other", memberId: "m-tomas" })).toBe(
      false,
    );
  });
  it("no account chooses it for them, not even an organizer; nor a link made a relative's", () => {
    for (const actor of [ana, rosa, luis, stranger, linkHolder]) {
      expect(can(actor, "member.language", tomas)).toBe(false);
    }
    const relativeLink: Actor = {
      userId: null,
      recordingFor: { journalId: J, memberId: "m-tomas", role: "relative" },
    };
    expect(can(relativeLink, "member.language", tomas)).toBe(false);
  });
});
