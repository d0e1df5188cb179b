import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DOWNLOAD_CHECK_HEADER } from "../../../shared/constants";
import { formatMessage } from "../../../shared/i18n/format";
import { JOURNAL_MESSAGES } from "../../../shared/journals";
import { ERROR_MESSAGES, MESSAGES, signedInAs } from "../../../shared/messages";
import type { Journal, User } from "../../../shared/schemas";
import {
  clearToasts,
  fakeApi,
  type Handler,
  journalHandler,
  json,
  makeMember,
  me,
  myJournal,
  openUserMenu,
  renderWithApp,
  stubDownloadLinks,
} from "../../test/fake-api";
import { TopBar } from "../top-bar";
import { AccountPage } from "./account-page";

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

/** A server holding one user that PATCH changes and DELETE removes. */
function accountServer(start: User | null = me, extra: Handler[] = []) {
  let user = start;
  const api = fakeApi([
    ...extra,
    ({ method, url, body }) => {
      if (url !== "/api/user") return undefined;
      if (method === "GET")
        return user ? json(user) : json({ code: "not_logged_in", message: "Not logged in" }, 401);
      if (method === "PATCH" && user) {
        user = { ...user, ...(body as Partial<User>) };
        return json(user);
      }
      if (method === "DELETE") {
        user = null;
        return json({ ok: true });
      }
      return undefined;
    },
  ]);
  return { ...api, current: () => user };
}

function renderPage() {
  return renderWithApp(
    <>
      <TopBar />
      <AccountPage />
    </>,
    "/account",
  );
}

const section = (name: string) => screen.findByRole("region", { name });

/** Opens the account's deletion dialog from its section. */
async function openDeleteDialog(user: ReturnType<typeof userEvent.setup>): Promise<HTMLElement> {
  const zone = await section(MESSAGES.deleteAccount);
  await user.click(within(zone).getByRole("button", { name: MESSAGES.deleteAccount }));
  return screen.findByRole("dialog", { name: MESSAGES.deleteAccountTitle });
}

