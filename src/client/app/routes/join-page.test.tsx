import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatMessage } from "../../../shared/i18n/format";
import { JOURNAL_MESSAGES } from "../../../shared/journals";
import { ERROR_MESSAGES, MESSAGES } from "../../../shared/messages";
import type { Journal } from "../../../shared/schemas";
import { dismissToast } from "../../components/ui/use-toast";
import { useOpenJournal } from "../../features/journals/open-journal";
import { fakeApi, json, me, myJournal, renderWithApp } from "../../test/fake-api";
import { JoinPage } from "./join-page";

afterEach(() => {
  act(() => dismissToast());
  vi.unstubAllGlobals();
});

const INVITATION = "/api/invitations/tok-1";
const invitation = { journalName: "The Smiths", name: "Nana", role: "relative" as const };
const smiths: Journal = {
  id: "j-smiths",
  name: "The Smiths",
  role: "relative",
  memberId: "s-n",
  language: "en",
};

/** The open journal's name, as a screen that follows it shows. */
function OpenJournalName() {
  return <p data-testid="open-journal">{useOpenJournal().journal?.name}</p>;
}

function invitationServer(options: { loggedIn: boolean; dead?: boolean; joinStatus?: number }) {
  let loggedIn = options.loggedIn;
  let joined = false;
  const api = fakeApi([
    ({ method, url }) => {
      if (url === "/api/user") {
        return loggedIn ? json(me) : json({ code: "not_logged_in", message: "x" }, 401);
      }
      if (method === "POST" && url === "/api/login") {
        loggedIn = true;
        return json(me);
      }
      if (method === "GET" && url === "/api/journals") {
        return json(joined ? [myJournal, smiths] : [myJournal]);
      }
      if (url !== INVITATION) return undefined;
      if (options.dead) return json({ code: "invitation.invalid", message: "x" }, 404);
      if (method === "GET") return json(invitation);
      if (options.joinStatus) {
        return json({ code: "journal.already_member", message: "x" }, options.joinStatus);
      }
      joined = true;
      return json({ journalId: smiths.id });
    },
  ]);
  return { api, user: userEvent.setup() };
}

describe("the join page", () => {
  it("says what a logged-out person is invited to, and logs in without leaving it", async () => {
    const { user } = invitationServer({ loggedIn: false });
    renderWithApp(<JoinPage token="tok-1" />, "/join/tok-1");
    expect(
      await screen.findByText(
        formatMessage(JOURNAL_MESSAGES.joinInvited, { journal: "The Smiths", role: "relative" }),
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: JOURNAL_MESSAGES.joinTitle })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: JOURNAL_MESSAGES.joinSignUp })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: JOURNAL_MESSAGES.joinAccept })).toBeNull();

    await user.click(screen.getByRole("button", { name: JOURNAL_MESSAGES.joinLogIn }));
    await user.type(await screen.findByLabelText("Username"), "nana");
    await user.type(screen.getByLabelText("Password"), "secret1");
    await user.click(screen.getByRole("button", { name: MESSAGES.logIn }));
    expect(
      await screen.findByRole("button", { name: JOURNAL_MESSAGES.joinAccept }),
    ).toBeInTheDocument();
  });

  it("opens the Sign up dialog for someone new", async () => {
    const { user } = invitationServer({ loggedIn: false });
    renderWithApp(<JoinPage token="tok-1" />, "/join/tok-1");
    await user.click(await screen.findByRole("button", { name: JOURNAL_MESSAGES.joinSignUp }));
    expect(await screen.findByRole("dialog", { name: MESSAGES.signUp })).toBeInTheDocument();
  });

  it("joins a logged-in person, opens the journal and goes home", async () => {
    const { api, user } = invitationServer({ loggedIn: true });
    const { location } = renderWithApp(
      <>
        <OpenJournalName />
        <JoinPage token="tok-1" />
      </>,
      "/join/tok-1",
    );
    await user.click(await screen.findByRole("button", { name: JOURNAL_MESSAGES.joinAccept }));
    expect(
      await screen.findByText(formatMessage(JOURNAL_MESSAGES.joined, { journal: "The Smiths" })),
    ).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === "POST").map((r) => r.url)).toEqual([INVITATION]);
    await waitFor(() => expect(screen.getByTestId("open-journal")).toHaveTextContent("The Smiths"));
    expect(location.history?.at(-1)).toBe("/");
  });

  it("says why joining failed, in the catalogue's words", async () => {
    const { user } = invitationServer({ loggedIn: true, joinStatus: 409 });
    renderWithApp(<JoinPage token="tok-1" />, "/join/tok-1");
    await user.click(await screen.findByRole("button", { name: JOURNAL_MESSAGES.joinAccept }));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent(JOURNAL_MESSAGES.joinFailed);
    expect(alert).toHaveTextContent(ERROR_MESSAGES["journal.already_member"]);
  });

  it("says a dead link no longer works", async () => {
    invitationServer({ loggedIn: false, dead: true });
    renderWithApp(<JoinPage token="tok-1" />, "/join/tok-1");
    expect(await screen.findByText(JOURNAL_MESSAGES.joinInvalid)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: JOURNAL_MESSAGES.joinLogIn })).toBeNull();
  });
});
