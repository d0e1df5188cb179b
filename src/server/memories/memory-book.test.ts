import { execFile } from "node:child_process";
import { readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOWNLOAD_CHECK_HEADER } from "../../shared/constants";
import { memoryBookLinkLabel, type ShareLink } from "../../shared/share-links";
import { newId } from "../ids";
import { SHARE_COOKIE } from "../share-links/share-cookie";
import { storeAudioFixture } from "../test/audio-fixtures";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, makeTempDir, type TestApp } from "../test/harness";
import { MemoriesRepo, type MemoryRow, type NewMemory } from "./memories.repo";
import { MEMORY_BOOKS_PER_HOUR } from "./memories.routes";
import { MemoryBook, type MemoryBookFilter } from "./memory-book";

const run = promisify(execFile);
const APP_URL = "https://journal.example.org";

/** A PDF's pages as text (pdftotext, reading order), one string per page. */
async function pdfPages(dir: string, pdf: Buffer): Promise<string[]> {
  const file = path.join(dir, `${newId()}.pdf`);
  await writeFile(file, pdf);
  const { stdout } = await run("pdftotext", ["-enc", "UTF-8", file, "-"], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout.split("\f").slice(0, -1);
}

/** Each page's size in points, from `pdfinfo`. */
async function pageSizes(dir: string, pdf: Buffer): Promise<string[]> {
  const file = path.join(dir, `${newId()}.pdf`);
  await writeFile(file, pdf);
  const { stdout } = await run("pdfinfo", ["-f", "1", "-l", "9999", file]);
  return [...stdout.matchAll(/^Page\s+\d+ size:\s+([\d.]+ x [\d.]+) pts/gm)].map((m) => m[1] ?? "");
}

interface Word {
  page: number;
  text: string;
  yMin: number;
  yMax: number;
  pageHeight: number;
}

/** Every word with its box, from `pdftotext -bbox`. */
async function pdfWords(dir: string, pdf: Buffer): Promise<Word[]> {
  const file = path.join(dir, `${newId()}.pdf`);
  await writeFile(file, pdf);
  const { stdout } = await run("pdftotext", ["-bbox", "-enc", "UTF-8", file, "-"], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const words: Word[] = [];
  let page = 0;
  let pageHeight = 0;
  for (const line of stdout.split("\n")) {
    const pageMatch = /<page width="[\d.]+" height="([\d.]+)">/.exec(line);
    if (pageMatch) {
      page += 1;
      pageHeight = Number(pageMatch[1]);
      continue;
    }
    const word =
      /<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">(.*)<\/word>/.exec(line);
    if (word) {
      words.push({
        page,
        pageHeight,
        yMin: Number(word[1]),
        yMax: Number(word[2]),
        text: word[3] ?? "",
      });
    }
  }
  return words;
}

/** The QR codes on one page, decoded (pdftoppm at 150 dpi, then zbarimg). */
async function qrLinks(dir: string, pdf: Buffer, page: number): Promise<string[]> {
  const base = path.join(dir, newId());
  await writeFile(`${base}.pdf`, pdf);
  await run("pdftoppm", [
    "-r",
    "150",
    "-png",
    "-f",
    String(page),
    "-l",
    String(page),
    `${base}.pdf`,
    base,
  ]);
  const image = (await readdir(dir)).find(
    (name) => name.startsWith(path.basename(base)) && name.endsWith(".png"),
  );
  if (!image) throw new Error("pdftoppm wrote no image");
  // zbarimg exits 4 when it finds no code: that is an empty list here, not an error.
  const result = await run("zbarimg", ["--raw", "-q", path.join(dir, image)]).catch(
    (error: { code?: number; stdout?: string }) => {
      if (error.code === 4) return { stdout: "" };
      throw error;
    },
  );
  return result.stdout.split("\n").filter(Boolean).sort();
}

describe.each(DATABASE_KINDS)("GET /api/memory-book on %s", (kind) => {
  let t: TestApp;
  let repo: MemoriesRepo;
  let dir: string;
  let owner: TestUser;
  let other: TestUser;
  const ids: Record<string, string> = {};

  const add = async (
    user: TestUser,
    memory: Omit<NewMemory, "userId" | "audioId" | "status"> & Partial<NewMemory>,
  ) => {
    const audio = await storeAudioFixture(t.database, t.storage, Buffer.from("ID3 not really"), {
      userId: user.user.id,
    });
    const row = await repo.insert({
      userId: user.user.id,
      audioId: audio.id,
      status: "saved",
      ...memory,
    });
    ids[row.title] = row.id;
    return row;
  };

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { APP_URL } });
    repo = new MemoriesRepo(t.database.db, t.database.kind);
    dir = await makeTempDir("vmj-book-");
    owner = await createUserWithSession(t);
    other = await createUserWithSession(t);
    await t.database.db
      .updateTable("users")
      .set({ display_name: "Γιαγιά Ελένη" })
      .where("id", "=", owner.user.id)
      .execute();
    // Inserted out of order: the book follows recorded dates, oldest first.
    await add(owner, {
      title: "Summer at the lake",
      recordedAt: "2021-07-14T10:00:00.000Z",
      summary: "Dear Anna, this is the summer you learned to swim.",
      transcript: "We rowed out at dawn.",
      tags: ["summer", "family"],
    });
    await add(owner, {
      title: "Γιαγιά και Бабушка",
      recordedAt: "2019-03-02T10:00:00.000Z",
      summary: "Ça été le plus beau jour.",
      transcript: "Γιαγιά sang, and Бабушка laughed. Ça été magnifique, élève, naïve, Ελλάδα.",
      tags: ["family"],
    });
    await add(owner, {
      title: "First snow",
      recordedAt: "2020-12-01T08:00:00.000Z",
      transcript: "Snow on the windows.",
      tags: ["winter"],
    });
    await add(owner, {
      title: "Grandfather's workshop",
      recordedAt: "2021-07-14T10:00:00.000Z",
      transcript: "Sawdust and radio.",
      tags: ["Family"],
    });
    await add(owner, {
      title: "Still processing",
      status: "processing",
      recordedAt: "2020-01-01T00:00:00.000Z",
    });
    await add(owner, {
      title: "Failed one",
      status: "failed",
      recordedAt: "2020-01-02T00:00:00.000Z",
    });
    await add(other, { title: "Someone else's secret", recordedAt: "2020-06-01T00:00:00.000Z" });
  });
  afterAll(async () => {
    await t.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  const book = (query = "", cookie: string | null = owner.cookie, check = false) =>
    t.app.inject({
      method: "GET",
      url: `/api/memory-book${query}`,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(check ? { [DOWNLOAD_CHECK_HEADER]: "1" } : {}),
        host: "evil.example",
      },
    });

  /** The memories' titles as they appear on the memory pages (after the contents). */
  const titlesInBody = (pages: string[], titles: string[]) => {
    const body = pages.slice(2).join("\f");
    return titles
      .map((title) => ({ title, at: body.indexOf(title) }))
      .filter((entry) => entry.at >= 0)
      .sort((a, b) => a.at - b.at)
      .map((entry) => entry.title);
  };
  const ALL = [
    "Summer at the lake",
    "Γιαγιά και Бабушка",
    "First snow",
    "Grandfather's workshop",
    "Still processing",
    "Failed one",
    "Someone else's secret",
  ];

  it("streams a PDF: cover, contents with true page numbers, saved memories oldest first", async () => {
    const res = await book();
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toMatch(
      new RegExp(
        `^attachment; filename="memory-book-${owner.user.username}-\\d{4}-\\d{2}-\\d{2}\\.pdf"$`,
      ),
    );
    expect(res.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const pages = await pdfPages(dir, res.rawPayload);
    const cover = pages[0] ?? "";
    expect(cover).toContain("Memory Book");
    expect(cover).toContain("Γιαγιά Ελένη");
    expect(cover).toContain("March 2, 2019 – July 14, 2021");
    expect(pages[1]).toContain("Contents");
    expect(titlesInBody(pages, ALL)).toEqual([
      "Γιαγιά και Бабушка",
      "First snow",
      "Summer at the lake",
      "Grandfather's workshop",
    ]);
    const text = pages.join("\n");
    for (const exact of ["Γιαγιά", "Бабушка", "Ça été", "Ελλάδα", "élève", "naïve"]) {
      expect(text).toContain(exact);
    }
    expect(text).not.toContain("Someone else");
    expect(text).not.toContain("Still processing");
    expect(text).not.toContain("Failed one");
    expect(text).toContain("Dear Anna, this is the summer you learned to swim.");
    // Each contents line's page number is the page the memory starts on.
    for (const title of [
      "Γιαγιά και Бабушка",
      "First snow",
      "Summer at the lake",
      "Grandfather's workshop",
    ]) {
      const line = pages[1]?.split("\n").find((l) => l.startsWith(title));
      const match = /(\d+)\s*$/.exec(line ?? "") ?? /(\d+)/.exec(pages[1]?.split(title)[1] ?? "");
      const pageNumber = Number(match?.[1]);
      expect(pages[pageNumber - 1], `${title} on page ${pageNumber}`).toContain(title);
    }
  });

  it("the QR codes open each memory through the book's share link on the public address, also on a private profile; revoking stops them", async () => {
    const saved = [
      "Γιαγιά και Бабушка",
      "First snow",
      "Summer at the lake",
      "Grandfather's workshop",
    ];
    const visibility = (isPublic: boolean) =>
      t.app.inject({
        method: "POST",
        url: "/api/user/visibility",
        headers: { cookie: owner.cookie },
        payload: { isPublic },
      });
    expect((await visibility(false)).statusCode).toBe(200);
    const codesOf = async () => {
      const res = await book();
      expect(res.statusCode).toBe(200);
      const pages = await pdfPages(dir, res.rawPayload);
      const links: string[] = [];
      for (let page = 3; page <= pages.length; page++)
        links.push(...(await qrLinks(dir, res.rawPayload, page)));
      return links.sort();
    };
    const linksOf = async () =>
      (
        await t.app.inject({
          method: "GET",
          url: "/api/share-links",
          headers: { cookie: owner.cookie },
        })
      ).json() as ShareLink[];

    const links = await codesOf();
    const token = new RegExp(`^${APP_URL}/s/([A-Za-z0-9_-]{43})/`).exec(links[0] ?? "")?.[1];
    expect(token).toBeDefined();
    expect(links).toEqual(saved.map((title) => `${APP_URL}/s/${token}/${ids[title]}`).sort());
    // Listed like any share link, and reused by the next book made that day.
    const listed = await linksOf();
    expect(listed.map((link) => link.label)).toEqual([memoryBookLinkLabel(new Date())]);
    expect(await codesOf()).toEqual(links);
    expect(await linksOf()).toHaveLength(1);

    // A fresh browser opens a code: it lands on the memory, which it may now read.
    const memoryId = ids["First snow"] ?? "";
    const code = `/s/${token}/${memoryId}`;
    const opened = await t.app.inject({ method: "GET", url: code });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`/memory/${memoryId}`);
    const grant = opened.cookies.find((c) => c.name === SHARE_COOKIE);
    const cookie = `${SHARE_COOKIE}=${grant?.value}`;
    const read = (as?: string) =>
      t.app.inject({
        method: "GET",
        url: `/api/memories/${memoryId}`,
        headers: as ? { cookie: as } : {},
      });
    expect((await read(cookie)).statusCode).toBe(200);
    expect((await read()).statusCode).toBe(404);
    // Only a memory id may follow the token.
    expect((await t.app.inject({ method: "GET", url: `${code}/more` })).statusCode).toBe(404);

    // Revoked: the code and the browser that opened it both meet "not found".
    const revoked = await t.app.inject({
      method: "DELETE",
      url: `/api/share-links/${listed[0]?.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(revoked.statusCode).toBe(204);
    expect((await t.app.inject({ method: "GET", url: code })).statusCode).toBe(404);
    expect((await read(cookie)).statusCode).toBe(404);
    // The next book makes a new link.
    const fresh = await codesOf();
    expect(fresh).not.toContain(links[0]);
    expect(await linksOf()).toHaveLength(1);
    expect((await visibility(true)).statusCode).toBe(200);
  });

  it("filters by recorded dates (inclusive days) and by tag (any case)", async () => {
    const ranged = await book("?from=2020-12-01&to=2021-07-14");
    expect(ranged.statusCode).toBe(200);
    const rangedPages = await pdfPages(dir, ranged.rawPayload);
    expect(titlesInBody(rangedPages, ALL)).toEqual([
      "First snow",
      "Summer at the lake",
      "Grandfather's workshop",
    ]);
    expect(rangedPages[0]).toContain("December 1, 2020 – July 14, 2021");

    const tagged = await book("?tag=family");
    const taggedPages = await pdfPages(dir, tagged.rawPayload);
    expect(titlesInBody(taggedPages, ALL)).toEqual([
      "Γιαγιά και Бабушка",
      "Summer at the lake",
      "Grandfather's workshop",
    ]);
    expect(taggedPages[0]).toContain("family");

    const both = await book("?from=2021-01-01&tag=summer");
    expect(titlesInBody(await pdfPages(dir, both.rawPayload), ALL)).toEqual(["Summer at the lake"]);

    const none = await book("?to=2000-01-01");
    expect(none.statusCode).toBe(200);
    const nonePages = await pdfPages(dir, none.rawPayload);
    expect(nonePages[1]).toContain("No saved memories match");
    expect(titlesInBody(nonePages, ALL)).toEqual([]);
  });

  it("answers 401 logged out, and another user's book holds only their own memories", async () => {
    const res = await book("", null);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: "not_logged_in", message: "Not logged in" });
    const theirs = await book("", other.cookie);
    expect(theirs.statusCode).toBe(200);
    expect(titlesInBody(await pdfPages(dir, theirs.rawPayload), ALL)).toEqual([
      "Someone else's secret",
    ]);
  });

  it.each([
    ["?from=2024-13-01", "querystring.from"],
    ["?from=2024-02-30", "querystring.from"],
    ["?to=yesterday", "querystring.to"],
    ["?from=2024-05-02&to=2024-05-01", "querystring.to"],
    ["?tag=", "querystring.tag"],
    [`?tag=${"x".repeat(51)}`, "querystring.tag"],
    ["?paper=legal", "querystring.paper"],
  ])("%s is refused with 400 naming the field", async (query, field) => {
    // A user of its own: the owner's hourly budget is spent by the tests above.
    const res = await book(query, (await createUserWithSession(t)).cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "invalid_value", field });
  });

  it("a long transcript breaks across pages inside the margins; no title starts in a page's last 15%", async () => {
    const writer = await createUserWithSession(t);
    const sentence = "The orchard was loud with bees and the ladder leaned on the old pear tree. ";
    // Lengths chosen so that without the rule several memories would start near a page's foot.
    const lengths = [3, 14, 9, 1, 17, 6, 2, 12, 20, 5, 8, 16, 4, 11, 7, 19, 10];
    for (const [i, n] of lengths.entries()) {
      await add(writer, {
        title: `Orchard${String(i).padStart(2, "0")} chapter`,
        recordedAt: new Date(Date.UTC(2022, 0, i + 1)).toISOString(),
        summary: "A short letter.",
        transcript: sentence.repeat(n),
      });
    }
    await add(writer, {
      title: "Orchard99 chapter",
      recordedAt: "2023-01-01T00:00:00.000Z",
      transcript: `Beginning ${sentence.repeat(150)} Ending`,
    });
    const res = await book("", writer.cookie);
    expect(res.statusCode).toBe(200);
    const words = await pdfWords(dir, res.rawPayload);
    const contentsEnd = 2;
    const titles = words.filter((w) => /^Orchard\d\d$/.test(w.text) && w.page > contentsEnd);
    expect(titles).toHaveLength(lengths.length + 1);
    for (const title of titles) {
      expect(title.yMin / title.pageHeight, `${title.text} on page ${title.page}`).toBeLessThan(
        0.85,
      );
    }
    const long = (text: string) => words.find((w) => w.text === text && w.page > contentsEnd);
    const start = long("Beginning");
    const end = long("Ending");
    expect(start && end && end.page - start.page).toBeGreaterThanOrEqual(2);
    // A heading is never left alone at a page's foot: its first words follow on the same page.
    for (const [i, word] of words.entries()) {
      if (word.page <= contentsEnd || !["Letter", "Transcript"].includes(word.text)) continue;
      expect(words[i + 1]?.page, `"${word.text}" on page ${word.page}`).toBe(word.page);
    }
    // Nothing but the page number sits in the bottom margin (2 cm = 56 pt).
    for (const word of words) {
      if (/^\d+$/.test(word.text)) continue;
      expect(word.yMax, `"${word.text}" on page ${word.page}`).toBeLessThanOrEqual(
        word.pageHeight - 56 + 2,
      );
    }
  });

  it("starts each story on a new page that holds its title, QR code, letter and the start of its transcript", async () => {
    const teller = await createUserWithSession(t);
    const stories = [
      {
        title: "Bread on Sundays",
        summary: "Dear Nikos, your great-grandmother baked before the church bells. ".repeat(6),
        transcript: `Flour everywhere. ${"The oven was older than the house and warmer than the sun. ".repeat(90)}`,
      },
      { title: "The blue bicycle", summary: "A short letter.", transcript: "Pedals squeaked." },
      { title: "Snow at the harbour", summary: "", transcript: "Boats under snow." },
    ];
    for (const [i, story] of stories.entries()) {
      await add(teller, { ...story, recordedAt: new Date(Date.UTC(2010, 0, i + 1)).toISOString() });
    }
    const res = await book("", teller.cookie);
    expect(res.statusCode).toBe(200);
    const pages = await pdfPages(dir, res.rawPayload);
    const startPages: number[] = [];
    for (const story of stories) {
      const page = pages.findIndex((text, index) => index > 1 && text.includes(story.title));
      startPages.push(page + 1);
      const text = (pages[page] ?? "").replace(/\s+/g, " ");
      expect(text, story.title).toContain(story.summary.trim().slice(0, 40));
      expect(text, story.title).toContain(story.transcript.slice(0, 16));
      const codes = await qrLinks(dir, res.rawPayload, page + 1);
      expect(codes, story.title).toHaveLength(1);
      expect(codes[0]).toMatch(new RegExp(`^${APP_URL}/s/[A-Za-z0-9_-]{43}/${ids[story.title]}$`));
    }
    // Cover, contents, then each story on its own page; the first one's transcript runs on.
    expect(startPages[0]).toBe(3);
    expect(startPages[1]).toBeGreaterThan(4);
    expect(startPages[2]).toBe((startPages[1] ?? 0) + 1);
    expect(pages).toHaveLength(startPages[2] ?? 0);
  });

  it("is laid out on A4 unless US Letter is asked for", async () => {
    const reader = await createUserWithSession(t);
    await add(reader, { title: "Paper test", transcript: "Some words." });
    const a4 = await book("", reader.cookie);
    expect(new Set(await pageSizes(dir, a4.rawPayload))).toEqual(new Set(["595.28 x 841.89"]));
    const letter = await book("?paper=letter", reader.cookie);
    expect(letter.statusCode).toBe(200);
    const sizes = await pageSizes(dir, letter.rawPayload);
    expect(sizes).toHaveLength(3);
    expect(new Set(sizes)).toEqual(new Set(["612 x 792"]));
    const asked = await book("?paper=a4", reader.cookie);
    expect(new Set(await pageSizes(dir, asked.rawPayload))).toEqual(new Set(["595.28 x 841.89"]));
  });

  it(`is rate limited to ${MEMORY_BOOKS_PER_HOUR} books an hour per owner`, async () => {
    const busy = await createUserWithSession(t);
    for (let i = 0; i < MEMORY_BOOKS_PER_HOUR; i++) {
      expect((await book("", busy.cookie)).statusCode).toBe(200);
    }
    const res = await book("", busy.cookie);
    expect(res.statusCode).toBe(429);
    expect((await book("", other.cookie)).statusCode).toBe(200);
  });

  it("answers the download check with 204 and no PDF, or the usual JSON error; checks count apart", async () => {
    const checker = await createUserWithSession(t);
    const check = await book("?tag=garden", checker.cookie, true);
    expect(check.statusCode).toBe(204);
    expect(check.rawPayload).toHaveLength(0);
    expect((await book("", null, true)).statusCode).toBe(401);
    const bad = await book("?from=not-a-date", checker.cookie, true);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty("message");
    // Two checks so far and no book: a book is one check and one download, so the owner still
    // gets all their books in the hour, and the checks run out with them.
    for (let i = 0; i < MEMORY_BOOKS_PER_HOUR - 2; i++) {
      expect((await book("", checker.cookie, true)).statusCode).toBe(204);
      expect((await book("", checker.cookie)).statusCode).toBe(200);
    }
    expect((await book("", checker.cookie)).statusCode).toBe(200);
    expect((await book("", checker.cookie)).statusCode).toBe(200);
    expect((await book("", checker.cookie)).statusCode).toBe(429);
    expect((await book("", checker.cookie, true)).statusCode).toBe(429);
  });
});

/** A saved memory's row as the repository reads it, for books made from a fake journal. */
function bookRow(i: number, title: string, transcript = "The bees were loud. "): MemoryRow {
  return {
    id: `m${i}`,
    seq: i,
    user_id: "u",
    journal_id: "ju",
    storyteller_id: "mu",
    title,
    audio_id: `a${i}`,
    transcript,
    summary: "A letter.",
    scores: "{}",
    duration: 1,
    recorded_at: new Date(Date.UTC(2020, 0, 10 + i)).toISOString(),
    tags: "[]",
    status: "saved",
    stage: null,
    error: null,
    created_at: "",
    updated_at: "",
    anon_owner_hash: null,
    claim_expires_at: null,
    question: null,
    language: null,
    transcript_engine: null,
    transcript_segments: null,
    transcript_edited: 0,
    proposed_transcript: null,
    proposed_segments: null,
    proposed_engine: null,
  };
}

/** `batchForBook` over rows held in order of recording (keyset paging, as the repository does). */
function pagedRepo(rows: MemoryRow[], onRead = () => {}): Pick<MemoriesRepo, "batchForBook"> {
  return {
    async batchForBook(_userId, _range, after, limit) {
      onRead();
      const start = after
        ? rows.findIndex(
            (r) =>
              r.recorded_at > after.recordedAt ||
              (r.recorded_at === after.recordedAt && r.seq > after.seq),
          )
        : 0;
      return start < 0 ? [] : rows.slice(start, start + limit);
    },
  };
}

async function bookOf(book: MemoryBook, filter: MemoryBookFilter = {}): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const of = { journalId: "ju", organizerId: "u", name: "u", language: "en" as const };
  for await (const chunk of await book.stream(of, filter, APP_URL)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("a journal that changes while its book is made", () => {
  it("keeps the contents' page numbers true when a memory arrives after the count", async () => {
    const dir = await makeTempDir("vmj-book-unit-");
    try {
      const row = (i: number, title: string) =>
        bookRow(i, title, "The bees were loud. ".repeat(40 + i * 25));
      const rows = [1, 2, 3, 4, 5, 6].map((i) => row(i, `Chapter${i}`));
      let reads = 0;
      // After the first read (the count), an older memory appears at the front.
      const repo = pagedRepo(rows, () => {
        reads += 1;
        if (reads === 2) rows.unshift(row(0, "Chapter0"));
      });
      const book = new MemoryBook(repo, { shareLinkFor: async () => `${APP_URL}/s/x` });
      const pages = await pdfPages(dir, await bookOf(book));
      const contents = pages[1] ?? "";
      // Six memories were counted: the book holds the first six of the journal as it now is.
      expect(contents).toContain("Chapter0");
      expect(contents).not.toContain("Chapter6");
      for (const title of [
        "Chapter0",
        "Chapter1",
        "Chapter2",
        "Chapter3",
        "Chapter4",
        "Chapter5",
      ]) {
        const match = new RegExp(`${title}\\s+(\\d+)`).exec(contents.replace(/\n+/g, " "));
        const pageNumber = Number(match?.[1]);
        expect(pages[pageNumber - 1], `${title} on page ${pageNumber}`).toContain(title);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("a book with several storytellers", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await makeTempDir("vmj-book-chapters-");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** The page numbers (1-based) whose text, page number aside, is exactly `words`. */
  const pagesReading = (pages: string[], words: string) =>
    pages
      .map((text, index) => ({ text: text.replace(/\s+/g, " ").trim(), page: index + 1 }))
      .filter(({ text, page }) => text === `${words} ${page}` || text === words)
      .map(({ page }) => page);

  const rows = [1, 2, 3, 4, 5].map((i) => bookRow(i, `Story${i}`));
  const told = (names: Record<string, string>) => async (batch: readonly MemoryRow[]) =>
    new Map(batch.flatMap((row) => (names[row.id] ? [[row.id, names[row.id] as string]] : [])));

  it("groups the stories into a chapter per storyteller, in order of their first story, each story keeping its QR code", async () => {
    const book = new MemoryBook(pagedRepo(rows), {
      shareLinkFor: async () => `${APP_URL}/s/tok`,
      // Ben told the oldest story, so his chapter comes first; one story's teller is unknown.
      storytellers: told({ m1: "Ben", m2: "Anna", m3: "Ben", m4: " Anna " }),
    });
    const pdf = await bookOf(book);
    const pages = await pdfPages(dir, pdf);
    const contents = (pages[1] ?? "").replace(/\s+/g, " ");
    const order = ["Ben", "Story1", "Story3", "Anna", "Story2", "Story4", "More stories", "Story5"];
    const at = order.map((words) => contents.indexOf(`${words} `));
    expect(at.every((position) => position >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // Each chapter opens on a page of its own, named in the contents with that page.
    const pageOf = (words: string) =>
      Number(new RegExp(`${words} (\\d+)`).exec(contents)?.[1] ?? Number.NaN);
    for (const name of ["Ben", "Anna", "More stories"]) {
      expect(pagesReading(pages, name)).toEqual([pageOf(name)]);
    }
    expect(pageOf("Ben")).toBe(3);
    // Then its stories, each from a new page, with its code.
    for (const [index, title] of order.entries()) {
      if (!title.startsWith("Story")) continue;
      const page = pageOf(title);
      expect(page, title).toBe(pageOf(order[index - 1] ?? "") + 1);
      expect(pages[page - 1], title).toContain(title);
      expect(await qrLinks(dir, pdf, page)).toEqual([`${APP_URL}/s/tok/m${title.slice(5)}`]);
    }
    expect(pages).toHaveLength(pageOf("Story5"));
  });

  it("never leaves a chapter's line last on a contents page, and its page numbers stay true", async () => {
    // 33 lines fit the first contents page on A4: Ben's heading and 31 stories leave Anna's
    // heading the last line, so it moves to the next page with her first story.
    const many = Array.from({ length: 34 }, (_, i) => bookRow(i + 1, `Tale${i + 1}`));
    const book = new MemoryBook(pagedRepo(many), {
      shareLinkFor: async () => `${APP_URL}/s/tok`,
      storytellers: async (batch) =>
        new Map(batch.map((row) => [row.id, row.seq <= 31 ? "Ben" : "Anna"])),
    });
    const pages = await pdfPages(dir, await bookOf(book));
    const [first, second] = [pages[1] ?? "", pages[2] ?? ""];
    expect(first).toContain("Tale31");
    expect(first).not.toContain("Anna");
    expect(second.trim().startsWith("Anna")).toBe(true);
    const contents = `${first} ${second}`.replace(/\s+/g, " ");
    for (const words of ["Ben", "Tale1", "Tale31", "Anna", "Tale32", "Tale34"]) {
      const page = Number(new RegExp(`${words} (\\d+)`).exec(contents)?.[1]);
      expect(pages[page - 1]?.replace(/\s+/g, " "), `${words} on page ${page}`).toContain(
        `${words} `,
      );
    }
  });

  it.each([
    ["one storyteller", told({ m1: "Anna", m2: "Anna", m3: "Anna", m4: "Anna", m5: "Anna" })],
    ["one storyteller and some unknown", told({ m2: "Anna", m4: "Anna" })],
    ["no storyteller known", undefined],
  ])(
    "has no chapters with %s: the stories in the order they were recorded",
    async (_, storytellers) => {
      const book = new MemoryBook(pagedRepo(rows), {
        shareLinkFor: async () => `${APP_URL}/s/tok`,
        ...(storytellers ? { storytellers } : {}),
      });
      const pages = await pdfPages(dir, await bookOf(book));
      expect(pages).toHaveLength(2 + rows.length);
      for (const [index, row] of rows.entries()) expect(pages[2 + index]).toContain(row.title);
      expect(pagesReading(pages, "Anna")).toEqual([]);
      expect(pages.join("\n")).not.toContain("More stories");
    },
  );
});