describe("AccountPage", () => {
  it("asks a logged-out visitor to log in", async () => {
    accountServer(null);
    renderPage();
    expect(await screen.findByText(MESSAGES.accountLoggedOut)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: MESSAGES.deleteAccount })).toBeNull();
  });

  it("sets the display name, and the top bar shows it at once", async () => {
    const { requests } = accountServer({ ...me, displayName: null });
    const user = userEvent.setup();
    renderPage();
    const form = await section(MESSAGES.displayName);
    expect(await screen.findByRole("button", { name: MESSAGES.userMenu })).toHaveTextContent(
      me.username,
    );
    const field = within(form).getByLabelText(MESSAGES.displayName);
    await user.type(field, "Grandma Rose");
    await user.click(within(form).getByRole("button", { name: "Save display name" }));
    expect(await screen.findByText(MESSAGES.displayNameSaved)).toBeInTheDocument();
    expect(requests.filter((r) => r.method === "PATCH").map((r) => r.body)).toEqual([
      { displayName: "Grandma Rose" },
    ]);
    expect(screen.getByRole("button", { name: MESSAGES.userMenu })).toHaveTextContent(
      "Grandma Rose",
    );
    await openUserMenu(user);
    expect(
      await screen.findByText(signedInAs({ username: me.username, displayName: "Grandma Rose" })),
    ).toBeInTheDocument();
  });

  it("checks the email before sending it, and clears it when emptied", async () => {
    const { requests } = accountServer({ ...me, email: "nana@example.com" });
    const user = userEvent.setup();
    renderPage();
    const form = await section("Email");
    const field = within(form).getByLabelText("Email");
    expect(field).toHaveValue("nana@example.com");
    await user.clear(field);
    await user.type(field, "not-an-email");
    await user.click(within(form).getByRole("button", { name: "Save email" }));
    expect(await within(form).findByText("Please enter a valid email address")).toBeVisible();
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(requests.filter((r) => r.method === "PATCH")).toEqual([]);
    await user.clear(field);
    await user.click(within(form).getByRole("button", { name: "Save email" }));
    // A change of email asks for the current password first.
    expect(await within(form).findByText("Current password is required")).toBeVisible();
    expect(requests.filter((r) => r.method === "PATCH")).toEqual([]);
    const password = within(form).getByLabelText(MESSAGES.currentPassword);
    await user.type(password, "my secret");
    await user.click(within(form).getByRole("button", { name: "Save email" }));
    expect(await screen.findByText(MESSAGES.emailSaved)).toBeInTheDocument();
    expect(requests.filter((r) => r.method === "PATCH").map((r) => r.body)).toEqual([
      { email: null, currentPassword: "my secret" },
    ]);
    expect(password).toHaveValue("");
  });

  it("says 'Failed to update account' with the server's message", async () => {
    accountServer(me, [
      ({ method, url }) =>
        method === "PATCH" && url === "/api/user"
          ? json(
              { code: "invalid_value", message: "library words", field: "body.displayName" },
              400,
            )
          : undefined,
    ]);
    const user = userEvent.setup();
    renderPage();
    const form = await section(MESSAGES.displayName);
    await user.click(within(form).getByRole("button", { name: "Save display name" }));
    expect(await screen.findByText(MESSAGES.failedUpdateAccount)).toBeInTheDocument();
    // The catalogue's words for the server's code, never the body's own text.
    expect(screen.getByText(ERROR_MESSAGES.invalid_value)).toBeInTheDocument();
    expect(screen.queryByText(/library words/)).toBeNull();
  });

  describe("password", () => {
    async function fill(current: string, next: string, confirm = next) {
      const user = userEvent.setup();
      const form = await section(MESSAGES.changePassword);
      await user.type(within(form).getByLabelText(MESSAGES.currentPassword), current);
      await user.type(within(form).getByLabelText(MESSAGES.newPassword), next);
      await user.type(within(form).getByLabelText(MESSAGES.confirmPassword), confirm);
      await user.click(within(form).getByRole("button", { name: MESSAGES.changePassword }));
      return { user, form };
    }

    it("checks the new password twice and its length before sending anything", async () => {
      const { requests } = accountServer();
      renderPage();
      const { form } = await fill("old secret", "new secret", "new secrte");
      expect(await within(form).findByText(MESSAGES.passwordsDoNotMatch)).toBeVisible();
      const user = userEvent.setup();
      const next = within(form).getByLabelText(MESSAGES.newPassword);
      await user.clear(next);
      await user.type(next, "12345");
      await user.click(within(form).getByRole("button", { name: MESSAGES.changePassword }));
      expect(await within(form).findByText("Password must be at least 6 characters")).toBeVisible();
      expect(requests.filter((r) => r.url === "/api/user/password")).toEqual([]);
    });

    it("shows a wrong current password under its field, once, and nothing else", async () => {
      accountServer(me, [
        ({ url }) =>
          url === "/api/user/password"
            ? json(
                { code: "auth.wrong_current_password", message: MESSAGES.currentPasswordIncorrect },
                400,
              )
            : undefined,
      ]);
      renderPage();
      const { user, form } = await fill("wrong one", "new secret");
      const current = within(form).getByLabelText(MESSAGES.currentPassword);
      await waitFor(() => expect(current).toHaveAttribute("aria-invalid", "true"));
      expect(screen.getAllByText(MESSAGES.currentPasswordIncorrect)).toHaveLength(1);
      expect(screen.queryByText(MESSAGES.failedChangePassword)).toBeNull();
      // Typing again clears it.
      await user.type(current, "x");
      expect(current).not.toHaveAttribute("aria-invalid");
    });

    it("changes the password, says so and empties the form", async () => {
      const { requests } = accountServer(me, [
        ({ url }) => (url === "/api/user/password" ? json({ ok: true }) : undefined),
      ]);
      renderPage();
      const { form } = await fill("old secret", "new secret");
      expect(await screen.findByText(MESSAGES.passwordChanged)).toBeInTheDocument();
      expect(screen.getByText(MESSAGES.passwordChangedDescription)).toBeInTheDocument();
      expect(requests.filter((r) => r.url === "/api/user/password").map((r) => r.body)).toEqual([
        { currentPassword: "old secret", newPassword: "new secret" },
      ]);
      expect(within(form).getByLabelText(MESSAGES.currentPassword)).toHaveValue("");
      expect(within(form).getByLabelText(MESSAGES.newPassword)).toHaveValue("");
    });
  });

  describe("deleting the account", () => {
    it("offers the backup zip first, with the backup feature's download and toast", async () => {
      accountServer(me, [
        ({ url, headers }) =>
          url === "/api/backup-memories" && headers.get(DOWNLOAD_CHECK_HEADER)
            ? new Response(null, { status: 204 })
            : undefined,
      ]);
      const clicked = stubDownloadLinks();
      const user = userEvent.setup();
      renderPage();
      const zone = await section(MESSAGES.deleteAccount);
      await user.click(within(zone).getByRole("button", { name: MESSAGES.downloadBackupFirst }));
      expect(await screen.findByText(MESSAGES.backupSuccessful)).toBeInTheDocument();
      expect(clicked.map((link) => link.href)).toEqual(["/api/backup-memories"]);
    });

    it("says 'Backup failed' with the server's message when the backup cannot start", async () => {
      accountServer(me, [
        ({ url }) =>
          url === "/api/backup-memories"
            ? json({ code: "storage_unreachable", message: MESSAGES.storageUnreachable }, 503)
            : undefined,
      ]);
      const clicked = stubDownloadLinks();
      const user = userEvent.setup();
      renderPage();
      const zone = await section(MESSAGES.deleteAccount);
      await user.click(within(zone).getByRole("button", { name: MESSAGES.downloadBackupFirst }));
      expect(await screen.findByText(MESSAGES.backupFailed)).toBeInTheDocument();
      expect(screen.getByText(MESSAGES.storageUnreachable)).toBeInTheDocument();
      expect(clicked).toEqual([]);
    });

    it("enables the delete only for the typed word, then deletes, logs out and goes home", async () => {
      const server = accountServer();
      const user = userEvent.setup();
      const { location } = renderPage();
      const dialog = await openDeleteDialog(user);
      const confirm = within(dialog).getByRole("button", { name: MESSAGES.deleteAccount });
      expect(confirm).toBeDisabled();
      const typed = within(dialog).getByLabelText("Confirmation");
      await user.type(typed, "delet{Enter}");
      expect(await screen.findByText(MESSAGES.invalidConfirmation)).toBeInTheDocument();
      expect(screen.getByText(MESSAGES.invalidConfirmationDescription)).toBeInTheDocument();
      expect(server.requests.filter((r) => r.method === "DELETE")).toEqual([]);
      await user.type(typed, "E");
      expect(confirm).toBeEnabled();
      await user.type(within(dialog).getByLabelText(MESSAGES.currentPassword), "my secret");
      await user.click(confirm);
      expect(await screen.findByText(MESSAGES.accountDeleted)).toBeInTheDocument();
      expect(server.requests.filter((r) => r.method === "DELETE").map((r) => r.body)).toEqual([
        { confirm: "deletE", currentPassword: "my secret" },
      ]);
      expect(server.current()).toBeNull();
      await waitFor(() => expect(location.history?.at(-1)).toBe("/"));
      // Logged out: the top bar offers Log in again.
      expect(await screen.findByRole("button", { name: MESSAGES.logIn })).toBeInTheDocument();
    });

    it("names the family journals whose stories go with the account", async () => {
      const family: Journal = {
        id: "j-family",
        name: "The Alvarez family",
        role: "storyteller",
        memberId: "m-rosa",
        language: "en",
      };
      const reunion: Journal = { ...family, id: "j-reunion", name: "The reunion" };
      accountServer(me, [journalHandler([myJournal, family, reunion])]);
      const user = userEvent.setup();
      renderPage();
      const dialog = await openDeleteDialog(user);
      expect(await within(dialog).findByTestId("delete-account-stories")).toHaveTextContent(
        formatMessage(JOURNAL_MESSAGES.deleteAccountStories, {
          journals: "The Alvarez family and The reunion",
        }),
      );
      expect(within(dialog).getByTestId("delete-account-stories")).not.toHaveTextContent(
        myJournal.name,
      );
    });

    it("names the account's own journal too once others belong to it", async () => {
      accountServer(me, [
        journalHandler([myJournal], {
          [myJournal.id]: [makeMember(), makeMember({ id: "m-rosa", name: "Rosa", isYou: false })],
        }),
      ]);
      const user = userEvent.setup();
      renderPage();
      const dialog = await openDeleteDialog(user);
      expect(await within(dialog).findByTestId("delete-account-stories")).toHaveTextContent(
        formatMessage(JOURNAL_MESSAGES.deleteAccountStories, { journals: myJournal.name }),
      );
    });

    it("warns of no family's stories when the account belongs to its own journal only", async () => {
      const server = accountServer();
      const user = userEvent.setup();
      renderPage();
      const dialog = await openDeleteDialog(user);
      // Once its members are read (the person alone in it), nothing is said.
      await waitFor(() =>
        expect(server.requests.some((r) => r.url === `/api/journals/${myJournal.id}/members`)).toBe(
          true,
        ),
      );
      await waitFor(() => expect(within(dialog).getByLabelText("Confirmation")).toBeEnabled());
      expect(within(dialog).queryByTestId("delete-account-stories")).toBeNull();
    });

    it("says 'Failed to delete account' and stays when the server refuses", async () => {
      accountServer(me, [
        ({ method, url }) =>
          method === "DELETE" && url === "/api/user"
            ? json({ code: "internal_error", message: MESSAGES.internalError }, 500)
            : undefined,
      ]);
      const user = userEvent.setup();
      const { location } = renderPage();
      const dialog = await openDeleteDialog(user);
      await user.type(within(dialog).getByLabelText("Confirmation"), "delete");
      await user.click(within(dialog).getByRole("button", { name: MESSAGES.deleteAccount }));
      expect(await screen.findByText(MESSAGES.failedDeleteAccount)).toBeInTheDocument();
      expect(location.history?.at(-1)).toBe("/account");
      // Still signed in, with the dialog open to try again.
      expect(dialog).toBeInTheDocument();
      expect(within(dialog).getByRole("button", { name: MESSAGES.deleteAccount })).toBeEnabled();
      expect(
        screen.getByRole("button", { name: MESSAGES.userMenu, hidden: true }),
      ).toBeInTheDocument();
    });
  });
});

