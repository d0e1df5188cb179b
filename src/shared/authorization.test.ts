import { describe, expect, it } from "vitest";
import { type Actor, can, type MemoryFacts } from "./authorization";

const owner: Actor = { userId: "u-owner", visitorHash: "h-owner" };
const relative: Actor = { userId: null, visitorHash: "h-relative", sharedOwnerIds: ["u-owner"] };
const stranger: Actor = { userId: "u-stranger", visitorHash: "h-stranger" };
const loggedOutRecorder: Actor = { userId: null, visitorHash: "h-anon" };
const loggedInRecorder: Actor = { userId: "u-new", visitorHash: "h-anon" };

const privateProfile = { id: "u-owner", isPublic: false };
const publicProfile = { id: "u-owner", isPublic: true };
const saved: MemoryFacts = { user_id: "u-owner", anon_owner_hash: null, status: "saved" };
const processing: MemoryFacts = { ...saved, status: "processing" };
const unclaimed: MemoryFacts = { user_id: null, anon_owner_hash: "h-anon", status: "saved" };

describe("profile.view", () => {
  it("a public profile is seen by anyone, logged in or not", () => {
    expect(can({ userId: null }, "profile.view", publicProfile)).toBe(true);
    expect(can(stranger, "profile.view", publicProfile)).toBe(true);
  });
  it("a private profile by its owner and by browsers holding its share link only", () => {
    expect(can(owner, "profile.view", privateProfile)).toBe(true);
    expect(can(relative, "profile.view", privateProfile)).toBe(true);
    expect(can(stranger, "profile.view", privateProfile)).toBe(false);
    expect(can({ userId: null }, "profile.view", privateProfile)).toBe(false);
  });
});

describe("profile.manage", () => {
  it("only the account itself, never a share link's holder", () => {
    expect(can(owner, "profile.manage", { id: "u-owner" })).toBe(true);
    expect(can(relative, "profile.manage", { id: "u-owner" })).toBe(false);
    expect(can(stranger, "profile.manage", { id: "u-owner" })).toBe(false);
    expect(can({ userId: null }, "profile.manage", { id: "u-owner" })).toBe(false);
  });
});

describe("memory.view", () => {
  it("the owner sees their memory in any state, whatever their profile", () => {
    expect(can(owner, "memory.view", { memory: processing, owner: privateProfile })).toBe(true);
    expect(can(owner, "memory.view", { memory: saved, owner: undefined })).toBe(true);
  });
  it("others see a saved memory when they may see its owner's profile", () => {
    expect(can(stranger, "memory.view", { memory: saved, owner: publicProfile })).toBe(true);
    expect(can(relative, "memory.view", { memory: saved, owner: privateProfile })).toBe(true);
    expect(can(stranger, "memory.view", { memory: saved, owner: privateProfile })).toBe(false);
    expect(can(stranger, "memory.view", { memory: saved, owner: undefined })).toBe(false);
  });
  it("others never see a memory still processing or failed", () => {
    expect(can(stranger, "memory.view", { memory: processing, owner: publicProfile })).toBe(false);
    expect(can(relative, "memory.view", { memory: processing, owner: privateProfile })).toBe(false);
  });
  it("an unclaimed recording only by the browser that made it", () => {
    expect(can(loggedOutRecorder, "memory.view", { memory: unclaimed, owner: undefined })).toBe(
      true,
    );
    expect(can(stranger, "memory.view", { memory: unclaimed, owner: undefined })).toBe(false);
    expect(can({ userId: null }, "memory.view", { memory: unclaimed, owner: undefined })).toBe(
      false,
    );
  });
  it("a browser without a visitor cookie never matches a recording without one", () => {
    const noHash: MemoryFacts = { user_id: null, anon_owner_hash: null, status: "saved" };
    expect(
      can({ userId: null, visitorHash: null }, "memory.view", { memory: noHash, owner: undefined }),
    ).toBe(false);
  });
});

describe("memory.edit", () => {
  it("only the owning account, in any state", () => {
    expect(can(owner, "memory.edit", saved)).toBe(true);
    expect(can(owner, "memory.edit", processing)).toBe(true);
    expect(can(relative, "memory.edit", saved)).toBe(false);
    expect(can(stranger, "memory.edit", saved)).toBe(false);
  });
  it("nobody edits an unclaimed recording (it is claimed first)", () => {
    expect(can(loggedOutRecorder, "memory.edit", unclaimed)).toBe(false);
    expect(can({ userId: null }, "memory.edit", unclaimed)).toBe(false);
  });
});

describe("memory.retry and memory.delete", () => {
  for (const action of ["memory.retry", "memory.delete"] as const) {
    it(`${action}: the owner, or the browser that recorded an unclaimed memory`, () => {
      expect(can(owner, action, saved)).toBe(true);
      expect(can(stranger, action, saved)).toBe(false);
      expect(can(relative, action, saved)).toBe(false);
      expect(can(loggedOutRecorder, action, unclaimed)).toBe(true);
      expect(can(stranger, action, unclaimed)).toBe(false);
    });
    it(`${action}: the recording browser no longer once an account owns the memory`, () => {
      const claimed: MemoryFacts = { user_id: "u-new", anon_owner_hash: null, status: "saved" };
      expect(can(loggedOutRecorder, action, claimed)).toBe(false);
      expect(can(loggedInRecorder, action, claimed)).toBe(true);
    });
  }
});

describe("memory.claim", () => {
  it("a logged-in account, in the browser that recorded it", () => {
    expect(can(loggedInRecorder, "memory.claim", unclaimed)).toBe(true);
    expect(can(loggedOutRecorder, "memory.claim", unclaimed)).toBe(false);
    expect(can(stranger, "memory.claim", unclaimed)).toBe(false);
  });
});

describe("upload.use", () => {
  it("the account or the browser that sent it", () => {
    const byAccount = { owner_user_id: "u-owner", owner_anon_hash: null };
    const byBrowser = { owner_user_id: null, owner_anon_hash: "h-anon" };
    expect(can(owner, "upload.use", byAccount)).toBe(true);
    expect(can(stranger, "upload.use", byAccount)).toBe(false);
    expect(can(loggedOutRecorder, "upload.use", byBrowser)).toBe(true);
    expect(can(loggedInRecorder, "upload.use", byBrowser)).toBe(true);
    expect(can(relative, "upload.use", byBrowser)).toBe(false);
    expect(
      can({ userId: null, visitorHash: null }, "upload.use", {
        owner_user_id: null,
        owner_anon_hash: null,
      }),
    ).toBe(false);
  });
});
