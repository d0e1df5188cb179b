import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Member } from "../../shared/schemas";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { type SmtpSink, startSmtpSink } from "../test/smtp-sink";
import { ownJournalId } from "./journals.repo";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const APP_URL = "https://journal.example.org";

describe.each(DATABASE_KINDS)("recording links (%s)", (kind) => {
  let t: TestApp;
  let sink: SmtpSink;
  let ana: TestUser; // organizer
  let rosa: TestUser; // storyteller with an account
  let luis: TestUser; // relative
  let stranger: TestUser;
  let journal: string;
  const memberIds: Record<string, string> = {};

  function api(method: Method, url: string, as?: TestUser | string, body?: object) {
    const cookie = typeof as === "string" ? as : as?.cookie;
    return t.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(body ? { payload: body } : {}),
    });
  }

  async function invite(who: TestUser, name: string, role: Member["role"]): Promise<string> {
    const email = `${name.toLowerCase()}-${kind}@example.org`;
    const added = await api("POST", `/api/journals/${journal}/members`, ana, { name, role, email });
    expect(added.statusCode).toBe(201);
    const mail = await sink.waitFor((m) => m.to.includes(email));
    const token = /\/join\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? "";
    expect((await api("POST", `/api/invitations/${token}`, who)).statusCode).toBe(200);
    return added.json<Member>().id;
  }

  const linkPath = (memberId: string) =>
    `/api/journals/${journal}/members/${memberId}/recording-link`;
  const tokenOf = (url: string) => /\/r\/([A-Za-z0-9_-]+)$/.exec(url)?.[1] ?? "";

  async function makeLink(memberId: string): Promise<string> {
    const made = await api("POST", linkPath(memberId), ana);
    expect(made.statusCode).toBe(201);
    return tokenOf(made.json<{ url: string }>().url);
  }

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({ kind, env: { SMTP_URL: sink.url, APP_URL } });
    ana = await createUserWithSession(t, { isPublic: false });
    rosa = await createUserWithSession(t);
    luis = await createUserWithSession(t);
    stranger = await createUserWithSession(t);
    journal = ownJournalId(ana.user.id);
    await api("PATCH", `/api/journals/${journal}`, ana, { name: "The Alvarez family" });
    const tomas = await api("POST", `/api/journals/${journal}/members`, ana, {
      name: "Grandpa Tomás",
      role: "storyteller",
    });
    memberIds.tomas = tomas.json<Member>().id;
    memberIds.rosa = await invite(rosa, "Rosa", "storyteller");
    memberIds.luis = await invite(luis, "Luis", "relative");
  });
  afterAll(async () => {
    await t.cleanup();
    await sink.close();
  });

  describe("making, renewing and stopping a link", () => {
    it("an organizer makes a link on APP_URL; only its hash is kept", async () => {
      const made = await api("POST", linkPath(memberIds.tomas as string), ana);
      expect(made.statusCode).toBe(201);
      const { url } = made.json<{ url: string }>();
      expect(url).toMatch(/^https:\/\/journal\.example\.org\/r\/[A-Za-z0-9_-]{43}$/);
      expect(made.headers["cache-control"]).toBe("no-store");
      const token = tokenOf(url);
      const row = await t.database.db
        .selectFrom("journal_members")
        .select("recording_token_hash")
        .where("id", "=", memberIds.tomas as string)
        .executeTakeFirstOrThrow();
      expect(row.recording_token_hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(row.recording_token_hash).not.toBe(token);
      expect((await api("GET", `/api/record/${token}`)).statusCode).toBe(200);
    });

    it("organizers see which members have a link; others do not", async () => {
      await makeLink(memberIds.tomas as string);
      const asAna = (await api("GET", `/api/journals/${journal}/members`, ana)).json<Member[]>();
      const tomas = asAna.find((m) => m.id === memberIds.tomas);
      expect(tomas?.hasRecordingLink).toBe(true);
      expect(asAna.find((m) => m.id === memberIds.luis)?.hasRecordingLink).toBe(false);
      const asLuis = (await api("GET", `/api/journals/${journal}/members`, luis)).json<Member[]>();
      expect(asLuis.every((m) => m.hasRecordingLink === undefined)).toBe(true);
    });

    it("renewing ends the old link at once; stopping ends the new one", async () => {
      const first = await makeLink(memberIds.tomas as string);
      const second = await makeLink(memberIds.tomas as string);
      expect(second).not.toBe(first);
      const old = await api("GET", `/api/record/${first}`);
      expect(old.statusCode).toBe(404);
      expect(old.json().code).toBe("recording_link.invalid");
      expect((await api("GET", `/api/record/${second}`)).statusCode).toBe(200);

      const stopped = await api("DELETE", linkPath(memberIds.tomas as string), ana);
      expect(stopped.statusCode).toBe(204);
      expect((await api("GET", `/api/record/${second}`)).statusCode).toBe(404);
      const members = (await api("GET", `/api/journals/${journal}/members`, ana)).json<Member[]>();
      expect(members.find((m) => m.id === memberIds.tomas)?.hasRecordingLink).toBe(false);
      // Stopping a link that is not there changes nothing.
      expect((await api("DELETE", linkPath(memberIds.tomas as string), ana)).statusCode).toBe(204);
    });

    it("only organizers make or stop links, only for members who tell stories", async () => {
      const path = linkPath(memberIds.tomas as string);
      for (const method of ["POST", "DELETE"] as const) {
        const byRelative = await api(method, path, luis);
        expect(byRelative.statusCode).toBe(403);
        expect(byRelative.json().code).toBe("journal.not_organizer");
        expect((await api(method, path, rosa)).statusCode).toBe(403);
        expect((await api(method, path, stranger)).statusCode).toBe(404);
        expect((await api(method, path)).statusCode).toBe(401);
      }
      const forRelative = await api("POST", linkPath(memberIds.luis as string), ana);
      expect(forRelative.statusCode).toBe(409);
      expect(forRelative.json().code).toBe("recording_link.not_a_storyteller");
      expect((await api("POST", linkPath("no-such-member"), ana)).statusCode).toBe(404);
      // A member of another journal is no member of this one.
      const other = linkPath(`m${stranger.user.id}`);
      expect((await api("POST", other, ana)).statusCode).toBe(404);
    });

    it("a wrong token answers 404", async () => {
      const wrong = await api("GET", `/api/record/${"x".repeat(43)}`);
      expect(wrong.statusCode).toBe(404);
      expect(wrong.json().code).toBe("recording_link.invalid");
    });
  });
});