describe("restore from backup", () => {
  const zip = () =>
    new File([new Uint8Array([0x50, 0x4b, 3, 4])], "backup.zip", { type: "application/zip" });

  it("uploads the chosen zip and shows what came back, with each memory that could not", async () => {
    const api = accountServer(me, [
      ({ method, url }) =>
        method === "POST" && url === "/api/restore"
          ? json({
              imported: 2,
              skipped: 1,
              failed: [{ id: "m9", title: "Too many tags", reason: "tags: at most 5" }],
            })
          : undefined,
    ]);
    const user = userEvent.setup();
    renderPage();
    const restore = await section(MESSAGES.restoreFromBackup);
    const button = within(restore).getByRole("button", { name: MESSAGES.restoreFromBackup });
    expect(button).toBeDisabled();
    await user.upload(within(restore).getByLabelText(MESSAGES.restoreChooseFile), zip());
    await user.click(button);
    const summary = "2 memories restored, 1 memory already here, 1 memory could not be restored.";
    expect(await within(restore).findByText(summary)).toBeInTheDocument();
    expect(within(restore).getByText("Too many tags: tags: at most 5")).toBeInTheDocument();
    expect(await screen.findByText(MESSAGES.backupRestored)).toBeInTheDocument();
    expect(api.requests.filter((r) => r.url === "/api/restore")).toHaveLength(1);
  });

  it("says why a refused backup failed", async () => {
    accountServer(me, [
      ({ method, url }) =>
        method === "POST" && url === "/api/restore"
          ? json(
              { code: "backup.not_a_backup", message: ERROR_MESSAGES["backup.not_a_backup"] },
              400,
            )
          : undefined,
    ]);
    const user = userEvent.setup();
    renderPage();
    const restore = await section(MESSAGES.restoreFromBackup);
    await user.upload(within(restore).getByLabelText(MESSAGES.restoreChooseFile), zip());
    await user.click(within(restore).getByRole("button", { name: MESSAGES.restoreFromBackup }));
    expect(await screen.findByText(MESSAGES.restoreFailed)).toBeInTheDocument();
    expect(screen.getByText(ERROR_MESSAGES["backup.not_a_backup"])).toBeInTheDocument();
  });
});
