import { mkdir, readdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { ERROR_MESSAGES, type ErrorCode } from "../../shared/messages";
import { QUESTIONS } from "../../shared/questions";
import type { Memory } from "../../shared/schemas";
import { wordsIn } from "../i18n/words";
import { ownJournalId, ownMemberId } from "../journals/journals.repo";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { downloadBackup, restoreBackup } from "../test/backup-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { fixture, multipart, postOverSocket, upload } from "../test/upload-helpers";
import { RESTORES_AT_ONCE } from "./memories-restore";

/** A zip built entry by entry (yazl, as the backup is); `mode` sets Unix file attributes. */
async function makeZip(
  entries: { name: string; data: Buffer; compress?: boolean; mode?: number }[],
): Promise<Buffer> {
  const zip = new ZipFile();
  for (const entry of entries) {
    zip.addBuffer(entry.data, entry.name, {
      compress: entry.compress ?? false,
      ...(entry.mode ? { mode: entry.mode } : {}),
    });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Replaces every occurrence of a same-length byte string (entry names in headers). */
function patch(buffer: Buffer, from: string, to: string): Buffer {
  expect(from.length).toBe(to.length);
  const out = Buffer.from(buffer);
  let at = out.indexOf(from);
  expect(at).toBeGreaterThanOrEqual(0);
  while (at >= 0) {
    out.write(to, at);
    at = out.indexOf(from, at + 1);
  }
  return out;
}

type BackupJson = {
  version: number;
  memories: (Memory & {
    audioFile: string | null;
    audioBytes: number | null;
    comments: { commenterName: string; transcript: string; audioFile: string | null }[];
  })[];
};

/** A journal of three memories (one with two spoken comments), made through the API. */
async function seedJournal(t: TestApp, owner: TestUser, audio: Buffer[]): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const uploaded = await upload(t, audio[i % audio.length] as Buffer, { cookie: owner.cookie });
    const created = await t.app.inject({
      method: "POST",
      url: "/api/memories",
      headers: { cookie: owner.cookie },
      payload: {
        title: `Memory ${i}: Γιαγιά и бабушка`,
        transcript: `We went to the beach, day ${i}.`,
        summary: `My dear, on day ${i} we built sandcastles.`,
        recordedAt: `2025-0${i + 1}-1${i}T10:00:00.000Z`,
        audioUrl: uploaded.json().url,
        tags: ["beach", `day ${i}`],
        scores: { overall: 7 + i },
      },
    });
    expect(created.statusCode).toBe(201);
    if (i !== 1) continue;
    for (const name of ["Grandma", "Uncle Joe"]) {
      const voice = await upload(t, audio[0] as Buffer, { cookie: owner.cookie });
      const comment = await t.app.inject({
        method: "POST",
        url: `/api/memories/${created.json().id}/comments`,
        headers: { cookie: owner.cookie },
        payload: { commenterName: name, audioUrl: voice.json().url },
      });
      expect(comment.statusCode).toBe(201);
    }
  }
}

/** memories.json without what differs between two accounts and servers. */
/** Restoring into an account's own journal, as its organizer. */
const intoOwn = (userId: string) => ({
  userId,
  journalId: ownJournalId(userId),
  memberId: ownMemberId(userId),
});

function comparable(json: BackupJson) {
  return json.memories
    .map(({ id, user_id, journalId, storyteller, audioUrl, audioFile, comments, ...memory }) => ({
      ...memory,
      // Restored into another journal, each memory keeps its storyteller's name.
      storyteller: storyteller?.name,
      comments: comments.map(
        ({
          id: _id,
          memoryId: _m,
          audioUrl: _u,
          audioFile: _f,
          ...comment
        }: Record<string, unknown>) => comment,
      ),
    }))
    .sort((a, b) => a.recordedAt.localeCompare(b.recordedAt));
}

/** Audio bytes in manifest order (memory, then its comments), by recorded date. */
function audioInOrder(files: Map<string, Buffer>, json: BackupJson): Buffer[] {
  return [...json.memories]
    .sort((a, b) => a.recordedAt.localeCompare(b.recordedAt))
    .flatMap((memory) => [memory.audioFile, ...memory.comments.map((c) => c.audioFile)])
    .map((name) => files.get(name ?? "") ?? Buffer.alloc(0));
}

let audio: Buffer[];
beforeAll(async () => {
  audio = await Promise.all([fixture("tone.mp3"), fixture("tone.wav"), fixture("tone.ogg")]);
});

describe.each([
  ["sqlite", "postgres"],
  ["postgres", "sqlite"],
] as const)("restore a backup from %s into %s", (from, to) => {
  let source: TestApp;
  let target: TestApp;
  beforeAll(async () => {
    [source, target] = await Promise.all([
      createTestApp({ kind: from }),
      createTestApp({ kind: to }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([source.cleanup(), target.cleanup()]);
  });

  it("round-trips every memory, comment and audio file, once", async () => {
    const owner = await createUserWithSession(source);
    await seedJournal(source, owner, audio);
    await source.app.worker.drain();
    const first = (await downloadBackup(source, owner.cookie)).files;
    const zip = await makeZip([...first].map(([name, data]) => ({ name, data })));

    const newcomer = await createUserWithSession(target);
    const restored = await restoreBackup(target, newcomer.cookie, zip);
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toEqual({ imported: 3, skipped: 0, failed: [] });
    const again = await restoreBackup(target, newcomer.cookie, zip);
    expect(again.json()).toEqual({ imported: 0, skipped: 3, failed: [] });

    const second = (await downloadBackup(target, newcomer.cookie)).files;
    const before = JSON.parse(first.get("memories.json")?.toString() ?? "") as BackupJson;
    const after = JSON.parse(second.get("memories.json")?.toString() ?? "") as BackupJson;
    expect(after.memories).toHaveLength(3);
    expect(comparable(after)).toEqual(comparable(before));
    const bytesBefore = audioInOrder(first, before);
    const bytesAfter = audioInOrder(second, after);
    expect(bytesAfter).toHaveLength(5);
    for (const [i, bytes] of bytesAfter.entries()) {
      expect(bytes.equals(bytesBefore[i] as Buffer)).toBe(true);
    }

    // The restored audio plays for its owner, and restoring into the original account skips all.
    const memory = after.memories[0] as BackupJson["memories"][number];
    const played = await target.app.inject({
      method: "GET",
      url: memory.audioUrl,
      headers: { cookie: newcomer.cookie },
    });
    expect(played.statusCode).toBe(200);
    const home = await restoreBackup(source, owner.cookie, zip);
    expect(home.json()).toEqual({ imported: 0, skipped: 3, failed: [] });
  });
  it("two restores of one backup at once into one account: each memory imported once, the rest skipped, none failed", async () => {
    const owner = await createUserWithSession(source);
    await seedJournal(source, owner, audio);
    const { zip } = await downloadBackup(source, owner.cookie);
    const heir = await createUserWithSession(target);
    const results = await Promise.all([
      restoreBackup(target, heir.cookie, zip),
      restoreBackup(target, heir.cookie, zip),
    ]);
    const answers = results.map((r) => r.json<{ imported: number; skipped: number; failed: [] }>());
    expect(answers.map((a) => a.failed)).toEqual([[], []]);
    expect(answers.reduce((sum, a) => sum + a.imported, 0)).toBe(3);
    expect(answers.reduce((sum, a) => sum + a.skipped, 0)).toBe(3);
  });
});

describe("hostile or damaged backups are refused and change nothing", () => {
  let t: TestApp;
  let owner: TestUser;
  let good: Map<string, Buffer>;
  let manifest: BackupJson;

  beforeAll(async () => {
    t = await createTestApp({ env: { RESTORE_MAX_BYTES: String(2 * 1024 * 1024) } });
    owner = await createUserWithSession(t);
    await seedJournal(t, owner, audio);
    good = (await downloadBackup(t, owner.cookie)).files;
    manifest = JSON.parse(good.get("memories.json")?.toString() ?? "");
    // Restores go into a second account, which must stay empty.
  });
  afterAll(async () => t.cleanup());

  async function expectRefused(zip: Buffer, code: ErrorCode, status = 400) {
    const victim = await createUserWithSession(t);
    const filesBefore = (await readdir(t.config.audioDir)).sort();
    const response = await restoreBackup(t, victim.cookie, zip);
    expect(response.statusCode, response.body).toBe(status);
    // The family reads the catalogue's words, never the zip or JSON library's.
    expect(response.json()).toEqual({ code, message: ERROR_MESSAGES[code] });
    const list = await t.app.inject({
      method: "GET",
      url: "/api/memories",
      headers: { cookie: victim.cookie },
    });
    expect(list.json().total).toBe(0);
    expect((await readdir(t.config.audioDir)).sort()).toEqual(filesBefore);
  }

  const entries = (changes: Record<string, Buffer | null> = {}) =>
    [...good, ...Object.entries(changes)]
      .filter(([name]) => !(name in changes) || changes[name] !== null)
      .reduce((map, [name, data]) => map.set(name, data as Buffer), new Map<string, Buffer>());
  const zipOf = (map: Map<string, Buffer>) =>
    makeZip([...map].map(([name, data]) => ({ name, data })));
  const withManifest = (json: unknown) =>
    zipOf(entries({ "memories.json": Buffer.from(JSON.stringify(json)) }));
  const firstAudio = () => manifest.memories.find((m) => m.audioFile)?.audioFile as string;

  it("refuses an entry that climbs out with ..", async () => {
    const zip = await zipOf(entries({ "zz/evil.txt": Buffer.from("x") }));
    await expectRefused(patch(zip, "zz/evil", "../evil"), "backup.damaged");
  });

  it("refuses an absolute path", async () => {
    const zip = await zipOf(entries({ "xetc/passwd": Buffer.from("x") }));
    await expectRefused(patch(zip, "xetc/passwd", "/etc/passwd"), "backup.damaged");
  });

  it("refuses a symbolic link", async () => {
    const map = entries();
    const zip = await makeZip([
      ...[...map].map(([name, data]) => ({ name, data })),
      { name: "audio/link.mp3", data: Buffer.from("/etc/passwd"), mode: 0o120777 },
    ]);
    await expectRefused(zip, "backup.damaged");
  });

  it("refuses an entry that inflates far beyond its size (a zip bomb)", async () => {
    const map = entries();
    const zip = await makeZip([
      ...[...map].map(([name, data]) => ({ name, data })),
      { name: "audio/bomb.mp3", data: Buffer.alloc(1_500_000), compress: true },
    ]);
    await expectRefused(zip, "backup.damaged");
  });

  it("refuses contents larger than RESTORE_MAX_BYTES, and an upload larger than it (413)", async () => {
    const big = await makeZip([
      ...[...entries()].map(([name, data]) => ({ name, data })),
      { name: "audio/huge.bin", data: Buffer.alloc(3 * 1024 * 1024, 7) },
    ]);
    await expectRefused(big, "too_large", 413);
  });

  it("refuses a zip without memories.json, with invalid JSON, a wrong shape or an unknown version", async () => {
    await expectRefused(await zipOf(entries({ "memories.json": null })), "backup.not_a_backup");
    await expectRefused(
      await zipOf(entries({ "memories.json": Buffer.from("{ not json") })),
      "backup.invalid",
    );
    await expectRefused(
      await withManifest({ ...manifest, memories: "all of them" }),
      "backup.invalid",
    );
    await expectRefused(await withManifest({ ...manifest, version: 99 }), "backup.unknown_version");
    await expectRefused(
      await makeZip([{ name: "readme.txt", data: Buffer.from("hi") }]),
      "backup.not_a_backup",
    );
    await expectRefused(Buffer.from("PK\u0003\u0004 definitely not a zip"), "backup.not_a_zip");
  });

  it("refuses audio that is not audio, or whose size differs from the manifest", async () => {
    const name = firstAudio();
    const size = good.get(name)?.length ?? 0;
    await expectRefused(
      await zipOf(entries({ [name]: Buffer.alloc(size, 0x41) })),
      "backup.bad_file",
    );
    await expectRefused(
      await zipOf(entries({ [name]: Buffer.concat([good.get(name) as Buffer, Buffer.alloc(10)]) })),
      "backup.bad_file",
    );
  });

  it("refuses files the manifest does not list, and listed files that are missing", async () => {
    await expectRefused(
      await zipOf(entries({ "audio/extra.mp3": audio[0] as Buffer })),
      "backup.bad_file",
    );
    await expectRefused(await zipOf(entries({ [firstAudio()]: null })), "backup.bad_file");
  });

  it("needs a logged-in user and the field 'backup'", async () => {
    const zip = await zipOf(entries());
    const body = multipart(zip, { field: "backup", filename: "b.zip", type: "application/zip" });
    const anonymous = await t.app.inject({
      method: "POST",
      url: "/api/restore",
      payload: body.payload,
      headers: body.headers,
    });
    expect(anonymous.statusCode).toBe(401);
    const wrong = multipart(zip, { field: "file" });
    const response = await t.app.inject({
      method: "POST",
      url: "/api/restore",
      payload: wrong.payload,
      headers: { ...wrong.headers, cookie: owner.cookie },
    });
    expect(response.statusCode).toBe(400);
  });

  it.each([
    ["no boundary", "multipart/form-data", async () => Buffer.from("whatever")],
    [
      "a part cut off before its headers end",
      "multipart/form-data; boundary=xyz",
      async () =>
        Buffer.from('--xyz\r\nContent-Disposition: form-data; name="backup"; filename="b.zip"'),
    ],
    [
      "a zip cut off (no closing boundary)",
      "multipart/form-data; boundary=xyz",
      async () =>
        Buffer.concat([
          Buffer.from(
            '--xyz\r\nContent-Disposition: form-data; name="backup"; filename="b.zip"\r\nContent-Type: application/zip\r\n\r\n',
          ),
          (await zipOf(entries())).subarray(0, 2000),
        ]),
    ],
  ])(
    "refuses a malformed multipart body (%s) with 400 and changes nothing",
    async (_name, type, body) => {
      const victim = await createUserWithSession(t);
      const response = await t.app.inject({
        method: "POST",
        url: "/api/restore",
        payload: await body(),
        headers: { "content-type": type, cookie: victim.cookie },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: "upload_incomplete", field: "backup" });
      const list = await t.app.inject({
        method: "GET",
        url: "/api/memories",
        headers: { cookie: victim.cookie },
      });
      expect(list.json().total).toBe(0);
      const spooled = await readdir(path.join(t.config.dataDir, "tmp")).catch(() => []);
      expect(spooled.filter((name) => name.startsWith(".restore-"))).toEqual([]);
    },
  );

  it("imports what is sound and lists a memory that cannot be imported with its reason", async () => {
    const broken = structuredClone(manifest);
    const bad = broken.memories[0] as BackupJson["memories"][number];
    bad.tags = ["a", "b", "c", "d", "e", "f"];
    const victim = await createUserWithSession(t);
    const response = await restoreBackup(t, victim.cookie, await withManifest(broken));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ imported: 2, skipped: 0 });
    expect(response.json().failed).toEqual([
      { id: bad.id, title: bad.title, reason: expect.stringMatching(/tags/) },
    ]);
  });

  it("holds restored comments to the rules: a name over 60 characters fails its memory, a failed comment keeps only its error code", async () => {
    const edited = structuredClone(manifest);
    const withComments = edited.memories.find((m) => m.comments.length === 2);
    if (!withComments) throw new Error("The seeded journal has no memory with two comments");
    const [first, second] =
      withComments.comments as (BackupJson["memories"][number]["comments"][number] & {
        status: string;
        error: string | null;
      })[];
    if (!first || !second) throw new Error("missing comments");
    const heir = await createUserWithSession(t);

    first.commenterName = "N".repeat(61);
    const tooLong = await restoreBackup(t, heir.cookie, await withManifest(edited));
    expect(tooLong.json()).toMatchObject({ imported: 2, skipped: 0 });
    expect(tooLong.json().failed).toEqual([
      expect.objectContaining({
        id: withComments.id,
        reason: expect.stringMatching(/^commenterName: .*60/),
      }),
    ]);

    first.commenterName = "Grandma";
    second.status = "failed";
    second.error = "Transcription failed: ENOENT /srv/vmj/secret/path.wav (api key sk-live-123)";
    const restored = await restoreBackup(t, heir.cookie, await withManifest(edited));
    expect(restored.json()).toMatchObject({ imported: 1, skipped: 2, failed: [] });
    const list = await t.app.inject({
      method: "GET",
      url: "/api/memories",
      headers: { cookie: heir.cookie },
    });
    const memory = list
      .json<{ items: Memory[] }>()
      .items.find((m) => m.title === withComments.title);
    const comments = await t.app.inject({
      method: "GET",
      url: `/api/memories/${memory?.id}/comments`,
    });
    const byName = comments.json<{ commenterName: string; error: string | null }[]>();
    expect(byName.find((c) => c.commenterName === second.commenterName)?.error).toBe(
      "transcribe.failed",
    );
  });

  it("restores an older backup's error sentences as codes: a known one as its code, any other as processing.failed", async () => {
    const edited = structuredClone(manifest);
    const withComments = edited.memories.find((m) => m.comments.length === 2);
    if (!withComments) throw new Error("The seeded journal has no memory with two comments");
    const failedMemory = withComments as typeof withComments & { error: string | null };
    failedMemory.status = "failed";
    failedMemory.stage = "transcribe";
    // As a release before error codes wrote it into memories.json.
    failedMemory.error =
      "No speech was detected in the recording. Please try again and speak clearly into your microphone.";
    const [first, second] =
      withComments.comments as (BackupJson["memories"][number]["comments"][number] & {
        status: string;
        error: string | null;
      })[];
    if (!first || !second) throw new Error("missing comments");
    first.status = "failed";
    first.error = "Failed to generate tags: Invalid tag format";
    second.status = "failed";
    second.error = "Something an older release said that no code names";
    const heir = await createUserWithSession(t);
    const restored = await restoreBackup(t, heir.cookie, await withManifest(edited));
    expect(restored.json()).toMatchObject({ imported: 3, skipped: 0, failed: [] });
    const list = await t.app.inject({
      method: "GET",
      url: "/api/memories",
      headers: { cookie: heir.cookie },
    });
    const memory = list
      .json<{ items: Memory[] }>()
      .items.find((m) => m.title === withComments.title);
    expect(memory).toMatchObject({
      status: "failed",
      stage: "transcribe",
      error: "transcribe.no_speech",
    });
    const comments = await t.app.inject({
      method: "GET",
      url: `/api/memories/${memory?.id}/comments`,
      headers: { cookie: heir.cookie },
    });
    const errors = comments
      .json<{ commenterName: string; error: string | null }[]>()
      .map((c) => [c.commenterName, c.error]);
    expect(errors).toEqual(
      expect.arrayContaining([
        [first.commenterName, "tag.invalid_format"],
        [second.commenterName, "processing.failed"],
      ]),
    );
  });

  it("keeps each memory's spoken language, and drops one that is not a language code", async () => {
    const edited = structuredClone(manifest);
    const [german, odd] = edited.memories as BackupJson["memories"];
    if (!german || !odd) throw new Error("The seeded journal has fewer than two memories");
    german.language = "de";
    odd.language = "<script>";
    const heir = await createUserWithSession(t);
    const response = await restoreBackup(t, heir.cookie, await withManifest(edited));
    expect(response.json()).toMatchObject({ imported: 3, failed: [] });
    const list = await t.app.inject({
      method: "GET",
      url: "/api/memories",
      headers: { cookie: heir.cookie },
    });
    const byTitle = new Map(
      list.json<{ items: Memory[] }>().items.map((m) => [m.title, m.language] as const),
    );
    expect(byTitle.get(german.title)).toBe("de");
    expect(byTitle.get(odd.title)).toBeNull();
  });

  it("keeps a built-in question an older backup holds in another language's words as the library's own", async () => {
    const edited = structuredClone(manifest);
    const [spanish, family] = edited.memories as BackupJson["memories"];
    if (!spanish || !family) throw new Error("The seeded journal has fewer than two memories");
    spanish.question = wordsIn("es").QUESTIONS[11] as string;
    family.question = "¿Dónde aprendiste a cocinar?";
    const heir = await createUserWithSession(t);
    const response = await restoreBackup(t, heir.cookie, await withManifest(edited));
    expect(response.json()).toMatchObject({ imported: 3, failed: [] });
    const list = await t.app.inject({
      method: "GET",
      url: "/api/memories",
      headers: { cookie: heir.cookie },
    });
    const byTitle = new Map(
      list.json<{ items: Memory[] }>().items.map((m) => [m.title, m.question] as const),
    );
    expect(byTitle.get(spanish.title)).toBe(QUESTIONS[11]);
    expect(byTitle.get(family.title)).toBe("¿Dónde aprendiste a cocinar?");
  });
});

describe.each(DATABASE_KINDS)("a backup cut off over a real connection (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ kind });
  });
  afterAll(async () => t?.cleanup());

  it("answers 400 whatever the zip was cut at, and changes nothing", async () => {
    const victim = await createUserWithSession(t);
    for (const content of [Buffer.from("PK\x03\x04abc"), Buffer.alloc(0), audio[1] as Buffer]) {
      const response = await postOverSocket(
        t,
        "/api/restore",
        Buffer.concat([
          Buffer.from(
            '--XX\r\nContent-Disposition: form-data; name="backup"; filename="b.zip"\r\n\r\n',
          ),
          content,
        ]),
        { "content-type": "multipart/form-data; boundary=XX", cookie: victim.cookie },
      );
      expect(response.statusCode, response.body).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({
        code: "upload_incomplete",
        field: "backup",
      });
    }
    const list = await t.app.inject({
      method: "GET",
      url: "/api/memories",
      headers: { cookie: victim.cookie },
    });
    expect(list.json().total).toBe(0);
    const spooled = await readdir(path.join(t.config.dataDir, "tmp")).catch(() => []);
    expect(spooled.filter((name) => name.startsWith(".restore-"))).toEqual([]);
  });
});

