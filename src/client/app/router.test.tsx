import { render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { matchRoute, type Parser, useRouter } from "wouter";
import { documentTitle, MESSAGES } from "../../shared/messages";
import { CLIENT_ROUTES, isClientRoute, matchClientRoute } from "../../shared/routes";
import { fakeApi, renderWithApp } from "../test/fake-api";
import { AppRouter } from "./router";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The router's own pattern parser (wouter's default), read from the router. */
let routerParser: Parser | undefined;
function ParserProbe() {
  routerParser = useRouter().parser;
  return null;
}

const SAMPLE_PATHS = [
  "/",
  "/memory/abc",
  "/memory/abc/",
  "/Memory/abc",
  "/memory",
  "/memory/a/b",
  "/profile/nana",
  "/profile/",
  "/reset-password",
  "/reset-password/",
  "/watch",
  "/watch/x",
  "/account",
  "/family",
  "/join/abc",
  "/join/",
  "/no/such/page",
  "//",
];

describe("the app's routes", () => {
  it("are matched by the server exactly as the client router matches them", () => {
    render(<ParserProbe />);
    const parse = routerParser;
    if (!parse) throw new Error("no parser");
    for (const path of SAMPLE_PATHS) {
      const router = Object.values(CLIENT_ROUTES).some(
        (pattern) => matchRoute(parse, pattern, path)[0],
      );
      expect(isClientRoute(path), path).toBe(router);
      // And with the same parameters (the server looks a memory's page's memory up by its id).
      const server = matchClientRoute(path);
      if (server) {
        const [, params] = matchRoute(parse, CLIENT_ROUTES[server.name], path);
        // wouter also gives each parameter by its position.
        const named = Object.entries(params ?? {}).filter(([key]) => !/^\d+$/.test(key));
        expect(Object.fromEntries(named), path).toEqual(server.params);
      }
    }
  });

  it("shows the 404 page, titled, on a path that is no screen", async () => {
    fakeApi({
      "GET /api/user": { status: 401, body: { code: "not_logged_in", message: "Not logged in" } },
    });
    renderWithApp(<AppRouter />, "/no/such/page");
    expect(await screen.findByRole("heading", { name: MESSAGES.notFoundPage })).toBeVisible();
    await waitFor(() => expect(document.title).toBe(documentTitle(MESSAGES.pageNotFoundTitle)));
  });

  it.each([
    ["/reset-password", MESSAGES.invalidResetLink],
    ["/reset-password?token=abc", MESSAGES.resetPasswordTitle],
    ["/watch", MESSAGES.watchTitle],
  ])("gives %s its own title", async (path, title) => {
    fakeApi({
      "GET /api/user": { status: 401, body: { code: "not_logged_in", message: "Not logged in" } },
    });
    renderWithApp(<AppRouter />, path);
    await waitFor(() => expect(document.title).toBe(documentTitle(title)));
    expect(screen.queryByTestId("not-found")).toBeNull();
  });
});
