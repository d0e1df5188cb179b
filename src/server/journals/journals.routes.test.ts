import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMessage } from "../../shared/i18n/format";
import { ERROR_MESSAGES } from "../../shared/messages";
import type { Invitation, Journal, Member, Memory, MemoryPage } from "../../shared/schemas";
import { wordsIn } from "../i18n/words";
import { MemoriesRepo } from "../memories/memories.repo";
import { SHARE_COOKIE } from "../share-links/share-cookie";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { type Method, request } from "../test/family-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { mailSubject, type SmtpSink, startSmtpSink } from "../test/smtp-sink";
import { fixture, upload } from "../test/upload-helpers";
import { ownJournalId } from "./journals.repo";

describe.each(DATABASE_KINDS)("family journals (%s)", (kind) => {
  let t: TestApp;
  let sink: SmtpSink;
  let ana: TestUser; // made the journal: organizer
  let ines: TestUser; // a second organizer
  let rosa: TestUser; // storyteller
  let pablo: TestUser; // another storyteller
  let luis: TestUser; // relative, removed at the end
  let stranger: TestUser;
  let journal: string;
  const memberIds: Record<string, string> = {};
  let rosasStory: Memory;
  let mp3: Buffer;

  const api = (method: Method, url: string, as?: TestUser, body?: object) =>
    request(t, method, url, as, body);

  /** Ana adds a member by mail; the invited account joins through the mailed link. */
  async function invite(who: TestUser, name: string, role: Member["role"]): Promise<string> {
    const email = `${name.toLowerCase()}-${kind}@example.org`;
    const added = await api("POST", `/api/journals/${journal}/members`, ana, { name, role, email });
    expect(added.statusCode).toBe(201);
    const mail = await sink.waitFor((m) => m.to.includes(email));
    const token = /\/join\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? "";
    const offer = await api("GET", `/api/invitations/${token}`);
    expect(offer.json<Invitation>()).toEqual({ journalName: "The Alvarez family", name, role });
    const joined = await api("POST", `/api/invitations/${token}`, who);
    expect(joined.json()).toEqual({ journalId: journal });
    // Single use: the link works no more, for anyone.
    const again = await api("POST", `/api/invitations/${token}`, stranger);
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe("invitation.invalid");
    return added.json<Member>().id;
  }

  /** A saved memory told by `who` in the journal, made through the API. */
  async function record(who: TestUser): Promise<Memory> {
    const uploaded = await upload(t, mp3, { cookie: who.cookie });
    expect(uploaded.statusCode).toBe(201);
    const made = await api("POST", "/api/memories/process", who, {
      audioUrl: uploaded.json().url,
      journalId: journal,
    });
    expect(made.statusCode).toBe(201);
    const memory = made.json<Memory>();
    // The pipeline's outcome does not matter here: the memory is marked saved directly, then
    // its storyteller gives it a title.
    await t.database.db
      .updateTable("memories")
      .set({ status: "saved", stage: null })
      .where("id", "=", memory.id)
      .execute();
    const titled = await api("PUT", `/api/memories/${memory.id}`, who, {
      title: "The orchard in spring",
      transcript: "",
      summary: "",
      recordedAt: memory.recordedAt,
      tags: [],
    });
    expect(titled.statusCode).toBe(200);
    return titled.json<Memory>();
  }

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({
      kind,
      env: {
        SMTP_URL: sink.url,
        APP_URL: "https://journal.example.org",
        RATE_LIMIT_COMMENTS_PER_HOUR: "1000",
      },
    });
    mp3 = await fixture("tone.mp3");
    ana = await createUserWithSession(t, { isPublic: false });
    ines = await createUserWithSession(t);
    rosa = await createUserWithSession(t);
    pablo = await createUserWithSession(t);
    luis = await createUserWithSession(t);
    stranger = await createUserWithSession(t);
    journal = ownJournalId(ana.user.id);
    const renamed = await api("PATCH", `/api/journals/${journal}`, ana, {
      name: "The Alvarez family",
    });
    expect(renamed.json<Journal>().name).toBe("The Alvarez family");
    memberIds.ines = await invite(ines, "Ines", "organizer");
    memberIds.rosa = await invite(rosa, "Rosa", "storyteller");
    memberIds.pablo = await invite(pablo, "Pablo", "storyteller");
    memberIds.luis = await invite(luis, "Luis", "relative");
    rosasStory = await record(rosa);
  });
  afterAll(async () => {
    await t.cleanup();
    await sink.close();
  });

  it("lists each person's journals with their role, their own first", async () => {
    const rosas = (await api("GET", "/api/journals", rosa)).json<Journal[]>();
    expect(rosas.map((j) => [j.id, j.role])).toEqual([
      [ownJournalId(rosa.user.id), "organizer"],
      [journal, "storyteller"],
    ]);
    expect((await api("GET", "/api/journals")).statusCode).toBe(401);
  });

  it("names the storyteller on a memory and filters the journal's list by storyteller", async () => {
    const memory = (await api("GET", `/api/memories/${rosasStory.id}`, luis)).json<Memory>();
    expect(memory.storyteller).toEqual({ id: memberIds.rosa, name: "Rosa" });
    expect(memory.journalId).toBe(journal);
    const list = (url: string, as: TestUser) =>
      api("GET", url, as).then((r) => r.json<MemoryPage>().items.map((m) => m.id));
    expect(await list(`/api/journals/${journal}/memories`, luis)).toContain(rosasStory.id);
    expect(
      await list(`/api/journals/${journal}/memories?storyteller=${memberIds.pablo}`, ana),
    ).toEqual([]);
    expect(await list(`/api/journals/${journal}/memories?q=orchard`, luis)).toEqual([
      rosasStory.id,
    ]);
    const years = await api(
      "GET",
      `/api/journals/${journal}/years?storyteller=${memberIds.rosa}`,
      ines,
    );
    expect(years.json().years).toHaveLength(1);
    // The storyteller's own journal does not hold it.
    expect(await list(`/api/journals/${ownJournalId(rosa.user.id)}/memories`, rosa)).toEqual([]);
  });

  it("lets organizers and storytellers record, not relatives or strangers", async () => {
    const uploaded = await upload(t, mp3, { cookie: luis.cookie });
    const asRelative = await api("POST", "/api/memories/process", luis, {
      audioUrl: uploaded.json().url,
      journalId: journal,
    });
    expect(asRelative.statusCode).toBe(403);
    expect(asRelative.json()).toMatchObject({
      code: "journal.cannot_record",
      message: ERROR_MESSAGES["journal.cannot_record"],
    });
    const strangers = await upload(t, mp3, { cookie: stranger.cookie });
    const asStranger = await api("POST", "/api/memories/process", stranger, {
      audioUrl: strangers.json().url,
      journalId: journal,
    });
    expect(asStranger.statusCode).toBe(404);
  });

  it("holds the permission matrix over a journal's memory, members and settings", async () => {
    const story = rosasStory.id;
    const audioId = rosasStory.audioUrl.split("/").pop();
    const edit = {
      title: "The orchard in spring",
      transcript: "",
      summary: "",
      recordedAt: rosasStory.recordedAt,
      tags: [],
    };
    const cases: [string, Method, string, object?][] = [
      ["memory", "GET", `/api/memories/${story}`],
      ["audio", "GET", `/api/audio/${audioId}`],
      ["comments", "GET", `/api/memories/${story}/comments`],
      ["owner", "GET", `/api/memories/${story}/owner`],
      ["captions", "GET", `/api/memories/${story}/captions.vtt`],
      ["photoOrder", "PUT", `/api/memories/${story}/photos`, { ids: [] }],
      ["edit", "PUT", `/api/memories/${story}`, edit],
      ["list", "GET", `/api/journals/${journal}/memories`],
      ["members", "GET", `/api/journals/${journal}/members`],
      ["rename", "PATCH", `/api/journals/${journal}`, { name: "The Alvarez family" }],
      ["addMember", "POST", `/api/journals/${journal}/members`, { name: "X", role: "storyteller" }],
      [
        "changeRole",
        "PATCH",
        `/api/journals/${journal}/members/${memberIds.pablo}`,
        { role: "storyteller" },
      ],
    ];
    const statuses = async (as?: TestUser) => {
      const out: Record<string, number> = {};
      for (const [name, method, url, body] of cases) {
        out[name] = (await api(method, url, as, body)).statusCode;
      }
      return out;
    };
    const organizer = {
      memory: 200,
      audio: 200,
      comments: 200,
      owner: 200,
      captions: 200,
      photoOrder: 200,
      edit: 200,
      list: 200,
      members: 200,
      rename: 200,
      addMember: 201,
      changeRole: 200,
    };
    expect(await statuses(ana)).toEqual(organizer);
    expect(await statuses(ines)).toEqual(organizer);
    const member = {
      memory: 200,
      audio: 200,
      comments: 200,
      owner: 200,
      captions: 200,
      list: 200,
      members: 200,
    };
    const notOrganizer = { rename: 403, addMember: 403, changeRole: 403 };
    const tellerOwn = { edit: 200, photoOrder: 200 };
    const noEdit = { edit: 403, photoOrder: 403 };
    expect(await statuses(rosa)).toEqual({ ...member, ...tellerOwn, ...notOrganizer });
    expect(await statuses(pablo)).toEqual({ ...member, ...noEdit, ...notOrganizer });
    expect(await statuses(luis)).toEqual({ ...member, ...noEdit, ...notOrganizer });
    const outsider = {
      memory: 404,
      audio: 404,
      comments: 404,
      owner: 404,
      captions: 404,
      photoOrder: 404,
      edit: 404,
      list: 404,
      members: 404,
      rename: 404,
      addMember: 404,
      changeRole: 404,
    };
    expect(await statuses(stranger)).toEqual(outsider);
    const loggedOut = await statuses(undefined);
    expect(loggedOut).toMatchObject({ memory: 404, audio: 404, comments: 404, list: 401 });
    // Deleting: another storyteller and a relative are refused, a stranger sees nothing, the
    // storyteller who told it deletes it.
    const spare = await record(rosa);
    expect((await api("DELETE", `/api/memories/${spare.id}`, pablo)).statusCode).toBe(403);
    expect((await api("DELETE", `/api/memories/${spare.id}`, luis)).statusCode).toBe(403);
    expect((await api("DELETE", `/api/memories/${spare.id}`, stranger)).statusCode).toBe(404);
    expect((await api("DELETE", `/api/memories/${spare.id}`, rosa)).statusCode).toBe(200);
    // Organizers see emails and pending invitations; others see names and roles only.
    const seen = (await api("GET", `/api/journals/${journal}/members`, luis)).json<Member[]>();
    expect(seen.every((m) => m.email === null)).toBe(true);
    const managed = (await api("GET", `/api/journals/${journal}/members`, ana)).json<Member[]>();
    expect(managed.find((m) => m.id === memberIds.rosa)?.email).toMatch(/^rosa-/);
  });

  it("keeps a journal's last organizer until another is named", async () => {
    const self = (await api("GET", "/api/journals", pablo)).json<Journal[]>()[0] as Journal;
    // Pablo's own journal has only him: he cannot leave it or step down.
    const leave = await api("DELETE", `/api/journals/${self.id}/members/${self.memberId}`, pablo);
    expect(leave.statusCode).toBe(409);
    const own = ownJournalId(stranger.user.id);
    const strangers = (await api("GET", "/api/journals", stranger)).json<Journal[]>()[0];
    const stepDown = await api(
      "PATCH",
      `/api/journals/${own}/members/${strangers?.memberId}`,
      stranger,
      { role: "relative" },
    );
    expect(stepDown.statusCode).toBe(409);
    expect(stepDown.json().code).toBe("journal.last_organizer");
    // A person alone deletes their account and journal as before.
    const deleted = await api("DELETE", "/api/user", stranger, {
      confirm: "delete",
      currentPassword: stranger.password,
    });
    expect(deleted.statusCode).toBe(200);
  });

  it("refuses to delete the last organizer's account while others belong, changing nothing", async () => {
    const solo = await createUserWithSession(t);
    const soloJournal = ownJournalId(solo.user.id);
    const email = `niece-${kind}@example.org`;
    const added = await api("POST", `/api/journals/${soloJournal}/members`, solo, {
      name: "Grandpa",
      role: "storyteller",
    });
    expect(added.statusCode).toBe(201);
    expect(added.json<Member>().hasAccount).toBe(false);
    const refused = await api("DELETE", "/api/user", solo, {
      confirm: "delete",
      currentPassword: solo.password,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(ERROR_MESSAGES["journal.last_organizer"]);
    expect((await api("GET", "/api/journals", solo)).statusCode).toBe(200);
    // A relative needs an address to be invited.
    const noMail = await api("POST", `/api/journals/${soloJournal}/members`, solo, {
      name: "Niece",
      role: "relative",
    });
    expect(noMail.statusCode).toBe(400);
    const twice = await api("POST", `/api/journals/${soloJournal}/members`, solo, {
      name: "Niece",
      role: "relative",
      email,
    });
    expect(twice.statusCode).toBe(201);
    const again = await api("POST", `/api/journals/${soloJournal}/members`, solo, {
      name: "Niece again",
      role: "relative",
      email: email.toUpperCase(),
    });
    expect(again.json().code).toBe("journal.already_member");
  });

  it("counts a storyteller invited at an address as family once they record by link, joined or not", async () => {
    const members = `/api/journals/${journal}/members`;
    const added = await api("POST", members, ana, {
      name: "Abuela",
      role: "storyteller",
      email: `abuela-${kind}@example.org`,
    });
    expect(added.statusCode).toBe(201);
    const abuela = added.json<Member>();
    expect(abuela.invitationPending).toBe(true);
    const seenBy = async (who: TestUser) =>
      (await api("GET", members, who)).json<Member[]>().map((m) => m.name);
    // An invitation alone is the organizers' business.
    expect(await seenBy(ana)).toContain("Abuela");
    expect(await seenBy(luis)).not.toContain("Abuela");
    // With a recording link she records (and gets the weekly question by mail) without ever
    // joining: the family sees her and asks her questions.
    const link = await api("POST", `${members}/${abuela.id}/recording-link`, ana);
    expect(link.statusCode).toBe(201);
    expect(await seenBy(luis)).toContain("Abuela");
    const listed = (await api("GET", members, ana)).json<Member[]>();
    expect(listed.find((m) => m.id === abuela.id)).toMatchObject({
      invitationPending: true,
      hasRecordingLink: true,
    });
    // Her link stopped, she is an invitation again.
    expect((await api("DELETE", `${members}/${abuela.id}/recording-link`, ana)).statusCode).toBe(
      204,
    );
    expect(await seenBy(luis)).not.toContain("Abuela");
    expect((await api("DELETE", `${members}/${abuela.id}`, ana)).statusCode).toBe(204);
  });

  it("invites in the language the organizer chose, else in the journal's", async () => {
    const tia = `tia-${kind}@example.org`;
    const tante = `tante-${kind}@example.org`;
    const uncle = `uncle-${kind}@example.org`;
    const invite = (name: string, email: string, language?: string) =>
      api("POST", `/api/journals/${journal}/members`, ana, {
        name,
        role: "relative",
        email,
        ...(language ? { language } : {}),
      });
    expect((await invite("Tía Carmen", tia, "es")).statusCode).toBe(201);
    expect((await invite("Uncle Joe", uncle)).statusCode).toBe(201);
    const setLanguage = (language: string) =>
      t.database.db.updateTable("journals").set({ language }).where("id", "=", journal).execute();
    await setLanguage("de");
    try {
      expect((await invite("Tante Lotte", tante)).statusCode).toBe(201);
    } finally {
      await setLanguage("en");
    }
    const expectMail = async (email: string, language: string, name: string) => {
      const words = wordsIn(language).INVITATION_MAIL;
      const mail = await sink.waitFor((m) => m.to.includes(email));
      expect(mailSubject(mail)).toBe(
        formatMessage(words.subject, { journal: "The Alvarez family" }, language),
      );
      expect(mail.text.split(/\r?\n/)[0]).toBe(formatMessage(words.greeting, { name }, language));
      expect(mail.text).toContain(words.action);
    };
    await expectMail(tia, "es", "Tía Carmen");
    await expectMail(tante, "de", "Tante Lotte");
    await expectMail(uncle, "en", "Uncle Joe");
    expect(
      (await sink.waitFor((m) => m.to.includes(uncle))).text.startsWith("Hello Uncle Joe,"),
    ).toBe(true);
    expect(wordsIn("es").INVITATION_MAIL.subject).not.toBe(wordsIn("en").INVITATION_MAIL.subject);
  });

  it("ends an expired invitation", async () => {
    const email = `late-${kind}@example.org`;
    await api("POST", `/api/journals/${journal}/members`, ana, {
      name: "Late",
      role: "relative",
      email,
    });
    const mail = await sink.waitFor((m) => m.to.includes(email));
    const token = /\/join\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? "";
    await t.database.db
      .updateTable("journal_members")
      .set({ invite_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("email", "=", email)
      .execute();
    expect((await api("GET", `/api/invitations/${token}`)).statusCode).toBe(404);
    expect((await api("POST", `/api/invitations/${token}`, luis)).statusCode).toBe(404);
  });

  it("refuses a removed member from the next request on; the stories stay", async () => {
    expect((await api("GET", `/api/memories/${rosasStory.id}`, luis)).statusCode).toBe(200);
    const removed = await api("DELETE", `/api/journals/${journal}/members/${memberIds.luis}`, ana);
    expect(removed.statusCode).toBe(204);
    expect((await api("GET", `/api/memories/${rosasStory.id}`, luis)).statusCode).toBe(404);
    expect((await api("GET", `/api/journals/${journal}/memories`, luis)).statusCode).toBe(404);
    // A storyteller leaves; their story stays in the journal.
    const left = await api("DELETE", `/api/journals/${journal}/members/${memberIds.pablo}`, pablo);
    expect(left.statusCode).toBe(204);
    expect((await api("GET", `/api/memories/${rosasStory.id}`, ana)).statusCode).toBe(200);
    // With a second organizer named, the first may step down.
    const stepDown = await api(
      "PATCH",
      `/api/journals/${journal}/members/${(await api("GET", "/api/journals", ana)).json<Journal[]>()[0]?.memberId}`,
      ana,
      { role: "storyteller" },
    );
    expect(stepDown.statusCode).toBe(200);
    const memories = new MemoriesRepo(t.database.db, t.database.kind);
    expect((await memories.findById(rosasStory.id))?.journal_id).toBe(journal);
  });

  it("lets a share link's holder see the journal's saved memories, and nothing of another's", async () => {
    const opened = async (journalQuery: string) => {
      const link = await api("POST", `/api/share-links${journalQuery}`, ines, { label: "Cousins" });
      expect(link.statusCode).toBe(201);
      const landing = await api("GET", new URL(link.json().url).pathname);
      // It lands on the profile of the account that made the journal, which shows it.
      const cookie = landing.cookies.find((c) => c.name === SHARE_COOKIE)?.value ?? "";
      return t.app.inject({
        method: "GET",
        url: `/api/memories/${rosasStory.id}`,
        headers: { cookie: `${SHARE_COOKIE}=${cookie}` },
      });
    };
    // Ines, a second organizer, makes the family journal's links as well as her own journal's.
    expect((await opened(`?journal=${journal}`)).statusCode).toBe(200);
    expect((await opened("")).statusCode).toBe(404);
    const links = await api("GET", `/api/share-links?journal=${journal}`, ines);
    expect(links.statusCode).toBe(200);
    // A storyteller does not manage the journal's links; a stranger does not see they exist.
    expect((await api("GET", `/api/share-links?journal=${journal}`, rosa)).statusCode).toBe(403);
    expect((await api("GET", `/api/share-links?journal=${journal}`, luis)).statusCode).toBe(404);
  });
});
