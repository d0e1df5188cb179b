import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatMessage } from "../../../shared/i18n/format";
import { LANGUAGE_NAMES, LANGUAGES } from "../../../shared/i18n/languages";
import {
  FAMILY_QUESTION_MESSAGES,
  JOURNAL_MESSAGES,
  type JournalRole,
  RECORDING_LINK_MESSAGES,
  ROLE_DESCRIPTIONS,
  ROLE_LABELS,
} from "../../../shared/journals";
import { ERROR_MESSAGES } from "../../../shared/messages";
import type { FamilyQuestion, Journal, Member } from "../../../shared/schemas";
import { dismissToast } from "../../components/ui/use-toast";
import {
  fakeApi,
  json,
  makeMember,
  me,
  myJournal,
  renderWithApp,
  userHandler,
} from "../../test/fake-api";
import { FamilyPage } from "./family-page";

afterEach(() => {
  act(() => dismissToast());
  vi.unstubAllGlobals();
});

const MEMBERS = "/api/journals/juser-1/members";

/** A journal's members kept by a fake server: added, changed and removed as the API would. */
function familyServer(
  options: { journal?: Journal; members?: Member[]; removeStatus?: number } = {},
) {
  let journal = options.journal ?? myJournal;
  let members = options.members ?? [
    makeMember(),
    makeMember({ id: "s-grandpa", name: "Grandpa", role: "storyteller", isYou: false }),
  ];
  let questions: FamilyQuestion[] = [];
  const api = fakeApi([
    userHandler(me),
    ({ method, url }) =>
      method === "GET" && url === "/api/journals" ? json([journal]) : undefined,
    ({ method, url, body }) => {
      if (!url.endsWith("/questions")) return undefined;
      if (method === "GET") return json(questions);
      const asked: FamilyQuestion = {
        id: `q${questions.length}`,
        text: (body as { text: string }).text,
        askedBy: "Me",
        memoryId: null,
        createdAt: "2026-11-28T10:00:00.000Z",
      };
      questions = [...questions, asked];
      return json(asked, 201);
    },
    ({ method, url, body }) => {
      if (method !== "PATCH" || url !== "/api/journals/juser-1") return undefined;
      journal = { ...journal, ...(body as Partial<Journal>) };
      return json(journal);
    },
    ({ method, url, body }) => {
      if (url !== MEMBERS) return undefined;
      if (method === "GET") return json(members);
      const added = body as { name: string; role: JournalRole; email?: string };
      const member = makeMember({
        id: `s-${members.length}`,
        name: added.name,
        role: added.role,
        email: added.email ?? null,
        invitationPending: Boolean(added.email),
        hasAccount: false,
        isYou: false,
      });
      members = [...members, member];
      return json(member, 201);
    },
    ({ method, url, body }) => {
      const id = url.match(/^\/api\/journals\/juser-1\/members\/([^/]+)$/)?.[1];
      if (!id) return undefined;
      if (method === "DELETE") {
        if (options.removeStatus) {
          return json({ code: "journal.last_organizer", message: "x" }, options.removeStatus);
        }
        members = members.filter((m) => m.id !== id);
        return new Response(null, { status: 204 });
      }
      members = members.map((m) =>
        m.id === id ? { ...m, role: (body as { role: JournalRole }).role } : m,
      );
      return json(members.find((m) => m.id === id));
    },
  ]);
  return { api, user: userEvent.setup() };
}

