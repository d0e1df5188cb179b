import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { formatDate } from "../../shared/dates";
import { QUESTIONS } from "../../shared/questions";
import type { Memory, Photo, RestoreResult } from "../../shared/schemas";
import { escapeHtml } from "../http/html";
import { wordsIn } from "../i18n/words";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { downloadBackup, restoreBackup } from "../test/backup-helpers";
import { createTestApp, type TestApp } from "../test/harness";
import { testJpeg } from "../test/image-fixtures";
import { fixture, multipart, upload } from "../test/upload-helpers";
import { BackupFileNames, safeFileText, TITLE_MAX_BYTES } from "./backup-file-names";
import { indexMemory } from "./backup-index";
import type { BackupMemory } from "./memories-backup";

type Manifest = { version: number; memories: BackupMemory[] };

const HOSTILE = `</script><img src=x onerror=alert(1)> a/b\\c:d*e?f"g|h\u0007 end. .`;
const LONG_GREEK = "Γιαγιά μου στο χωριό ".repeat(8).trim();

async function makeZip(files: Map<string, Buffer>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, data] of files) zip.addBuffer(data, name, { compress: false });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const manifestOf = (files: Map<string, Buffer>) =>
  JSON.parse(files.get("memories.json")?.toString() ?? "") as Manifest;

async function ownMemories(t: TestApp, cookie: string): Promise<Memory[]> {
  const res = await t.app.inject({ method: "GET", url: "/api/memories", headers: { cookie } });
  return res.json<{ items: Memory[] }>().items;
}

