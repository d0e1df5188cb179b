/**
 * The web app's screens, defined once: the client router mounts these patterns and the server
 * answers 404 (with the app's shell, which shows the 404 page) for any path none of them matches.
 * Patterns use the router's syntax: `:name` is one path segment.
 */
export const CLIENT_ROUTES = {
  home: "/",
  memory: "/memory/:id",
  resetPassword: "/reset-password",
  profile: "/profile/:username",
  watch: "/watch",
  account: "/account",
  unsubscribe: "/unsubscribe",
  /** The open journal's members (organizers manage them here). */
  family: "/family",
  /** Where an invitation mail's link lands: Log in or Sign up, then join. */
  join: "/join/:token",
  /** Where a share link lands; the server redirects a live one, so this shows only a dead one. */
  shareLink: "/s/:token",
  /** A storyteller's personal recording link: one button to record, their own stories (ADR 0060). */
  recordingLink: "/r/:token",
} as const;

export type ClientRoute = (typeof CLIENT_ROUTES)[keyof typeof CLIENT_ROUTES];

/** The pattern as the client router (wouter's regexparam) reads it: case-insensitive, optional trailing slash. */
function routeRegExp(pattern: string): RegExp {
  const segments = pattern
    .split("/")
    .filter(Boolean)
    .map((segment) =>
      segment.startsWith(":") ? "/([^/]+?)" : `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
    );
  return new RegExp(`^${segments.join("")}/?$`, "i");
}

/** The path as the client router matches it: wouter decodes escapes with decodeURI, keeping the path when that fails. */
function routerPath(pathname: string): string {
  try {
    return pathname.includes("%") ? decodeURI(pathname) : pathname;
  } catch {
    return pathname;
  }
}

export type ClientRouteName = keyof typeof CLIENT_ROUTES;

/** A screen a path is, with the parameters the client router gives it (`{ id }` for a memory). */
export interface ClientRouteMatch {
  name: ClientRouteName;
  params: Record<string, string>;
}

// Built on first use, so the browser bundle (which needs only the patterns) can drop the matcher.
let matchers: { name: ClientRouteName; regExp: RegExp; keys: string[] }[] | undefined;

/** Which of the app's screens a path (without its query string) is, if any, and its parameters. */
export function matchClientRoute(pathname: string): ClientRouteMatch | undefined {
  matchers ??= (Object.entries(CLIENT_ROUTES) as [ClientRouteName, string][]).map(
    ([name, pattern]) => ({
      name,
      regExp: routeRegExp(pattern),
      keys: pattern
        .split("/")
        .filter((segment) => segment.startsWith(":"))
        .map((segment) => segment.slice(1)),
    }),
  );
  const path = routerPath(pathname);
  for (const { name, regExp, keys } of matchers) {
    const found = regExp.exec(path);
    if (found) {
      return { name, params: Object.fromEntries(keys.map((key, i) => [key, found[i + 1] ?? ""])) };
    }
  }
  return undefined;
}

/** Which of the app's screens a path (without its query string) is, if any. */
export function clientRouteOf(pathname: string): ClientRouteName | undefined {
  return matchClientRoute(pathname)?.name;
}

/** Whether a path (without its query string) is one of the app's screens. */
export function isClientRoute(pathname: string): boolean {
  return clientRouteOf(pathname) !== undefined;
}
