import { describe, expect, it } from "vitest";
import { CLIENT_ROUTES, clientRouteOf, isClientRoute } from "./routes";

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
});
