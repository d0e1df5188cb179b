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
  /** Where a share link lands; the server redirects a live one, so this shows only a dead one. */
  shareLink: "/s/:token",
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

export type ClientRouteName = keyof typeof CLIENT_ROUTES;

// Built on first use, so the browser bundle (which needs only the patterns) can drop the matcher.
let matchers: [ClientRouteName, RegExp][] | undefined;

/** Which of the app's screens a path (without its query string) is, if any. */
export function clientRouteOf(pathname: string): ClientRouteName | undefined {
  matchers ??= (Object.entries(CLIENT_ROUTES) as [ClientRouteName, string][]).map(
    ([name, pattern]) => [name, routeRegExp(pattern)],
  );
  return matchers.find(([, matcher]) => matcher.test(pathname))?.[0];
}

/** Whether a path (without its query string) is one of the app's screens. */
export function isClientRoute(pathname: string): boolean {
  return clientRouteOf(pathname) !== undefined;
}
