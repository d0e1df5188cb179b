import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { MESSAGES } from "../../../../shared/messages";
import type { MemoryYears } from "../../../../shared/schemas";
import { fakeApi, json, renderWithApp } from "../../../test/fake-api";
import { YearNavigator } from "./year-navigator";

afterEach(() => {
  vi.unstubAllGlobals();
});

const URL = "/api/journals/juser-1/years";
const LIST = { journalId: "juser-1", storyteller: "" };

function yearsHandler(years: MemoryYears["years"]) {
  return ({ url }: { url: string }) => (url === URL ? json({ years }) : undefined);
}

const THREE_YEARS = [
  { year: "2024", count: 20, page: 1 },
  { year: "2001", count: 31, page: 2 },
  { year: "1998", count: 1, page: 4 },
];

describe("the year navigator", () => {
  it("names each year with its count, and a choice opens its page with the year in the URL", async () => {
    fakeApi([yearsHandler(THREE_YEARS)]);
    const user = userEvent.setup();
    const { location } = renderWithApp(<YearNavigator list={LIST} total={52} />);
    const nav = await screen.findByRole("navigation", { name: MESSAGES.yearNavigator });
    const buttons = within(nav).getAllByRole("button");
    expect(buttons.map((b) => b.textContent)).toEqual(["2024", "2001", "1998"]);
    expect(buttons.map((b) => b.getAttribute("aria-label"))).toEqual([
      "2024, 20 memories",
      "2001, 31 memories",
      "1998, 1 memory",
    ]);
    expect(within(nav).queryByRole("button", { current: true })).toBeNull();

    await user.click(within(nav).getByRole("button", { name: "2001, 31 memories" }));
    expect(location.history?.at(-1)).toBe("/?year=2001&page=2");
    expect(within(nav).getByRole("button", { current: true })).toHaveTextContent("2001");

    // From the keyboard: Tab reaches the years in order, Enter chooses one.
    await user.tab();
    expect(within(nav).getByRole("button", { name: "1998, 1 memory" })).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(location.history?.at(-1)).toBe("/?year=1998&page=4");
    // The newest year is on page 1: no page in the URL.
    await user.click(within(nav).getByRole("button", { name: "2024, 20 memories" }));
    expect(location.history?.at(-1)).toBe("/?year=2024");
  });

  it("opens the page of a year a link names without a page, replacing the entry", async () => {
    fakeApi([yearsHandler(THREE_YEARS)]);
    const { location } = renderWithApp(<YearNavigator list={LIST} total={52} />, "/?year=1998");
    await waitFor(() => expect(location.history?.at(-1)).toBe("/?year=1998&page=4"));
    expect(location.history).toHaveLength(1);
    const nav = screen.getByRole("navigation", { name: MESSAGES.yearNavigator });
    expect(within(nav).getByRole("button", { current: true })).toHaveTextContent("1998");
  });

  it("is one row that scrolls sideways on a phone, wrapping only on wider screens", async () => {
    fakeApi([yearsHandler(THREE_YEARS)]);
    renderWithApp(<YearNavigator list={LIST} total={52} />);
    const nav = await screen.findByRole("navigation", { name: MESSAGES.yearNavigator });
    expect(nav).toHaveClass("flex-nowrap", "overflow-x-auto", "sm:flex-wrap");
    for (const chip of within(nav).getAllByRole("button")) expect(chip).toHaveClass("shrink-0");
  });

  it("scrolls the list's first story of the chosen year into view once it is shown", async () => {
    fakeApi([yearsHandler(THREE_YEARS)]);
    const scrolled: Element[] = [];
    // jsdom has no scrollIntoView: a stub records what is scrolled to.
    Object.defineProperty(Element.prototype, "scrollIntoView", {
      configurable: true,
      value(this: Element) {
        scrolled.push(this);
      },
    });
    onTestFinished(() => {
      Reflect.deleteProperty(Element.prototype, "scrollIntoView");
    });
    const user = userEvent.setup();
    renderWithApp(
      <>
        <YearNavigator list={LIST} total={52} />
        <ul data-testid="list">
          <li data-memory-year="2024">A story of 2024</li>
        </ul>
      </>,
    );
    const nav = await screen.findByRole("navigation", { name: MESSAGES.yearNavigator });
    await user.click(within(nav).getByRole("button", { name: "2001, 31 memories" }));
    expect(scrolled).toEqual([]);

    // The year's page arrives: its first story is scrolled to, once.
    const list = screen.getByTestId("list");
    list.innerHTML =
      '<li data-memory-year="2002">Late 2002</li><li data-memory-year="2001">First of 2001</li><li data-memory-year="2001">Second of 2001</li>';
    await waitFor(() => expect(scrolled).toHaveLength(1));
    expect(scrolled[0]).toHaveTextContent("First of 2001");
    list.innerHTML += "<li>more</li>";
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(scrolled).toHaveLength(1);
  });

  it("is hidden when every memory falls in one year, and asks nothing of an empty list", async () => {
    const api = fakeApi([yearsHandler([{ year: "2024", count: 3, page: 1 }])]);
    renderWithApp(<YearNavigator list={LIST} total={3} />);
    await waitFor(() => expect(api.requests.map((r) => r.url)).toEqual([URL]));
    expect(screen.queryByRole("navigation")).toBeNull();

    const none = fakeApi([yearsHandler([])]);
    renderWithApp(<YearNavigator list={LIST} total={0} />);
    expect(none.requests).toEqual([]);
  });
});