describe("the family page, for an organizer", () => {
  it("asks a storyteller a question, which then waits for their answer", async () => {
    const { api, user } = familyServer();
    renderWithApp(<FamilyPage />, "/family");
    const field = await screen.findByLabelText(
      formatMessage(FAMILY_QUESTION_MESSAGES.label, { name: "Grandpa" }),
    );
    await user.type(field, "What was your first job?");
    await user.click(screen.getByRole("button", { name: FAMILY_QUESTION_MESSAGES.submit }));
    expect(
      await screen.findByText(formatMessage(FAMILY_QUESTION_MESSAGES.asked, { name: "Grandpa" })),
    ).toBeInTheDocument();
    expect(
      await screen.findByText(
        `${formatMessage(FAMILY_QUESTION_MESSAGES.asks, { name: "Me" })} What was your first job?`,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(FAMILY_QUESTION_MESSAGES.waiting)).toBeInTheDocument();
    expect(
      api.requests.find((r) => r.url.endsWith("/questions") && r.method === "POST"),
    ).toMatchObject({
      url: "/api/journals/juser-1/members/s-grandpa/questions",
      body: { text: "What was your first job?" },
    });
  });

  it("names the journal to rename, lists the members with their roles, and says what each role does", async () => {
    const { api, user } = familyServer();
    renderWithApp(<FamilyPage />, "/family");
    expect(
      await screen.findByRole("heading", { level: 1, name: JOURNAL_MESSAGES.familyTitle }),
    ).toBeInTheDocument();
    const name = screen.getByLabelText(JOURNAL_MESSAGES.renameJournal);
    expect(name).toHaveValue(myJournal.name);
    expect(
      await screen.findByRole("combobox", {
        name: formatMessage(JOURNAL_MESSAGES.memberRole, { name: "Grandpa" }),
      }),
    ).toHaveValue("storyteller");
    for (const description of Object.values(ROLE_DESCRIPTIONS)) {
      expect(screen.getAllByText(description).length).toBeGreaterThan(0);
    }
    // The only organizer among others is asked to name a second.
    expect(screen.getByText(JOURNAL_MESSAGES.secondOrganizerHint)).toBeInTheDocument();

    await user.clear(name);
    await user.type(name, "The Smiths");
    await user.click(screen.getByRole("button", { name: JOURNAL_MESSAGES.renameSubmit }));
    expect(await screen.findByText(JOURNAL_MESSAGES.journalRenamed)).toBeInTheDocument();
    expect(api.requests.find((r) => r.method === "PATCH")).toMatchObject({
      url: "/api/journals/juser-1",
      body: { name: "The Smiths" },
    });
  });

  it("offers the journal's language, each named in itself, and saves the one chosen", async () => {
    const { api, user } = familyServer();
    renderWithApp(<FamilyPage />, "/family");
    const select = await screen.findByRole("combobox", { name: JOURNAL_MESSAGES.journalLanguage });
    expect(select).toHaveValue("en");
    expect(screen.getByText(JOURNAL_MESSAGES.journalLanguageHint)).toBeInTheDocument();
    const options = within(select).getAllByRole("option");
    expect(options.map((option) => option.textContent)).toEqual(
      LANGUAGES.map((language) => LANGUAGE_NAMES[language]),
    );
    expect(within(select).getByRole("option", { name: "العربية" })).toHaveAttribute("lang", "ar");
    await user.selectOptions(select, "es");
    expect(await screen.findByText(JOURNAL_MESSAGES.journalLanguageSaved)).toBeInTheDocument();
    expect(api.requests.find((r) => r.method === "PATCH")).toMatchObject({
      url: "/api/journals/juser-1",
      body: { language: "es" },
    });
    // The journals are read again: the select shows what the server keeps.
    await waitFor(() => expect(select).toHaveValue("es"));
    expect(
      api.requests.filter((r) => r.method === "GET" && r.url === "/api/journals").length,
    ).toBeGreaterThan(1);
  });

  it("adds a storyteller without an email, and a relative with one (the invitation is mailed)", async () => {
    const { api, user } = familyServer();
    renderWithApp(<FamilyPage />, "/family");
    const form = (await screen.findByRole("heading", { name: JOURNAL_MESSAGES.inviteTitle }))
      .parentElement as HTMLElement;
    // The role's description is said with the picker.
    expect(within(form).getByLabelText(JOURNAL_MESSAGES.inviteRole)).toHaveAccessibleDescription(
      ROLE_DESCRIPTIONS.storyteller,
    );
    await user.click(within(form).getByRole("button", { name: JOURNAL_MESSAGES.inviteSubmit }));
    expect(await within(form).findByText("must not be empty")).toBeInTheDocument();

    await user.type(within(form).getByLabelText(JOURNAL_MESSAGES.inviteName), "Aunt May");
    await user.click(within(form).getByRole("button", { name: JOURNAL_MESSAGES.inviteSubmit }));
    expect(
      await screen.findByText(formatMessage(JOURNAL_MESSAGES.memberAdded, { name: "Aunt May" })),
    ).toBeInTheDocument();
    expect(await screen.findByText(JOURNAL_MESSAGES.noAccount)).toBeInTheDocument();

    await user.type(within(form).getByLabelText(JOURNAL_MESSAGES.inviteName), "Ann");
    await user.selectOptions(within(form).getByLabelText(JOURNAL_MESSAGES.inviteRole), "relative");
    // The page's language at first; the organizer picks the one Ann reads.
    const language = within(form).getByLabelText(JOURNAL_MESSAGES.inviteLanguage);
    expect(language).toHaveValue("en");
    await user.selectOptions(language, "es");
    await user.type(within(form).getByLabelText(JOURNAL_MESSAGES.inviteEmail), "ann@example.org");
    await user.click(within(form).getByRole("button", { name: JOURNAL_MESSAGES.inviteSubmit }));
    expect(
      await screen.findByText(formatMessage(JOURNAL_MESSAGES.invitationMailed, { name: "Ann" })),
    ).toBeInTheDocument();
    expect(await screen.findByText("ann@example.org")).toBeInTheDocument();
    expect(screen.getByText(JOURNAL_MESSAGES.invitationPending)).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === "POST").map((r) => r.body)).toEqual([
      { name: "Aunt May", role: "storyteller", language: "en" },
      { name: "Ann", role: "relative", language: "es", email: "ann@example.org" },
    ]);
  });

  it("offers the recording link of a storyteller invited at an address, who may never join; the family asks them once they have one", async () => {
    const invited = {
      role: "storyteller" as const,
      invitationPending: true,
      hasAccount: false,
      isYou: false,
    };
    familyServer({
      members: [
        makeMember(),
        makeMember({ ...invited, id: "s-rosa", name: "Rosa", email: "rosa@example.org" }),
        makeMember({
          ...invited,
          id: "s-abuelo",
          name: "Abuelo",
          email: "abuelo@example.org",
          hasRecordingLink: true,
        }),
      ],
    });
    renderWithApp(<FamilyPage />, "/family");
    const rowOf = async (name: string) =>
      (await screen.findByText(name, { selector: "p" })).closest("li") as HTMLElement;
    const rosa = await rowOf("Rosa");
    expect(within(rosa).getByText(JOURNAL_MESSAGES.invitationPending)).toBeInTheDocument();
    expect(
      within(rosa).getByRole("button", { name: RECORDING_LINK_MESSAGES.make }),
    ).toBeInTheDocument();
    // No link yet: nothing would ask them the family's questions.
    expect(
      within(rosa).queryByLabelText(
        formatMessage(FAMILY_QUESTION_MESSAGES.label, { name: "Rosa" }),
      ),
    ).toBeNull();
    const abuelo = await rowOf("Abuelo");
    expect(
      within(abuelo).getByRole("button", { name: RECORDING_LINK_MESSAGES.printCard }),
    ).toBeInTheDocument();
    expect(
      await within(abuelo).findByLabelText(
        formatMessage(FAMILY_QUESTION_MESSAGES.label, { name: "Abuelo" }),
      ),
    ).toBeInTheDocument();
  });

  it("changes a member's role", async () => {
    const { api, user } = familyServer();
    renderWithApp(<FamilyPage />, "/family");
    const role = await screen.findByRole("combobox", {
      name: formatMessage(JOURNAL_MESSAGES.memberRole, { name: "Grandpa" }),
    });
    await user.selectOptions(role, "organizer");
    expect(
      await screen.findByText(
        formatMessage(JOURNAL_MESSAGES.roleChanged, { name: "Grandpa", role: "organizer" }),
      ),
    ).toBeInTheDocument();
    expect(api.requests.find((r) => r.method === "PATCH")).toMatchObject({
      url: `${MEMBERS}/s-grandpa`,
      body: { role: "organizer" },
    });
    // Two organizers now: no need to ask for a second.
    await waitFor(() =>
      expect(screen.queryByText(JOURNAL_MESSAGES.secondOrganizerHint)).toBeNull(),
    );
  });

  it("removes a member after asking", async () => {
    const { api, user } = familyServer();
    renderWithApp(<FamilyPage />, "/family");
    await user.click(
      await screen.findByRole("button", {
        name: formatMessage(JOURNAL_MESSAGES.removeMemberNamed, { name: "Grandpa" }),
      }),
    );
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent(
      formatMessage(JOURNAL_MESSAGES.removeMemberConfirm, { name: "Grandpa" }),
    );
    expect(api.requests.some((r) => r.method === "DELETE")).toBe(false);
    await user.click(within(dialog).getByRole("button", { name: JOURNAL_MESSAGES.removeMember }));
    expect(
      await screen.findByText(formatMessage(JOURNAL_MESSAGES.memberRemoved, { name: "Grandpa" })),
    ).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === "DELETE").map((r) => r.url)).toEqual([
      `${MEMBERS}/s-grandpa`,
    ]);
    await waitFor(() =>
      expect(
        screen.queryByRole("combobox", {
          name: formatMessage(JOURNAL_MESSAGES.memberRole, { name: "Grandpa" }),
        }),
      ).toBeNull(),
    );
  });

  it("says why the last organizer cannot go, in the catalogue's words", async () => {
    const { user } = familyServer({ removeStatus: 409 });
    renderWithApp(<FamilyPage />, "/family");
    await user.click(
      await screen.findByRole("button", {
        name: formatMessage(JOURNAL_MESSAGES.removeMemberNamed, { name: "Nana" }),
      }),
    );
    const dialog = await screen.findByRole("alertdialog");
    await user.click(within(dialog).getByRole("button", { name: JOURNAL_MESSAGES.removeMember }));
    const alert = await within(dialog).findByRole("alert");
    expect(alert).toHaveTextContent(JOURNAL_MESSAGES.removeMemberFailed);
    expect(alert).toHaveTextContent(ERROR_MESSAGES["journal.last_organizer"]);
  });
});

