import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_LANGUAGE_SCRIPT_ID } from "../../shared/constants";
import { formatMessage } from "../../shared/i18n/format";
import { QUESTIONS } from "../../shared/questions";
import type { Journal, Member, RecordingPage } from "../../shared/schemas";
import { wordsIn } from "../i18n/words";
import { MemoriesRepo } from "../memories/memories.repo";
import { storeAudioFixture } from "../test/audio-fixtures";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { downloadBackup } from "../test/backup-helpers";
import { joinJournal, type Method, makeRecordingLink, request } from "../test/family-helpers";
import {
  buildAppOn,
  createTestApp,
  DATABASE_KINDS,
  makeTempDir,
  type TestApp,
} from "../test/harness";
import { type SmtpSink, startSmtpSink } from "../test/smtp-sink";
import { ownJournalId } from "./journals.repo";

const run = promisify(execFile);
const APP_URL = "https://journal.example.org";
/** Bidirectional marks pdftotext puts around right-to-left text. */
const MARKS = /[\u200e\u200f\u202a-\u202e]/g;

/** A PDF's text (pdftotext), its spaces folded and bidirectional marks left out. */
async function pdfText(pdf: Buffer): Promise<string> {
  const dir = await makeTempDir("vmj-lang-pdf-");
  try {
    await writeFile(path.join(dir, "file.pdf"), pdf);
    const { stdout } = await run("pdftotext", ["-enc", "UTF-8", path.join(dir, "file.pdf"), "-"]);
    return stdout.replace(MARKS, "").replace(/\s+/g, " ");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe.each(DATABASE_KINDS)("a journal's language (%s)", (kind) => {
  let t: TestApp;
  let sink: SmtpSink;
  let ana: TestUser; // organizer
  let rosa: TestUser; // storyteller
  let luis: TestUser; // relative
  let stranger: TestUser;
  let journal: string;
  const memberIds: Record<string, string> = {};

  const api = (method: Method, url: string, as?: TestUser | string, body?: object) =>
    request(t, method, url, as, body);
  const setLanguage = (language: string, as: TestUser = ana) =>
    api("PATCH", `/api/journals/${journal}`, as, { language });

  const invite = (who: TestUser, name: string, role: Member["role"]) =>
    joinJournal(t, sink, {
      journal,
      organizer: ana,
      who,
      name,
      role,
      email: `${name.toLowerCase()}-lang-${kind}@example.org`,
    });

  const makeLink = (memberId: string) => makeRecordingLink(t, journal, ana, memberId);

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
    // A saved story, for the book and the backup.
    const audio = await storeAudioFixture(t.database, t.storage, Buffer.from("ID3 not really"), {
      userId: ana.user.id,
    });
    await new MemoriesRepo(t.database.db, t.database.kind).insert({
      userId: ana.user.id,
      audioId: audio.id,
      status: "saved",
      title: "La playa",
      recordedAt: "2021-07-14T10:00:00.000Z",
      transcript: "Fuimos a la playa.",
      tags: [],
    });
  });
  afterAll(async () => {
    await t.cleanup();
    await sink.close();
  });

  it("is English until an organizer changes it; storytellers, relatives and strangers may not", async () => {
    const mine = (await api("GET", "/api/journals", ana)).json<Journal[]>();
    expect(mine.find((j) => j.id === journal)?.language).toBe("en");
    expect((await setLanguage("es", rosa)).statusCode).toBe(403);
    expect((await setLanguage("es", luis)).statusCode).toBe(403);
    expect((await setLanguage("es", stranger)).statusCode).toBe(404);
    expect((await setLanguage("tlh")).statusCode).toBe(400);
    expect((await api("PATCH", `/api/journals/${journal}`, ana, {})).statusCode).toBe(400);
    const changed = await setLanguage("es");
    expect(changed.statusCode).toBe(200);
    expect(changed.json<Journal>()).toMatchObject({ name: "The Alvarez family", language: "es" });
    // Everyone in it reads the journal's language in their list; the name stayed.
    const theirs = (await api("GET", "/api/journals", rosa)).json<Journal[]>();
    expect(theirs.find((j) => j.id === journal)).toMatchObject({
      language: "es",
      name: "The Alvarez family",
    });
  });

  it("a new account's own journal speaks the account's language, else English", async () => {
    const maria = await createUserWithSession(t, { language: "pt-BR" });
    const nobody = await createUserWithSession(t, { language: null });
    const [own] = (await api("GET", "/api/journals", maria)).json<Journal[]>();
    expect(own?.language).toBe("pt-BR");
    const [plain] = (await api("GET", "/api/journals", nobody)).json<Journal[]>();
    expect(plain?.language).toBe("en");
  });

  it("the link page speaks the journal's language, its question from the library in it", async () => {
    expect((await setLanguage("es")).statusCode).toBe(200);
    const token = await makeLink(memberIds.tomas as string);
    const page = (await api("GET", `/api/record/${token}`)).json<RecordingPage>();
    expect(page.language).toBe("es");
    const index = wordsIn("es").QUESTIONS.indexOf(page.question);
    expect(index).toBeGreaterThanOrEqual(0);
    expect(QUESTIONS).not.toContain(page.question);
    // The English question the weekly mail's button may carry is asked in the page's language.
    const asked = QUESTIONS[3] as string;
    const opened = await api("GET", `/api/record/${token}?q=${encodeURIComponent(asked)}`);
    expect(opened.json<RecordingPage>().question).toBe(wordsIn("es").QUESTIONS[3]);
    // A mail read in another language (the storyteller's own) carries its words: the same question.
    const french = encodeURIComponent(wordsIn("fr").QUESTIONS[3] as string);
    const fromFrench = await api("GET", `/api/record/${token}?q=${french}`);
    expect(fromFrench.json<RecordingPage>().question).toBe(wordsIn("es").QUESTIONS[3]);
  });

  it("a storyteller changes their own page's language through their link, and nobody else's", async () => {
    expect((await setLanguage("es")).statusCode).toBe(200);
    const tomas = await makeLink(memberIds.tomas as string);
    const rosas = await makeLink(memberIds.rosa as string);
    const chosen = await api("PUT", `/api/record/${tomas}/language`, undefined, {
      language: "ar",
    });
    expect(chosen.statusCode).toBe(200);
    const page = (await api("GET", `/api/record/${tomas}`)).json<RecordingPage>();
    expect(page.language).toBe("ar");
    const index = wordsIn("ar").QUESTIONS.indexOf(page.question);
    expect(index).toBeGreaterThanOrEqual(0);
    // Rosa's page still speaks the journal's language; the journal's did not change.
    expect((await api("GET", `/api/record/${rosas}`)).json<RecordingPage>().language).toBe("es");
    const listed = (await api("GET", "/api/journals", ana)).json<Journal[]>();
    expect(listed.find((j) => j.id === journal)?.language).toBe("es");
    expect(
      (await api("PUT", `/api/record/${tomas}/language`, undefined, { language: "klingon" }))
        .statusCode,
    ).toBe(400);
    // A dead link changes nothing.
    await api("DELETE", `/api/journals/${journal}/members/${memberIds.rosa}/recording-link`, ana);
    const dead = await api("PUT", `/api/record/${rosas}/language`, undefined, { language: "fr" });
    expect(dead.statusCode).toBe(404);
    const row = await t.database.db
      .selectFrom("journal_members")
      .select(["id", "language"])
      .where("id", "in", [memberIds.rosa as string, memberIds.tomas as string])
      .execute();
    expect(Object.fromEntries(row.map((r) => [r.id, r.language]))).toEqual({
      [memberIds.rosa as string]: null,
      [memberIds.tomas as string]: "ar",
    });
  });

  it("the HTML of /r/<token> carries the page's language, its lang and its direction", async () => {
    const clientDir = await makeTempDir("vmj-client-");
    await mkdir(path.join(clientDir, "assets"));
    await writeFile(
      path.join(clientDir, "index.html"),
      '<!doctype html><html lang="en"><head></head><body><div id=root></div></body></html>',
    );
    const web = await buildAppOn({
      config: t.config,
      database: t.database,
      storage: t.storage,
      clientDir,
    });
    try {
      await setLanguage("es");
      const tomas = await makeLink(memberIds.tomas as string);
      await api("PUT", `/api/record/${tomas}/language`, undefined, { language: "ar" });
      const html = (await web.inject({ url: `/r/${tomas}` })).body;
      expect(html).toContain(
        `<script type="application/json" id="${PAGE_LANGUAGE_SCRIPT_ID}">"ar"</script>`,
      );
      expect(html).toContain('<html lang="ar" dir="rtl">');
      const pablo = await api("POST", `/api/journals/${journal}/members`, ana, {
        name: "Pablo",
        role: "storyteller",
      });
      const pablos = await makeLink(pablo.json<Member>().id);
      expect((await web.inject({ url: `/r/${pablos}` })).body).toContain(
        '<html lang="es" dir="ltr">',
      );
      // Other pages carry none: they speak the account's or the browser's.
      expect((await web.inject({ url: "/" })).body).not.toContain(PAGE_LANGUAGE_SCRIPT_ID);
    } finally {
      await web.close();
      await rm(clientDir, { recursive: true, force: true });
    }
  });

  it("prints the card in the member's language, else the journal's", async () => {
    await setLanguage("es");
    const pablo = await api("POST", `/api/journals/${journal}/members`, ana, {
      name: "Abuelo Pablo",
      role: "storyteller",
    });
    const id = pablo.json<Member>().id;
    const token = await makeLink(id);
    const card = async () =>
      pdfText(
        (await api("GET", `/api/journals/${journal}/members/${id}/card.pdf`, ana)).rawPayload,
      );
    const spanish = wordsIn("es").RECORDING_CARD;
    let text = await card();
    expect(text).toContain(formatMessage(spanish.hello, { name: "Abuelo Pablo" }, "es"));
    for (const line of spanish.lines) expect(text).toContain(line);
    await api("PUT", `/api/record/${token}/language`, undefined, { language: "zh-CN" });
    text = await card();
    for (const line of wordsIn("zh-CN").RECORDING_CARD.lines) {
      expect(text.replace(/ /g, "")).toContain(line.replace(/ /g, ""));
    }
    await api("PUT", `/api/record/${token}/language`, undefined, { language: "ar" });
    text = await card();
    // pdftotext reads right-to-left lines back in logical order, word by word (its marks apart).
    const words = wordsIn("ar").RECORDING_CARD.lines[0]?.split(" ") ?? [];
    for (const word of words.filter((w) => !/[\p{M}\d]/u.test(w))) expect(text).toContain(word);
  });

  it("writes the book in the journal's language: Spanish, Arabic, Chinese", async () => {
    const book = async () =>
      pdfText((await api("GET", `/api/memory-book?journal=${journal}`, ana)).rawPayload);
    await setLanguage("es");
    let text = await book();
    const es = wordsIn("es").MEMORY_BOOK_PDF;
    for (const word of [es.title, es.contents, es.transcript, es.scanToListen]) {
      expect(text).toContain(word);
    }
    expect(text).toContain("14 de julio de 2021");
    expect(text).not.toContain("Memory Book");
    await setLanguage("ar");
    text = await book();
    for (const word of wordsIn("ar").MEMORY_BOOK_PDF.title.split(" ")) expect(text).toContain(word);
    expect(text).toContain(wordsIn("ar").MEMORY_BOOK_PDF.contents);
    // The story's own Spanish words stay as they were told.
    expect(text).toContain("Fuimos a la playa.");
    await setLanguage("zh-CN");
    text = await book();
    expect(text).toContain(wordsIn("zh-CN").MEMORY_BOOK_PDF.title);
    expect(text).toContain("2021年7月14日");
  });

  it("writes the book's labelled lines as each language words them (French spaces its colon)", async () => {
    await setLanguage("fr");
    const text = await pdfText(
      (await api("GET", `/api/memory-book?journal=${journal}&tag=plage`, ana)).rawPayload,
    );
    const fr = wordsIn("fr").MEMORY_BOOK_PDF;
    expect(text).toContain(formatMessage(fr.taggedWith, { tag: "plage" }, "fr"));
    expect(text).toContain("Étiquette : plage");
    expect(text).toMatch(/Réalisé le \d{1,2} \p{L}+ \d{4}/u);
  });

  it("writes the backup's page in the journal's language and direction", async () => {
    await setLanguage("ar");
    let html = (await downloadBackup(t, ana.cookie)).files.get("index.html")?.toString() ?? "";
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain(wordsIn("ar").BACKUP_INDEX.transcript);
    await setLanguage("es");
    html = (await downloadBackup(t, ana.cookie)).files.get("index.html")?.toString() ?? "";
    expect(html).toContain('<html lang="es" dir="ltr">');
    expect(html).toContain(wordsIn("es").BACKUP_INDEX.madeOn);
    expect(html).toContain("14 de julio de 2021");
  });
});
