/** Query keys: the first element is the URL the default query function fetches (spec 7). */
export function memoriesListUrl(page: number, search: string): string {
  const q = search.trim();
  return q
    ? `/api/memories/search?q=${encodeURIComponent(q)}&page=${page}`
    : `/api/memories?page=${page}`;
}

export function profileMemoriesUrl(username: string, page: number, search: string): string {
  const base = `/api/users/${encodeURIComponent(username)}/memories`;
  const q = search.trim();
  return q ? `${base}/search?q=${encodeURIComponent(q)}&page=${page}` : `${base}?page=${page}`;
}

/** What this browser recorded without an account and can still save to one. */
export const UNCLAIMED_URL = "/api/memories/unclaimed";

export function memoryUrl(id: string): string {
  return `/api/memories/${encodeURIComponent(id)}`;
}

/** True for any cached list of memories (own, a profile's, unclaimed), to refresh after a change. */
export function isMemoryListKey(key: readonly unknown[]): boolean {
  const url = String(key[0] ?? "");
  return (
    url.startsWith("/api/memories?") ||
    url === UNCLAIMED_URL ||
    url.startsWith("/api/memories/search") ||
    /^\/api\/users\/[^/]+\/memories/.test(url)
  );
}