describe("the family page, for a relative", () => {
  const theirs: Journal = {
    id: "juser-1",
    name: "Rose's journal",
    role: "relative",
    memberId: "s-nana",
    language: "en",
  };
  const members = [
    makeMember({ id: "s-rose", name: "Rose", isYou: false }),
    makeMember({ id: "s-nana", name: "Nana", role: "relative" }),
  ];

  it("lists who is in the journal, read-only, and offers to leave", async () => {
    const { api, user } = familyServer({ journal: theirs, members });
    const { location } = renderWithApp(<FamilyPage />, "/family");
    expect(await screen.findByText("Rose")).toBeInTheDocument();
    expect(screen.getByText(theirs.name)).toBeInTheDocument();
    const list = screen.getByRole("list", { name: JOURNAL_MESSAGES.membersTitle });
    expect(within(list).getByText(ROLE_LABELS.organizer)).toBeInTheDocument();
    expect(within(list).getByText(ROLE_LABELS.relative)).toBeInTheDocument();
    expect(screen.queryByRole("combobox")).toBeNull();
    expect(screen.queryByLabelText(JOURNAL_MESSAGES.renameJournal)).toBeNull();
    expect(screen.queryByLabelText(JOURNAL_MESSAGES.journalLanguage)).toBeNull();
    expect(screen.queryByRole("heading", { name: JOURNAL_MESSAGES.inviteTitle })).toBeNull();
    expect(
      screen.queryByRole("button", {
        name: formatMessage(JOURNAL_MESSAGES.removeMemberNamed, { name: "Rose" }),
      }),
    ).toBeNull();
    expect(screen.queryByText(JOURNAL_MESSAGES.secondOrganizerHint)).toBeNull();

    await user.click(screen.getByRole("button", { name: JOURNAL_MESSAGES.leaveJournal }));
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent(
      formatMessage(JOURNAL_MESSAGES.leaveConfirm, { journal: theirs.name }),
    );
    await user.click(within(dialog).getByRole("button", { name: JOURNAL_MESSAGES.leaveJournal }));
    expect(
      await screen.findByText(formatMessage(JOURNAL_MESSAGES.left, { journal: theirs.name })),
    ).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === "DELETE").map((r) => r.url)).toEqual([
      `${MEMBERS}/s-nana`,
    ]);
    expect(location.history?.at(-1)).toBe("/");
  });
});
