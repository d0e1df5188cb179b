import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { LastSeen } from "./last-seen";

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const jo = { id: "u1", username: "jo", displayName: null, isPublic: false, email: null };
const list = { items: [{ id: "m1", title: "The snow day" }], total: 1 };
const listKey = ["memories", "list", { journalId: "j1", page: 1, q: "", storyteller: "" }];

describe("LastSeen", () => {
  it("keeps a logged-in user's answers and gives them back, stale, in a new page", async () => {
    const storage = memoryStorage();
    const before = new QueryClient();
    const stop = new LastSeen(storage).keep(before);
    before.setQueryData(["user"], jo);
    before.setQueryData(listKey, list);
    before.setQueryData(["reminders"], { saved: true });
    stop();

    const after = new QueryClient();
    expect(new LastSeen(storage).restore(after)).toBe(true);
    expect(after.getQueryData(["user"])).toEqual(jo);
    expect(after.getQueryData(listKey)).toEqual(list);
    expect(after.getQueryData(["reminders"])).toBeUndefined();
    // Asked again once the connection returns.
    expect(after.getQueryState(listKey)?.isInvalidated).toBe(true);
  });

  it("forgets everything when the user logs out", () => {
    const storage = memoryStorage();
    const client = new QueryClient();
    new LastSeen(storage).keep(client);
    client.setQueryData(["user"], jo);
    client.setQueryData(listKey, list);
    expect(storage.items.size).toBe(1);
    client.setQueryData(["user"], null);
    expect(storage.items.size).toBe(0);
    expect(new LastSeen(storage).restore(new QueryClient())).toBe(false);
  });

  it("survives storage that refuses or holds something unreadable", () => {
    const refusing = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
      removeItem: () => {
        throw new Error("denied");
      },
    };
    const client = new QueryClient();
    new LastSeen(refusing).keep(client);
    expect(() => client.setQueryData(["user"], jo)).not.toThrow();
    expect(new LastSeen(refusing).restore(client)).toBe(false);
    const broken = memoryStorage();
    broken.setItem("vmj-last-seen", "{not json");
    expect(new LastSeen(broken).restore(new QueryClient())).toBe(false);
    expect(broken.items.size).toBe(0);
  });
});
