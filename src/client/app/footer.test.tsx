import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { COMING_SOON } from "../../shared/messages";
import { APP_INFO_PATH } from "../lib/app-info";
import { fakeApi, renderWithApp } from "../test/fake-api";
import { Footer } from "./footer";

afterEach(() => vi.unstubAllGlobals());

describe("Footer", () => {
  it("links the feature-request contact and lists only what is not built yet", async () => {
    fakeApi({
      [`GET ${APP_INFO_PATH}`]: {
        body: {
          featureRequestContact: "mailto:ideas@x.io",
          linkBase: "https://journal.example.org",
        },
      },
    });
    renderWithApp(<Footer />);
    expect(await screen.findByRole("link", { name: "ideas@x.io" })).toHaveAttribute(
      "href",
      "mailto:ideas@x.io",
    );
    const comingSoon = screen.getByRole("heading", { name: "Coming soon" }).parentElement;
    if (!comingSoon) throw new Error("The coming-soon heading has no section");
    const items = within(comingSoon)
      .getAllByRole("listitem")
      .map((item) => item.textContent);
    expect(items).toEqual(COMING_SOON);
    // Sharing, the memory book, reminders and photos are built: promising them would mislead.
    for (const shipped of [/sharing/i, /memory book/i, /reminder/i, /photo/i]) {
      expect(items.some((item) => shipped.test(item ?? ""))).toBe(false);
    }
  });
});
