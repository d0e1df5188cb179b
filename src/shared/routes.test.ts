import { describe, expect, it } from "vitest";
import { CLIENT_ROUTES, clientRouteOf, isClientRoute, matchClientRoute } from "./routes";

describe("the app's screens", () => {
  it.each([
    "/",
    "/memory/abc123",
    "/memory/abc123/",
    "/MEMORY/abc",
    "/profile/nana",
    "/profile/Jo%C3%ABl",
    "/reset-password",
    "/watch",
    "/account",
  ])("%s is a screen", (path) => {
    expect(isClientRoute(path)).toBe(true);
  });

  it.each([
    "/no/such/page",
    "/memory",
    "/memory/",
    "/memory/a/b",
    "/profile",
    "/profile//",
    "/watchx",
    "/reset-password/x",
    "/api/memories",
    "//",
    "/favicon.ico",
  ])("%s is not", (path) => {
    expect(isClientRoute(path)).toBe(false);
  });

  it("lists the account page (its route is added by the account work)", () => {
    expect(Object.values(CLIENT_ROUTES)).toContain("/account");
  });

  it("names the screen a path is, as the router would match it", () => {
    expect(clientRouteOf("/memory/abc-123")).toBe("memory");
    expect(clientRouteOf("/Memory/abc/")).toBe("memory");
    expect(clientRouteOf("/profile/nana")).toBe("profile");
    expect(clientRouteOf("/")).toBe("home");
    expect(clientRouteOf("/memory/a/b")).toBeUndefined();
    expect(clientRouteOf("/memory")).toBeUndefined();
  });

  it("gives a screen's parameters as the router does, escapes decoded with decodeURI", () => {
    expect(matchClientRoute("/memory/abc-123/")).toEqual({
      name: "memory",
      params: { id: "abc-123" },
    });
    expect(matchClientRoute("/profile/Jo%C3%ABl")).toEqual({
      name: "profile",
      params: { username: "Joël" },
    });
    // decodeURI keeps reserved escapes, so a slash inside a segment stays one segment.
    expect(matchClientRoute("/memory/a%2Fb")?.params).toEqual({ id: "a%2Fb" });
    expect(matchClientRoute("/%6Demory/abc")?.name).toBe("memory");
    // A malformed escape leaves the path as it is (the router does the same).
    expect(matchClientRoute("/memory/%E0%A4%A")?.params).toEqual({ id: "%E0%A4%A" });
    expect(matchClientRoute("/")).toEqual({ name: "home", params: {} });
    expect(matchClientRoute("/memory/a/b")).toBeUndefined();
  });
});
