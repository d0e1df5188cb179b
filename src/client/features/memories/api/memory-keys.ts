/** Query keys of memories: structured, so a change invalidates by prefix. */
export const memoryKeys = {
  all: ["memories"] as const,
  /** Every list of memories: a journal's, a profile's, this browser's unclaimed. */
  lists: () => ["memories", "list"] as const,
  /** A profile's shared memories, or a search of them. */
  profile: (username: string, page: number, q: string) =>
    ["memories", "list", { username, page, q }] as const,
  /** One page of a journal's memories, searched and narrowed to one storyteller when given. */
  journal: (journalId: string, page: number, q: string, storyteller: string) =>
    ["memories", "list", { journalId, page, q, storyteller }] as const,
  unclaimed: () => ["memories", "list", "unclaimed"] as const,
  /** The years a list spans; `total` is the list's, so they are read again as memories come or go. */
  years: (list: YearsOf, total: number | undefined) =>
    ["memories", "years", { ...list, total }] as const,
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

/** Whose years a year navigator shows: a profile's, or a journal's (one storyteller's when given). */
export type YearsOf =
  | { readonly username: string }
  | { readonly journalId: string; readonly storyteller: string };

/**
 * GET path of a journal's memories (searched when `q` is not empty; one storyteller's when
 * `storyteller` is not empty), or of the years they span.
 */
export function journalMemoriesUrl(
  options: { journalId: string; page: number; q: string; storyteller: string },
  what: "list" | "years" = "list",
): string {
  const params = new URLSearchParams();
  if (what === "list") params.set("page", String(options.page));
  const q = options.q.trim();
  if (what === "list" && q) params.set("q", q);
  if (options.storyteller) params.set("storyteller", options.storyteller);
  const query = params.toString();
  return `/api/journals/${encodeURIComponent(options.journalId)}/${what === "list" ? "memories" : "years"}${query ? `?${query}` : ""}`;
}

/** GET path of a profile's shared memories (searched when `q` is not empty), or of their years. */
export function profileMemoriesUrl(
  options: { page: number; q: string; username: string },
  what: "list" | "years" = "list",
): string {
  const base = `/api/users/${encodeURIComponent(options.username)}/memories`;
  if (what === "years") return `${base}/years`;
  const q = options.q.trim();
  return q
    ? `${base}/search?q=${encodeURIComponent(q)}&page=${options.page}`
    : `${base}?page=${options.page}`;
}

/** What this browser recorded without an account and can still save to one. */
export const UNCLAIMED_URL = "/api/memories/unclaimed";
