/** Query keys of memories: structured, so a change invalidates by prefix. */
export const memoryKeys = {
  all: ["memories"] as const,
  /** Every list of memories: the user's own, a profile's, this browser's unclaimed. */
  lists: () => ["memories", "list"] as const,
  /** The logged-in user's memories, or a search of them. */
  own: (page: number, q: string) => ["memories", "list", { page, q }] as const,
  /** A profile's shared memories, or a search of them. */
  profile: (username: string, page: number, q: string) =>
    ["memories", "list", { username, page, q }] as const,
  unclaimed: () => ["memories", "list", "unclaimed"] as const,
  /** The years a list spans; `total` is the list's, so they are read again as memories come or go. */
  years: (username: string | undefined, total: number | undefined) =>
    ["memories", "years", { username, total }] as const,
  detail: (id: string) => ["memories", "detail", id] as const,
  /** Whose memory it is: goes with the memory when its detail is dropped. */
  owner: (id: string) => ["memories", "detail", id, "owner"] as const,
  /** A memory's timed transcript, and whether a better transcription is available. */
  transcript: (id: string) => ["memories", "transcript", id] as const,
  /** How many of the user's memories a better engine could transcribe again. */
  retranscribable: () => ["memories", "retranscribable"] as const,
};

export function memoryUrl(id: string): string {
  return `/api/memories/${encodeURIComponent(id)}`;
}

/** GET path of a list: the user's own (no username) or a profile's, searched when `q` is not empty. */
export function memoriesListUrl(
  options: { page: number; q: string; username?: string | undefined },
  what: "list" | "years" = "list",
): string {
  const base = options.username
    ? `/api/users/${encodeURIComponent(options.username)}/memories`
    : "/api/memories";
  if (what === "years") return `${base}/years`;
  const q = options.q.trim();
  return q
    ? `${base}/search?q=${encodeURIComponent(q)}&page=${options.page}`
    : `${base}?page=${options.page}`;
}

/** What this browser recorded without an account and can still save to one. */
export const UNCLAIMED_URL = "/api/memories/unclaimed";
