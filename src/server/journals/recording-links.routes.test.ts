import { execFile } from "node:child_process";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMessage } from "../../shared/i18n/format";
import { FAMILY_QUESTION_MAIL, RECORDING_CARD } from "../../shared/journal-mails";
import { QUESTIONS } from "../../shared/questions";
import type { LinkStory, Member, Memory, RecordingPage } from "../../shared/schemas";
import { wordsIn } from "../i18n/words";
import { JobsRepo } from "../jobs/jobs.repo";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import {
  joinJournal,
  linkTokenOf,
  type Method,
  makeRecordingLink,
  recordingLinkPath,
  request,
} from "../test/family-helpers";
import {
  buildAppOn,
  createTestApp,
  DATABASE_KINDS,
  makeTempDir,
  type TestApp,
} from "../test/harness";
import { mailSubject, type SmtpSink, startSmtpSink } from "../test/smtp-sink";
import { fixture, upload, visitorCookie } from "../test/upload-helpers";
import { ownJournalId } from "./journals.repo";

const run = promisify(execFile);

/** The QR codes and the text of a one-page PDF (pdftoppm at 150 dpi, zbarimg; pdftotext). */
async function readCard(pdf: Buffer): Promise<{ codes: string[]; text: string }> {
  const dir = await makeTempDir("vmj-card-");
  try {
    await writeFile(path.join(dir, "card.pdf"), pdf);
    await run("pdftoppm", [
      "-r",
      "150",
      "-png",
      path.join(dir, "card.pdf"),
      path.join(dir, "page"),
    ]);
    const images = (await readdir(dir)).filter((name) => name.endsWith(".png"));
    expect(images).toHaveLength(1);
    const { stdout } = await run("zbarimg", ["--raw", "-q", path.join(dir, images[0] as string)]);
    const text = await run("pdftotext", ["-enc", "UTF-8", path.join(dir, "card.pdf"), "-"]);
    return { codes: stdout.split("\n").filter(Boolean), text: text.stdout };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const APP_URL = "https://journal.example.org";

describe.each(DATABASE_KINDS)("recording links (%s)", (kind) => {
  let t: TestApp;
  let sink: SmtpSink;
  let ana: TestUser; // organizer
  let rosa: TestUser; // storyteller with an account
  let luis: TestUser; // relative
  let stranger: TestUser;
  let journal: string;
  let mp3: Buffer;
  const memberIds: Record<string, string> = {};

  const api = (method: Method, url: string, as?: TestUser | string, body?: object) =>
    request(t, method, url, as, body);

  const invite = (who: TestUser, name: string, role: Member["role"]) =>
    joinJournal(t, sink, {
      journal,
      organizer: ana,
      who,
      name,
      role,
      email: `${name.toLowerCase()}-${kind}@example.org`,
    });

  const linkPath = (memberId: string) => recordingLinkPath(journal, memberId);
  const tokenOf = linkTokenOf;

  const makeLink = (memberId: string) => makeRecordingLink(t, journal, ana, memberId);

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({ kind, env: { SMTP_URL: sink.url, APP_URL } });
    ana = await createUserWithSession(t, { isPublic: false });
    rosa = await createUserWithSession(t);
    luis = await createUserWithSession(t);
    stranger = await createUserWithSession(t);
    journal = ownJournalId(ana.user.id);
    mp3 = await fixture("tone.mp3");
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

    it("the link's page answers 404 once the link is dead, for the app to show its 404", async () => {
      const clientDir = await makeTempDir("vmj-client-");
      await mkdir(path.join(clientDir, "assets"));
      await writeFile(path.join(clientDir, "index.html"), "<!doctype html><div id=root></div>");
      const web = await buildAppOn({
        config: t.config,
        database: t.database,
        storage: t.storage,
        clientDir,
      });
      try {
        const token = await makeLink(memberIds.tomas as string);
        const live = await web.inject({ url: `/r/${token}` });
        expect(live.statusCode).toBe(200);
        expect(live.headers["referrer-policy"]).toBe("no-referrer");
        await api("DELETE", linkPath(memberIds.tomas as string), ana);
        expect((await web.inject({ url: `/r/${token}` })).statusCode).toBe(404);
        expect((await web.inject({ url: "/r/nothing-here" })).statusCode).toBe(404);
      } finally {
        await web.close();
        await rm(clientDir, { recursive: true, force: true });
      }
    });

    it("a wrong token answers 404", async () => {
      const wrong = await api("GET", `/api/record/${"x".repeat(43)}`);
      expect(wrong.statusCode).toBe(404);
      expect(wrong.json().code).toBe("recording_link.invalid");
    });
  });
  /** A fresh browser (no cookie) uploads the tone and records it through the link. */
  async function recordThrough(token: string, body: object = {}) {
    const uploaded = await upload(t, mp3);
    expect(uploaded.statusCode).toBe(201);
    const browser = visitorCookie(uploaded);
    const made = await api("POST", `/api/record/${token}/memories`, browser, {
      audioUrl: uploaded.json().url,
      ...body,
    });
    return { made, browser, audioUrl: uploaded.json().url as string };
  }

  /** What processing would do, without the pipeline: the story is saved with a title. */
  async function markSaved(id: string, title: string) {
    await t.database.db
      .updateTable("memories")
      .set({ status: "saved", stage: null, title })
      .where("id", "=", id)
      .execute();
  }

  describe("the link's page and recording through it", () => {
    let token: string;
    let rosasToken: string;
    let tomasStory: LinkStory;
    let rosasOwnStory: Memory;

    beforeAll(async () => {
      token = await makeLink(memberIds.tomas as string);
      rosasToken = await makeLink(memberIds.rosa as string);
      // A story Rosa recorded in the journal herself, logged in.
      const uploaded = await upload(t, mp3, { cookie: rosa.cookie });
      const made = await api("POST", "/api/memories/process", rosa, {
        audioUrl: uploaded.json().url,
        journalId: journal,
      });
      rosasOwnStory = made.json<Memory>();
      await markSaved(rosasOwnStory.id, "Rosa's garden");
    });

    it("shows the journal's name, the storyteller's name and this week's question, nothing else", async () => {
      const page = await api("GET", `/api/record/${token}`);
      expect(page.statusCode).toBe(200);
      expect(page.headers["cache-control"]).toBe("no-store");
      const body = page.json<RecordingPage>();
      expect(Object.keys(body).sort()).toEqual([
        "askedBy",
        "journalName",
        "language",
        "name",
        "question",
        "questionMail",
        "stories",
      ]);
      expect(body.journalName).toBe("The Alvarez family");
      expect(body.name).toBe("Grandpa Tomás");
      expect(body.language).toBe("en");
      expect(QUESTIONS).toContain(body.question);
      expect(body.stories.items).toEqual([]);
      // The same question all week, on every request.
      expect((await api("GET", `/api/record/${token}`)).json<RecordingPage>().question).toBe(
        body.question,
      );
    });

    it("records a memory in the journal told by the member, answering the question shown", async () => {
      const { question } = (await api("GET", `/api/record/${token}`)).json<RecordingPage>();
      const { made, browser, audioUrl } = await recordThrough(token, { question });
      expect(made.statusCode).toBe(201);
      tomasStory = made.json<LinkStory>();
      expect(tomasStory).toMatchObject({ status: "processing", question, title: "" });
      expect(tomasStory.audioUrl).toBe(`/api/record/${token}/memories/${tomasStory.id}/audio`);
      const row = await t.database.db
        .selectFrom("memories")
        .selectAll()
        .where("id", "=", tomasStory.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        journal_id: journal,
        storyteller_id: memberIds.tomas,
        user_id: null,
        anon_owner_hash: null,
        question,
      });
      // Sent again (an answer lost on the way): the same story.
      const again = await api("POST", `/api/record/${token}/memories`, browser, { audioUrl });
      expect(again.statusCode).toBe(200);
      expect(again.json<LinkStory>().id).toBe(tomasStory.id);
      // The family sees it in the journal, told by Tomás.
      const seen = await api("GET", `/api/memories/${tomasStory.id}`, luis);
      expect(seen.json<Memory>().storyteller).toEqual({
        id: memberIds.tomas,
        name: "Grandpa Tomás",
      });
    });

    it("follows the story until it is saved, then lists it to listen to", async () => {
      const polled = await api("GET", `/api/record/${token}/memories/${tomasStory.id}`);
      expect(polled.json<LinkStory>().status).toBe("processing");
      await markSaved(tomasStory.id, "The day I met your grandmother");
      const saved = (
        await api("GET", `/api/record/${token}/memories/${tomasStory.id}`)
      ).json<LinkStory>();
      expect(saved).toMatchObject({ status: "saved", title: "The day I met your grandmother" });
      const page = (await api("GET", `/api/record/${token}`)).json<RecordingPage>();
      expect(page.stories.items.map((s) => s.id)).toEqual([tomasStory.id]);
      expect(page.stories.total).toBe(1);
      const audio = await api("GET", saved.audioUrl);
      expect(audio.statusCode).toBe(200);
      expect(audio.headers["content-type"]).toBe("audio/mpeg");
      expect(audio.rawPayload.equals(mp3)).toBe(true);
      const ranged = await t.app.inject({ url: saved.audioUrl, headers: { range: "bytes=0-9" } });
      expect(ranged.statusCode).toBe(206);
    });

    it("a member with an account: the story is their account's, and only theirs are listed", async () => {
      const { made } = await recordThrough(rosasToken);
      expect(made.statusCode).toBe(201);
      const row = await t.database.db
        .selectFrom("memories")
        .select(["user_id", "storyteller_id", "question"])
        .where("id", "=", made.json<LinkStory>().id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        user_id: rosa.user.id,
        storyteller_id: memberIds.rosa,
        question: null,
      });
      const page = (await api("GET", `/api/record/${rosasToken}`)).json<RecordingPage>();
      expect(page.stories.items.map((s) => s.id)).toEqual([rosasOwnStory.id]);
    });

    it("keeps only a question the product asks", async () => {
      const { made } = await recordThrough(token, { question: "What is the admin password?" });
      expect(made.json<LinkStory>().question).toBeNull();
    });

    it("keeps a library question asked in the page's language as the library's own, for each reader's language", async () => {
      const spanish = wordsIn("es").QUESTIONS[7] as string;
      const { made } = await recordThrough(token, { question: spanish });
      expect(made.statusCode).toBe(201);
      expect(made.json<LinkStory>().question).toBe(QUESTIONS[7]);
      const memory = await api("GET", `/api/memories/${made.json<LinkStory>().id}`, ana);
      expect(memory.json<{ question: string }>().question).toBe(QUESTIONS[7]);
    });

    it("grants nothing else: other stories, the journal, the memories' own routes", async () => {
      // Another storyteller's story, through Tomás's link.
      expect(
        (await api("GET", `/api/record/${token}/memories/${rosasOwnStory.id}`)).statusCode,
      ).toBe(404);
      expect(
        (await api("GET", `/api/record/${token}/memories/${rosasOwnStory.id}/audio`)).statusCode,
      ).toBe(404);
      // The browser that recorded through the link, on the journal's routes.
      const { browser } = await recordThrough(token);
      for (const url of [
        `/api/journals/${journal}/memories`,
        `/api/journals/${journal}/members`,
        `/api/journals/${journal}/years`,
      ]) {
        expect((await api("GET", url, browser)).statusCode).toBe(401);
      }
      for (const url of [
        `/api/memories/${tomasStory.id}`,
        `/api/memories/${rosasOwnStory.id}`,
        `/api/memories/${tomasStory.id}/comments`,
      ]) {
        expect((await api("GET", url, browser)).statusCode).toBe(404);
      }
      const { audioUrl } = (await api("GET", `/api/memories/${tomasStory.id}`, ana)).json<Memory>();
      expect((await api("GET", audioUrl, browser)).statusCode).toBe(404);
      const edit = {
        title: "x",
        transcript: "",
        summary: "",
        recordedAt: tomasStory.recordedAt,
        tags: [],
      };
      expect((await api("PUT", `/api/memories/${tomasStory.id}`, browser, edit)).statusCode).toBe(
        401,
      );
      expect((await api("DELETE", `/api/memories/${tomasStory.id}`, browser)).statusCode).not.toBe(
        204,
      );
      expect((await api("GET", "/api/memories", browser)).statusCode).toBe(401);
      // Nor is the token anything but a path: as a cookie or a share token it opens nothing.
      expect(
        (await api("GET", `/api/journals/${journal}/memories`, `vmj_share=${token}`)).statusCode,
      ).toBe(401);
    });

    it("a recording sent with another browser's upload is refused", async () => {
      const uploaded = await upload(t, mp3);
      const other = await api("POST", `/api/record/${token}/memories`, undefined, {
        audioUrl: uploaded.json().url,
      });
      expect(other.statusCode).toBe(400);
      expect(other.json().code).toBe("audio.not_yours");
    });

    it("a member made a relative, or removed, has a link that opens nothing", async () => {
      const pablo = await api("POST", `/api/journals/${journal}/members`, ana, {
        name: "Pablo",
        role: "storyteller",
      });
      const pabloId = pablo.json<Member>().id;
      const pablosToken = await makeLink(pabloId);
      await api("PATCH", `/api/journals/${journal}/members/${pabloId}`, ana, { role: "relative" });
      expect((await api("GET", `/api/record/${pablosToken}`)).statusCode).toBe(404);
      expect((await recordThrough(pablosToken)).made.statusCode).toBe(404);
      await api("PATCH", `/api/journals/${journal}/members/${pabloId}`, ana, {
        role: "storyteller",
      });
      expect((await api("GET", `/api/record/${pablosToken}`)).statusCode).toBe(200);
      await api("DELETE", `/api/journals/${journal}/members/${pabloId}`, ana);
      expect((await api("GET", `/api/record/${pablosToken}`)).statusCode).toBe(404);
    });

    it("a stopped link records nothing more and plays nothing more", async () => {
      const live = await makeLink(memberIds.tomas as string);
      expect(
        (await api("GET", `/api/record/${token}/memories/${tomasStory.id}/audio`)).statusCode,
      ).toBe(404);
      await api("DELETE", linkPath(memberIds.tomas as string), ana);
      expect((await recordThrough(live)).made.statusCode).toBe(404);
      expect((await api("GET", `/api/record/${live}/memories/${tomasStory.id}`)).statusCode).toBe(
        404,
      );
      expect(
        (await api("GET", `/api/record/${live}/memories/${tomasStory.id}/audio`)).statusCode,
      ).toBe(404);
    });
  });
  describe("the card for the fridge", () => {
    const cardPath = (memberId: string) => `/api/journals/${journal}/members/${memberId}/card.pdf`;

    it("prints the storyteller's name and a QR code of the current link, as often as asked", async () => {
      const current = await makeLink(memberIds.tomas as string);
      const card = await api("GET", cardPath(memberIds.tomas as string), ana);
      expect(card.statusCode).toBe(200);
      expect(card.headers["content-type"]).toBe("application/pdf");
      expect(card.headers["content-disposition"]).toMatch(
        /^attachment; filename="recording-card-Grandpa-Tom_s\.pdf"$/,
      );
      const { codes, text } = await readCard(card.rawPayload);
      expect(codes).toEqual([`${APP_URL}/r/${current}`]);
      const words = text.replace(/\s+/g, " ");
      expect(words).toContain(formatMessage(RECORDING_CARD.hello, { name: "Grandpa Tomás" }));
      for (const line of RECORDING_CARD.lines) expect(words).toContain(line);
      // Printed again: the same link, still live; the organizer sees it too.
      const again = await readCard(
        (await api("GET", cardPath(memberIds.tomas as string), ana)).rawPayload,
      );
      expect(again.codes).toEqual([`${APP_URL}/r/${current}`]);
      expect((await api("GET", `/api/record/${current}`)).statusCode).toBe(200);
      const shown = await api("GET", linkPath(memberIds.tomas as string), ana);
      expect(shown.json()).toEqual({ url: `${APP_URL}/r/${current}` });
      expect(shown.headers["cache-control"]).toBe("no-store");
    });

    it("prints at most as many cards an hour as it makes links, per organizer", async () => {
      const busy = await createUserWithSession(t);
      const own = `/api/journals/${ownJournalId(busy.user.id)}/members`;
      const added = await api("POST", own, busy, { name: "Nonna", role: "storyteller" });
      const card = `${own}/${added.json<Member>().id}/card.pdf`;
      expect(
        (await api("POST", `${own}/${added.json<Member>().id}/recording-link`, busy)).statusCode,
      ).toBe(201);
      for (let i = 0; i < t.config.RATE_LIMIT_SHARE_LINKS_PER_HOUR; i++) {
        expect((await api("GET", card, busy)).statusCode).toBe(200);
      }
      const refused = await api("GET", card, busy);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe("too_many_requests");
      // Another organizer prints theirs.
      expect((await api("GET", cardPath(memberIds.tomas as string), ana)).statusCode).toBe(200);
    });

    it("a renewed link is the card's at once, and the old one is dead at once", async () => {
      const old = await makeLink(memberIds.tomas as string);
      const renewed = await makeLink(memberIds.tomas as string);
      expect((await api("GET", `/api/record/${old}`)).statusCode).toBe(404);
      const { codes } = await readCard(
        (await api("GET", cardPath(memberIds.tomas as string), ana)).rawPayload,
      );
      expect(codes).toEqual([`${APP_URL}/r/${renewed}`]);
    });

    it("no link: 404 with a code; a link made before links were sealed: a code to make a new one", async () => {
      const tomas = memberIds.tomas as string;
      expect((await api("DELETE", linkPath(tomas), ana)).statusCode).toBe(204);
      const none = await api("GET", cardPath(tomas), ana);
      expect(none.statusCode).toBe(404);
      expect(none.json()).toMatchObject({ code: "recording_link.none" });
      // As a link made before: its hash alone.
      await makeLink(tomas);
      await t.database.db
        .updateTable("journal_members")
        .set({ recording_token_sealed: null })
        .where("id", "=", tomas)
        .execute();
      for (const path of [cardPath(tomas), linkPath(tomas)]) {
        const old = await api("GET", path, ana);
        expect(old.statusCode).toBe(409);
        expect(old.json()).toMatchObject({ code: "recording_link.make_new" });
      }
      // A new link prints.
      const fresh = await makeLink(tomas);
      const { codes } = await readCard((await api("GET", cardPath(tomas), ana)).rawPayload);
      expect(codes).toEqual([`${APP_URL}/r/${fresh}`]);
    });

    it("only organizers print cards or see a link; printing is no longer a POST", async () => {
      const path = cardPath(memberIds.tomas as string);
      expect((await api("GET", path, luis)).statusCode).toBe(403);
      expect((await api("GET", path, stranger)).statusCode).toBe(404);
      expect((await api("GET", path)).statusCode).toBe(401);
      expect((await api("GET", linkPath(memberIds.tomas as string), luis)).statusCode).toBe(403);
      expect((await api("GET", cardPath(memberIds.luis as string), ana)).statusCode).toBe(404);
      expect((await api("POST", path, ana)).statusCode).toBe(404);
    });

    it("the sealed copy is no token in clear, and never outlives its hash", async () => {
      const tomas = memberIds.tomas as string;
      const token = await makeLink(tomas);
      const row = await t.database.db
        .selectFrom("journal_members")
        .select(["recording_token_hash", "recording_token_sealed"])
        .where("id", "=", tomas)
        .executeTakeFirstOrThrow();
      expect(row.recording_token_sealed).toBeTruthy();
      expect(row.recording_token_sealed).not.toContain(token);
      await expect(
        t.database.db
          .updateTable("journal_members")
          .set({ recording_token_hash: null })
          .where("id", "=", tomas)
          .execute(),
      ).rejects.toThrow();
    });
  });

  describe("questions from the family", () => {
    it("a relative asks; the storyteller's page asks it; the answer is kept and the relative told", async () => {
      const tomas = memberIds.tomas as string;
      const path = `/api/journals/${journal}/members/${tomas}/questions`;
      const text = "What was your first job, Grandpa?";
      // Storytellers, outsiders and the logged out do not ask; relatives and organizers do.
      expect((await api("POST", path, rosa, { text })).statusCode).toBe(403);
      expect((await api("POST", path, stranger, { text })).statusCode).toBe(404);
      expect((await api("POST", path, undefined, { text })).statusCode).toBe(401);
      expect((await api("POST", path, luis, { text: " " })).statusCode).toBe(400);
      const asked = await api("POST", path, luis, { text });
      expect(asked.statusCode).toBe(201);
      expect(asked.json()).toMatchObject({ text, askedBy: "Luis", memoryId: null });
      const later = await api("POST", path, ana, { text: "Where did you meet Grandma?" });
      expect(later.statusCode).toBe(201);
      // A relative cannot be asked: they tell no stories.
      const toRelative = `/api/journals/${journal}/members/${memberIds.luis}/questions`;
      expect((await api("POST", toRelative, ana, { text })).statusCode).toBe(403);

      // The oldest question waiting is the one the link's page asks, with who asked it.
      const token = await makeLink(tomas);
      const page = (await api("GET", `/api/record/${token}`)).json<RecordingPage>();
      expect(page).toMatchObject({ question: text, askedBy: "Luis" });
      const { made } = await recordThrough(token, { question: text });
      expect(made.statusCode).toBe(201);
      const story = made.json<LinkStory>();
      expect(story.question).toBe(text);

      // Processing saves it (its last stage): the question is answered and Luis is mailed.
      await t.database.db
        .updateTable("memories")
        .set({ stage: "save", title: "My first job at the bakery" })
        .where("id", "=", story.id)
        .execute();
      await new JobsRepo(t.database.db, kind).enqueue({
        kind: "process-memory",
        targetId: story.id,
      });
      await t.services.worker.drain();
      await t.services.worker.drain();
      const list = (await api("GET", path, rosa)).json<{ text: string; memoryId: string }[]>();
      expect(list.map((q) => [q.text, q.memoryId])).toEqual([
        ["Where did you meet Grandma?", null],
        [text, story.id],
      ]);
      const mail = await sink.waitFor(
        (m) => m.to.includes(`luis-${kind}@example.org`) && m.text.includes(text),
      );
      expect(mail.text).toContain(
        formatMessage(FAMILY_QUESTION_MAIL.body, { teller: "Grandpa Tomás", question: text }),
      );
      expect(mail.text).toContain(`${APP_URL}/memory/${story.id}`);
      // The next question waiting is asked now.
      expect((await api("GET", `/api/record/${token}`)).json<RecordingPage>().question).toBe(
        "Where did you meet Grandma?",
      );
      // Whoever asked, or an organizer, removes a question; another relative or storyteller not.
      const laterId = later.json<{ id: string }>().id;
      expect((await api("DELETE", `${path}/${laterId}`, luis)).statusCode).toBe(403);
      expect((await api("DELETE", `${path}/${laterId}`, ana)).statusCode).toBe(204);

      // Whoever asked reads the mail in their account's language.
      await t.database.db
        .updateTable("users")
        .set({ language: "es" })
        .where("id", "=", luis.user.id)
        .execute();
      const spanish = "¿Dónde aprendiste a cocinar?";
      expect((await api("POST", path, luis, { text: spanish })).statusCode).toBe(201);
      const answer = (await recordThrough(token, { question: spanish })).made.json<LinkStory>();
      await t.database.db
        .updateTable("memories")
        .set({ stage: "save", title: "La cocina" })
        .where("id", "=", answer.id)
        .execute();
      await new JobsRepo(t.database.db, kind).enqueue({
        kind: "process-memory",
        targetId: answer.id,
      });
      await t.services.worker.drain();
      await t.services.worker.drain();
      const es = wordsIn("es").FAMILY_QUESTION_MAIL;
      const inSpanish = await sink.waitFor(
        (m) => m.to.includes(`luis-${kind}@example.org`) && m.text.includes(spanish),
      );
      const subject = formatMessage(es.subject, { teller: "Grandpa Tomás" }, "es");
      expect(subject).not.toBe(
        formatMessage(FAMILY_QUESTION_MAIL.subject, { teller: "Grandpa Tomás" }),
      );
      expect(mailSubject(inSpanish)).toBe(subject);
      expect(inSpanish.text).toContain(
        formatMessage(es.body, { teller: "Grandpa Tomás", question: spanish }, "es"),
      );
      expect(inSpanish.text).toContain(es.action);
    });
  });
});
