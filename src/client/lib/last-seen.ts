import type { QueryClient, QueryKey } from "@tanstack/react-query";
import type { User } from "../../shared/schemas";

/** What the installed app keeps to open offline: who is logged in and what they last saw. */
const KEPT_QUERIES = new Set(["user", "journals", "memories", "question"]);

/** One answer as kept: its query's key and data. */
interface KeptAnswer {
  key: QueryKey;
  data: unknown;
}

/**
 * The last answers of a logged-in user (their account, journals, memory lists and memories), kept
 * in this device's storage after each answer so the installed app opened with no connection shows
 * its menu and the memories seen last instead of looking signed out. Forgotten at logout (the user
 * query answers null), and used only offline: online, the server says what is true.
 */
export class LastSeen {
  constructor(
    private readonly storage: Pick<Storage, "getItem" | "setItem" | "removeItem"> | undefined,
    private readonly key = "vmj-last-seen",
  ) {}

  /** Keeps the cache's kept answers after every successful one; returns how to stop. */
  keep(queryClient: QueryClient): () => void {
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== "updated" || event.action.type !== "success") return;
      const user = queryClient.getQueryData<User | null>(["user"]);
      if (!user) {
        if (user === null) this.forget();
        return;
      }
      const kept: KeptAnswer[] = queryClient
        .getQueryCache()
        .findAll({
          // Only this user's: answers fetched before a login are stale until asked again.
          predicate: (query) =>
            query.state.status === "success" &&
            !query.state.isInvalidated &&
            KEPT_QUERIES.has(String(query.queryKey[0])),
        })
        .map((query) => ({ key: query.queryKey, data: query.state.data }));
      this.write(JSON.stringify(kept));
    });
  }

  /**
   * Puts what was kept back in the cache, marked stale, so each screen asks again once the
   * connection returns. True when there was something.
   */
  restore(queryClient: QueryClient): boolean {
    const text = this.read();
    if (!text) return false;
    try {
      for (const { key, data } of JSON.parse(text) as KeptAnswer[]) {
        if (data !== undefined) queryClient.setQueryData(key, data);
      }
    } catch {
      this.forget();
      return false;
    }
    const user = queryClient.getQueryData<User | null>(["user"]);
    void queryClient.invalidateQueries({ refetchType: "none" });
    return Boolean(user);
  }

  forget(): void {
    try {
      this.storage?.removeItem(this.key);
    } catch {
      // Storage refused: nothing was kept either.
    }
  }

  private read(): string | null {
    try {
      return this.storage?.getItem(this.key) ?? null;
    } catch {
      return null;
    }
  }

  private write(text: string): void {
    try {
      this.storage?.setItem(this.key, text);
    } catch {
      // Full or refused (a privacy setting): offline the app asks when the connection returns.
    }
  }
}

/** This device's storage, when the browser allows it. */
export function deviceStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