describe("restores at once", () => {
  it(`runs ${RESTORES_AT_ONCE} per instance and answers 429 to more, before reading them`, async () => {
    const t = await createTestApp();
    try {
      const user = await createUserWithSession(t);
      const held = Array.from({ length: RESTORES_AT_ONCE }, () => new PassThrough());
      // Each outcome is awaited from the start: a restore that fails while the test awaits another
      // would otherwise be an unhandled rejection.
      const running = held.map((source) =>
        expect(
          t.services.restore.restoreUpload(intoOwn(user.user.id), source, () => false),
        ).rejects.toMatchObject({ statusCode: 400 }),
      );
      const extra = new PassThrough();
      await expect(
        t.services.restore.restoreUpload(intoOwn(user.user.id), extra, () => false),
      ).rejects.toMatchObject({ statusCode: 429 });
      for (const source of held) source.end("not a zip");
      await Promise.all(running);
      // Once they end, the next one runs.
      const after = t.services.restore.restoreUpload(
        intoOwn(user.user.id),
        Readable.from(["x"]),
        () => false,
      );
      await expect(after).rejects.toMatchObject({ statusCode: 400 });
    } finally {
      await t.cleanup();
    }
  });
});

describe("restore leftovers", () => {
  it("sweeps spooled zips a crash left behind once untouched for ten minutes, and nothing else", async () => {
    const t = await createTestApp();
    try {
      const dir = path.join(t.config.dataDir, "tmp");
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, ".restore-old.zip"), "x");
      await writeFile(path.join(dir, ".restore-new.zip"), "x");
      await writeFile(path.join(dir, "keep.txt"), "x");
      const old = new Date(Date.now() - 11 * 60 * 1000);
      await utimes(path.join(dir, ".restore-old.zip"), old, old);
      expect(await t.services.restore.sweepLeftovers(new Date())).toBe(1);
      expect((await readdir(dir)).sort()).toEqual([".restore-new.zip", "keep.txt"]);
    } finally {
      await t.cleanup();
    }
  });

  it("a restore killed after storing a file leaves an unattached row, which the upload sweep removes with its file", async () => {
    const t = await createTestApp();
    try {
      const owner = await createUserWithSession(t);
      const mp3 = await fixture("tone.mp3");
      // What a restore has done when the process dies before its transaction commits.
      const stored = await t.services.audio.storeForImport({
        source: Readable.from([mp3]),
        maxBytes: mp3.length,
        userId: owner.user.id,
        attachment: { kind: "memory", id: "never-created" },
      });
      expect(await t.storage.size(stored.storage_key)).toBe(mp3.length);
      const later = new Date(Date.now() + 1000);
      expect(await t.services.audio.sweepUnattached(later)).toBe(1);
      expect(await t.storage.size(stored.storage_key)).toBeNull();
    } finally {
      await t.cleanup();
    }
  });
});