/** A memory made through the API from a real recording; its id. */
async function addMemory(
  t: TestApp,
  owner: TestUser,
  audio: Buffer,
  title: string,
  recordedAt: string,
): Promise<string> {
  const uploaded = await upload(t, audio, { cookie: owner.cookie });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const created = await t.app.inject({
    method: "POST",
    url: "/api/memories",
    headers: { cookie: owner.cookie },
    payload: {
      title,
      transcript: `What I remember of ${title}.`,
      summary: `My dear, this is ${title}.`,
      recordedAt,
      audioUrl: uploaded.json().url,
      tags: [],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id;
}

async function addPhoto(t: TestApp, owner: TestUser, memoryId: string, image: Buffer) {
  const body = multipart(image, { field: "photo", filename: "p.jpg", type: "image/jpeg" });
  const res = await t.app.inject({
    method: "POST",
    url: `/api/memories/${memoryId}/photos`,
    payload: body.payload,
    headers: { ...body.headers, cookie: owner.cookie },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Photo>();
}

describe("file names from a memory's date and title", () => {
  it("makes any title safe on Windows, macOS and Linux", () => {
    expect(safeFileText(HOSTILE, TITLE_MAX_BYTES)).toBe(
      "script img src=x onerror=alert(1) a b c d e f g h end",
    );
    expect(safeFileText("  Trip to the lake...  ", 80)).toBe("Trip to the lake");
    expect(safeFileText("photo\u202egpj.exe", 80)).toBe("photo gpj.exe");
    // Composed, so the same name on every system.
    expect(safeFileText("Cafe\u0301", 80)).toBe("Café");
    expect(safeFileText(" /:*? ", 80)).toBe("");
    const long = safeFileText(LONG_GREEK, TITLE_MAX_BYTES);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(TITLE_MAX_BYTES);
    expect(LONG_GREEK.startsWith(long)).toBe(true);
    // An accent is never cut from its letter.
    expect(safeFileText("e\u0301".repeat(10), 7)).toBe("é".repeat(3));
  });

  it("numbers a second memory of the same day and title, whatever its case, and names an untitled one", () => {
    const names = new BackupFileNames();
    const day = "1962-06-01T15:00:00.000Z";
    const first = names.memoryStem(day, "Sand castles");
    const second = names.memoryStem(day, "SAND CASTLES");
    expect([first, second]).toEqual(["1962-06-01 Sand castles", "1962-06-01 SAND CASTLES (2)"]);
    expect(names.memoryStem(day, "   ")).toBe("1962-06-01 Untitled memory");
    expect(names.recording(first, "mp3")).toBe("audio/1962-06-01 Sand castles.mp3");
    expect(names.commentRecording(first, "Opa: the <best>", "webm")).toBe(
      "audio/1962-06-01 Sand castles - Comment by Opa the best.webm",
    );
    expect(names.photo(second, 1)).toBe("photos/1962-06-01 SAND CASTLES (2) 1.jpg");
    // A memory titled like another's comment still gets a file of its own.
    const clash = names.memoryStem(day, "Sand castles - Comment by Opa the best");
    expect(names.recording(clash, "webm")).toBe(
      "audio/1962-06-01 Sand castles - Comment by Opa the best (2).webm",
    );
  });

  it("writes a storyteller's name in the page as text", () => {
    const html = indexMemory(
      {
        title: "Opa's boat",
        recordedAt: "1970-07-01T00:00:00.000Z",
        storyteller: { name: "<b onmouseover=x>Opa</b>" },
        question: null,
        summary: "",
        transcript: "",
        recording: null,
        recordingMissing: false,
        photos: [],
        comments: [],
      },
      "en",
    );
    expect(html).toContain("Told by &lt;b onmouseover=x&gt;Opa&lt;/b&gt;");
    expect(html).toContain("Opa&#39;s boat");
    expect(html).not.toContain("<b ");
  });

  it("asks a library question in the page's language, and lets the family's words keep their direction", () => {
    const html = indexMemory(
      {
        title: "La playa",
        recordedAt: "1970-07-01T00:00:00.000Z",
        storyteller: null,
        question: QUESTIONS[7] as string,
        summary: "Un día en la playa.",
        transcript: "Fuimos a la playa.",
        recording: null,
        recordingMissing: false,
        photos: [],
        comments: [],
      },
      "ar",
    );
    const arabic = wordsIn("ar");
    expect(html).toContain(escapeHtml(`${arabic.MESSAGES.answering} ${arabic.QUESTIONS[7]}`));
    expect(html).not.toContain(escapeHtml(QUESTIONS[7] as string));
    expect(html).toContain('<h2 dir="auto">La playa</h2>');
    expect(html).toContain('<p class="text" dir="auto">Fuimos a la playa.</p>');
  });
});

describe.each([
  ["sqlite", "postgres"],
  ["postgres", "sqlite"],
] as const)("a backup a family can read, from %s, restored into %s", (from, to) => {
  let source: TestApp;
  let target: TestApp;
  let owner: TestUser;
  let mp3: Buffer;
  let ogg: Buffer;
  let wav: Buffer;
  let photos: Buffer[];
  let zip: Buffer;
  let files: Map<string, Buffer>;
  let manifest: Manifest;

  beforeAll(async () => {
    [source, target] = await Promise.all([
      createTestApp({ kind: from }),
      createTestApp({ kind: to }),
    ]);
    [mp3, ogg, wav] = await Promise.all([
      fixture("tone.mp3"),
      fixture("tone.ogg"),
      fixture("tone.wav"),
    ]);
    photos = [await testJpeg(900, 600), await testJpeg(500, 700)];
    owner = await createUserWithSession(source);
    const sand = await addMemory(
      source,
      owner,
      mp3,
      "Sand castles with grandfather",
      "1962-06-01T15:00:00.000Z",
    );
    for (const image of photos) await addPhoto(source, owner, sand, image);
    const voice = await upload(source, wav, { cookie: owner.cookie });
    const comment = await source.app.inject({
      method: "POST",
      url: `/api/memories/${sand}/comments`,
      headers: { cookie: owner.cookie },
      payload: { commenterName: "Grandma", audioUrl: voice.json().url },
    });
    expect(comment.statusCode, comment.body).toBe(201);
    await addMemory(source, owner, ogg, "Sand castles with grandfather", "1962-06-01T18:00:00Z");
    await addMemory(source, owner, mp3, "SAND CASTLES with grandfather", "1962-06-01T19:00:00Z");
    await addMemory(source, owner, mp3, HOSTILE, "1975-12-24T20:00:00.000Z");
    await addMemory(source, owner, mp3, "", "1980-01-02T10:00:00.000Z");
    await addMemory(source, owner, ogg, LONG_GREEK, "1990-03-04T10:00:00.000Z");
    await source.app.worker.drain();
    ({ zip, files } = await downloadBackup(source, owner.cookie));
    manifest = manifestOf(files);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([source?.cleanup(), target?.cleanup()]);
  });

  it("names each recording and photo by the memory's recorded day and title", () => {
    expect(manifest.version).toBe(2);
    const byTitle = (title: string) => manifest.memories.filter((m) => m.title === title);
    const [first, second] = byTitle("Sand castles with grandfather").sort((a, b) =>
      a.recordedAt.localeCompare(b.recordedAt),
    );
    expect(first?.audioFile).toBe("audio/1962-06-01 Sand castles with grandfather.mp3");
    expect(first?.photos.map((p) => p.file)).toEqual([
      "photos/1962-06-01 Sand castles with grandfather 1.jpg",
      "photos/1962-06-01 Sand castles with grandfather 2.jpg",
    ]);
    expect(first?.comments[0]?.audioFile).toBe(
      "audio/1962-06-01 Sand castles with grandfather - Comment by Grandma.wav",
    );
    // The same day and title again, and once more in other letters' case (one file on Windows).
    expect(second?.audioFile).toBe("audio/1962-06-01 Sand castles with grandfather (2).ogg");
    expect(byTitle("SAND CASTLES with grandfather")[0]?.audioFile).toBe(
      "audio/1962-06-01 SAND CASTLES with grandfather (3).mp3",
    );
    expect(byTitle(HOSTILE)[0]?.audioFile).toBe(
      "audio/1975-12-24 script img src=x onerror=alert(1) a b c d e f g h end.mp3",
    );
    expect(byTitle("")[0]?.audioFile).toBe("audio/1980-01-02 Untitled memory.mp3");
    const greek = byTitle(LONG_GREEK)[0]?.audioFile as string;
    const greekTitle = greek.slice("audio/1990-03-04 ".length, -".ogg".length);
    expect(LONG_GREEK.startsWith(greekTitle)).toBe(true);
    expect(Buffer.byteLength(greekTitle)).toBeLessThanOrEqual(TITLE_MAX_BYTES);

    // Every listed file is in the zip with the bytes recorded, and the zip holds nothing else.
    const listed = manifest.memories.flatMap((m) => [
      m.audioFile,
      ...m.comments.map((c) => c.audioFile),
      ...m.photos.map((p) => p.file),
    ]);
    expect([...files.keys()].sort()).toEqual(
      ["memories.json", "index.html", ...(listed as string[])].sort(),
    );
    expect(files.get(first?.audioFile ?? "")?.equals(mp3)).toBe(true);
    expect(files.get(second?.audioFile ?? "")?.equals(ogg)).toBe(true);
    expect(files.get(first?.comments[0]?.audioFile ?? "")?.equals(wav)).toBe(true);
    for (const name of files.keys()) {
      expect(name).not.toMatch(/[\\:*?"<>|]|[. ]$|[. ]\.[a-z0-9]+$/);
      expect([...name].some((c) => (c.codePointAt(0) ?? 0) < 0x20)).toBe(false);
      expect(Buffer.byteLength(name.split("/").pop() as string)).toBeLessThan(200);
    }
  });

  it("holds an index.html that plays every recording and shows every photo offline, newest first", () => {
    const html = files.get("index.html")?.toString("utf8") ?? "";
    expect(html).toMatch(/^<!doctype html>\n<html lang="en" dir="ltr">/);
    // Nothing from elsewhere: no address, no script, no style sheet or font to fetch.
    expect(html).not.toMatch(/https?:|\/\/[a-z]/i);
    expect(html).not.toMatch(/<script|<link|<iframe|<object|<embed|@import|url\(/i);
    expect(html).toContain("Content-Security-Policy");

    // The hostile title is text, in its heading and in its player's name.
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;");

    // Every file it points at is in the zip, and every recording and photo is pointed at.
    const refs = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) =>
      decodeURIComponent((m[1] as string).replaceAll("&amp;", "&").replaceAll("&#39;", "'")),
    );
    for (const ref of refs) expect(files.has(ref), ref).toBe(true);
    const media = [...files.keys()].filter((name) => /^(audio|photos)\//.test(name));
    expect(new Set(refs)).toEqual(new Set(media));
    expect(html.match(/<audio controls/g)).toHaveLength(7);
    expect(html).toContain(`src="audio/1962-06-01%20Sand%20castles%20with%20grandfather.mp3"`);

    // Headings, dates in words, photos described.
    expect(html.match(/<h1>/g)).toHaveLength(1);
    const titles = [...html.matchAll(/<h2 dir="auto">([^<]*)<\/h2>/g)].map((m) => m[1]);
    expect(titles).toHaveLength(6);
    expect(titles[0]).toBe(LONG_GREEK);
    expect(titles[1]).toBe("Untitled memory");
    expect(titles.slice(-3)).toEqual([
      "SAND CASTLES with grandfather",
      "Sand castles with grandfather",
      "Sand castles with grandfather",
    ]);
    expect(html).toContain(formatDate("1962-06-01T15:00:00.000Z", "date", { timeZone: "UTC" }));
    expect(html).toContain("June 1, 1962");
    const images = [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
    expect(images).toHaveLength(2);
    for (const image of images) expect(image).toMatch(/ alt="Photo \d of 2: Sand castles/);
    expect(html).toContain("Comment by Grandma");
    expect(html).toContain("My dear, this is Sand castles with grandfather.");
  });

  it("restores from the new layout: every memory, recording and photo, once", async () => {
    const heir = await createUserWithSession(target);
    const restored = await restoreBackup(target, heir.cookie, zip);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<RestoreResult>()).toEqual({ imported: 6, skipped: 0, failed: [] });
    const again = await restoreBackup(target, heir.cookie, zip);
    expect(again.json<RestoreResult>()).toEqual({ imported: 0, skipped: 6, failed: [] });

    // Backed up again, the same names and the same bytes.
    const second = (await downloadBackup(target, heir.cookie)).files;
    const fileNames = (m: Manifest) =>
      m.memories
        .flatMap((memory) => [
          memory.audioFile,
          ...memory.comments.map((c) => c.audioFile),
          ...memory.photos.map((p) => p.file),
        ])
        .sort();
    expect(fileNames(manifestOf(second))).toEqual(fileNames(manifest));
    for (const name of fileNames(manifest)) {
      expect(second.get(name ?? "")?.equals(files.get(name ?? "") as Buffer), name ?? "").toBe(
        true,
      );
    }
  });

  it("restores a backup in the previous layout (version 1: files named by id, no index.html)", async () => {
    // As the previous release wrote it: audio/<audio id>.<ext>, photos/<photo id>.jpg.
    const old = structuredClone(manifest);
    old.version = 1;
    const oldFiles = new Map<string, Buffer>();
    const byId = (item: { audioUrl: string; audioFile: string | null }) => {
      if (!item.audioFile) return;
      const name = `audio/${item.audioUrl.split("/").pop()}.${item.audioFile.split(".").pop()}`;
      oldFiles.set(name, files.get(item.audioFile) as Buffer);
      item.audioFile = name;
    };
    for (const memory of old.memories) {
      byId(memory);
      for (const comment of memory.comments) byId(comment);
      for (const photo of memory.photos) {
        const name = `photos/${photo.id}.jpg`;
        oldFiles.set(name, files.get(photo.file as string) as Buffer);
        photo.file = name;
      }
    }
    oldFiles.set("memories.json", Buffer.from(JSON.stringify(old)));
    const oldZip = await makeZip(oldFiles);

    const heir = await createUserWithSession(target);
    const restored = await restoreBackup(target, heir.cookie, oldZip);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<RestoreResult>()).toEqual({ imported: 6, skipped: 0, failed: [] });
    const memories = await ownMemories(target, heir.cookie);
    expect(memories.map((m) => m.title).sort()).toEqual(
      manifest.memories.map((m) => m.title).sort(),
    );
    const sand = memories.find((m) => m.photos.length > 0) as Memory;
    expect(sand.photos).toHaveLength(2);
    const played = await target.app.inject({
      method: "GET",
      url: sand.audioUrl,
      headers: { cookie: heir.cookie },
    });
    expect(played.rawPayload.equals(mp3)).toBe(true);

    // An old backup holds no index.html: one put beside its files is refused as unlisted.
    oldFiles.set("index.html", Buffer.from("<p>hi</p>"));
    const stranger = await createUserWithSession(target);
    const refused = await restoreBackup(target, stranger.cookie, await makeZip(oldFiles));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: "backup.bad_file" });
  });
});
