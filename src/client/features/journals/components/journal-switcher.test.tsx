import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatMessage } from "../../../../shared/i18n/format";
import { JOURNAL_MESSAGES } from "../../../../shared/journals";
import { MESSAGES } from "../../../../shared/messages";
import type { Journal, Memory } from "../../../../shared/schemas";
import {
  fakeApi,
  journalHandler,
  json,
  makeMember,
  makeMemory,
  me,
  myJournal,
  pageOf,
  renderWithApp,
  userHandler,
} from "../../../test/fake-api";
import { HomeMemories } from "../../memories/components/home-memories";
import { JournalSwitcher } from "./journal-switcher";

afterEach(() => {
  vi.unstubAllGlobals();
});

const parents: Journal = {
  id: "j-parents",
  name: "Mum and Dad's stories",
  role: "storyteller",
  memberId: "s-nana-there",
  language: "en",
};

/** Each journal's memories: a story told by its storyteller, whose name is the journal's. */
function journalMemories(stories: Record<string, Memory[]>) {
  return ({ url }: { url: string }) => {
    const match = url.match(/^\/api\/journals\/([^/]+)\/memories\?/);
    const items = match?.[1] ? stories[match[1]] : undefined;
    return items ? json(pageOf(items)) : undefined;
  };
}

const ownStory = makeMemory({ id: "own", title: "My garden" });
const theirStory = makeMemory({
  id: "theirs",
  title: "How we met",
  journalId: parents.id,
  storyteller: { id: "s-dad", name: "Dad" },
});

function twoJournals() {
  return fakeApi([
    userHandler(me),
    journalHandler([myJournal, parents], {
      [myJournal.id]: [makeMember()],
      [parents.id]: [
        makeMember({ id: "s-dad", name: "Dad", isYou: false }),
        makeMember({ id: "s-nana-there", role: "storyteller" }),
      ],
    }),
    journalMemories({ [myJournal.id]: [ownStory], [parents.id]: [theirStory] }),
  ]);
}

describe("the journal switcher", () => {
  it("shows the open journal and opens another in one step; the list follows", async () => {
    const api = twoJournals();
    const user = userEvent.setup();
    const { location } = renderWithApp(
      <>
        <JournalSwitcher />
        <HomeMemories />
      </>,
      "/?page=1&q=garden",
    );
    const switcher = await screen.findByRole("combobox", { name: JOURNAL_MESSAGES.switchJournal });
    expect(switcher).toHaveValue(myJournal.id);
    expect(switcher).toHaveClass("h-11");
    expect(
      within(switcher)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual([myJournal.name, parents.name]);
    expect(await screen.findByText("My garden")).toBeInTheDocument();

    await user.selectOptions(switcher, parents.id);
    expect(await screen.findByText("How we met")).toBeInTheDocument();
    expect(switcher).toHaveValue(parents.id);
    expect(api.requests.map((r) => r.url)).toContain("/api/journals/j-parents/memories?page=1");
    // The other journal's page and search are left behind with it.
    expect(location.history?.at(-1)).toBe("/");
    // Remembered on this device for this account.
    expect(window.localStorage.getItem(`open-journal:${me.id}`)).toBe(parents.id);
  });

  it("opens the journal this device remembers", async () => {
    window.localStorage.setItem(`open-journal:${me.id}`, parents.id);
    twoJournals();
    renderWithApp(
      <>
        <JournalSwitcher />
        <HomeMemories />
      </>,
    );
    expect(await screen.findByText("How we met")).toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: JOURNAL_MESSAGES.switchJournal })).toHaveValue(
      parents.id,
    );
  });

  it("is not there for a person with one journal", async () => {
    fakeApi([userHandler(me), journalMemories({ [myJournal.id]: [ownStory] })]);
    renderWithApp(
      <>
        <JournalSwitcher />
        <HomeMemories />
      </>,
    );
    expect(await screen.findByText("My garden")).toBeInTheDocument();
    expect(screen.queryByRole("combobox")).toBeNull();
    // Nor who told each story, nor a storyteller to choose: the list is as it always was.
    expect(screen.queryByText(formatMessage(JOURNAL_MESSAGES.toldBy, { name: "Me" }))).toBeNull();
    expect(screen.getByRole("heading", { name: MESSAGES.recentMemories })).toBeInTheDocument();
  });
});

describe("a family's list", () => {
  const family: Journal = { ...myJournal, name: "The Smiths" };
  const members = [
    makeMember(),
    makeMember({ id: "s-grandpa", name: "Grandpa", role: "storyteller", isYou: false }),
    makeMember({ id: "s-ann", name: "Ann", role: "relative", isYou: false }),
  ];
  const stories = [
    makeMemory({
      id: "a",
      title: "The war years",
      storyteller: { id: "s-grandpa", name: "Grandpa" },
    }),
    makeMemory({
      id: "b",
      title: "First day at school",
      storyteller: { id: "s-me", name: "Nana" },
    }),
  ];

  function familyApi() {
    return fakeApi([
      userHandler(me),
      journalHandler([family], { [family.id]: members }),
      ({ url }) => {
        const parsed = new URL(url, "http://x");
        if (parsed.pathname !== "/api/journals/juser-1/memories") return undefined;
        const teller = parsed.searchParams.get("storyteller");
        return json(pageOf(stories.filter((m) => !teller || m.storyteller?.id === teller)));
      },
    ]);
  }

  it("says who told each story", async () => {
    familyApi();
    renderWithApp(<HomeMemories />);
    const list = await screen.findByRole("list", { name: "Memories" });
    expect(
      within(list).getByText(formatMessage(JOURNAL_MESSAGES.toldBy, { name: "Grandpa" })),
    ).toBeInTheDocument();
    expect(
      within(list).getByText(formatMessage(JOURNAL_MESSAGES.toldBy, { name: "Nana" })),
    ).toBeInTheDocument();
  });

  it("narrows the list to one storyteller, kept in the URL, and back to everyone", async () => {
    const api = familyApi();
    const user = userEvent.setup();
    const { location } = renderWithApp(<HomeMemories />, "/?page=2");
    const filter = await screen.findByRole("combobox", {
      name: JOURNAL_MESSAGES.storytellerFilter,
    });
    // Everyone, and each member who tells stories (not the relative).
    expect(
      within(filter)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual([JOURNAL_MESSAGES.allStorytellers, "Nana", "Grandpa"]);
    await user.selectOptions(filter, "s-grandpa");
    await waitFor(() =>
      expect(api.requests.map((r) => r.url)).toContain(
        "/api/journals/juser-1/memories?page=1&storyteller=s-grandpa",
      ),
    );
    expect(location.history?.at(-1)).toBe("/?storyteller=s-grandpa");
    await waitFor(() => expect(screen.queryByText("First day at school")).toBeNull());
    expect(screen.getByText("The war years")).toBeInTheDocument();

    await user.selectOptions(filter, "");
    expect(await screen.findByText("First day at school")).toBeInTheDocument();
    expect(location.history?.at(-1)).toBe("/");
  });

  it("opens at the storyteller the URL names", async () => {
    const api = familyApi();
    renderWithApp(<HomeMemories />, "/?storyteller=s-grandpa");
    expect(
      await screen.findByRole("combobox", { name: JOURNAL_MESSAGES.storytellerFilter }),
    ).toHaveValue("s-grandpa");
    await waitFor(() =>
      expect(api.requests.map((r) => r.url)).toContain(
        "/api/journals/juser-1/memories?page=1&storyteller=s-grandpa",
      ),
    );
  });
});
