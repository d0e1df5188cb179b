import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import SqliteDatabase from "better-sqlite3";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Memory } from "../../shared/schemas";
import { loadConfig } from "../config";
import { openDatabase } from "../db/connection";
import { createAudioStorage } from "../storage/storage-factory";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import {
  buildAppOn,
  createEmptyPostgresDatabase,
  createTestApp,
  DATABASE_KINDS,
  makeTempDir,
  STORAGE_KINDS,
  type TestApp,
} from "../test/harness";
import { fixture, upload } from "../test/upload-helpers";
import { runAdmin } from "./admin";

const execFileAsync = promisify(execFile);
const CLI = path.join(import.meta.dirname, "admin-cli.ts");
/** The write load saves many memories from one address; the limits have their own tests. */
const UNLIMITED = { RATE_LIMIT_UPLOAD_PER_HOUR: "100000", RATE_LIMIT_PROCESS_PER_HOUR: "100000" };

let wav: Buffer;
beforeAll(async () => {
  wav = await fixture("tone.wav");
});

/** The environment that selects the test app's instance, as an operator's would select theirs. */
function instanceEnv(t: TestApp): Record<string, string> {
  const target = t.databaseTarget;
  return {
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: t.dataDir,
    DATABASE_URL: target.kind === "sqlite" ? `sqlite:${target.file}` : target.url,
    ...(t.bucket ? t.bucket.server.env(t.bucket.settings) : {}),
  };
}

async function admin(argv: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, env, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/**
 * `npm run admin -- <argv>` in a process of its own, as an operator runs it beside the server.
 * `onLine` gets each line it prints, and the process, to pause it (SIGSTOP) while something happens.
 */
function adminProcess(
  argv: string[],
  env: Record<string, string>,
  onLine: (line: string, child: ChildProcess) => void,
) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", CLI, ...argv], {
      env: { PATH: process.env.PATH ?? "", ...env },
    });
    let output = "";
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of chunk.toString().split("\n")) if (line) onLine(line, child);
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => resolve({ code, output }));
  });
}

async function saveMemory(t: TestApp, user: TestUser, title: string): Promise<Memory> {
  const uploaded = await upload(t, wav, { cookie: user.cookie });
  expect(uploaded.statusCode).toBe(201);
  const response = await t.app.inject({
    method: "POST",
    url: "/api/memories",
    headers: { cookie: user.cookie },
    payload: {
      title,
      transcript: "We planted tulips.",
      summary: "Tulips.",
      recordedAt: "2026-05-01T10:00:00.000Z",
      audioUrl: uploaded.json().url,
    },
  });
  expect(response.statusCode).toBe(201);
  return response.json();
}

describe.each(DATABASE_KINDS)("admin command (%s)", (kind) => {
  let t: TestApp;
  let env: Record<string, string>;

  beforeEach(async () => {
    t = await createTestApp({ kind, env: UNLIMITED });
    env = instanceEnv(t);
  });
  afterEach(async () => t.cleanup());

  it("users lists every account by username", async () => {
    await createUserWithSession(t, { username: "zoe", email: "zoe@example.org" });
    await createUserWithSession(t, { username: "Adam" });
    const result = await admin(["users"], env);
    expect(result.code).toBe(0);
    const lines = result.out.split("\n");
    expect(lines[0]).toMatch(/^username\s+display name\s+email\s+created$/);
    expect(lines[1]).toMatch(/^Adam\s+\d{4}-/);
    expect(lines[2]).toMatch(/^zoe\s+zoe@example\.org\s+\d{4}-/);
    expect(lines.at(-1)).toBe("2 accounts");
  });

  it("reset-link prints a link at APP_URL that sets a new password, once", async () => {
    const user = await createUserWithSession(t, { username: "grandma" });
    const result = await admin(["reset-link", "GRANDMA"], {
      ...env,
      APP_URL: "https://journal.example.org",
    });
    expect(result.code).toBe(0);
    const link = result.out.split("\n").at(-1) ?? "";
    expect(link).toMatch(/^https:\/\/journal\.example\.org\/reset-password\?token=/);
    const token = new URL(link).searchParams.get("token");
    const reset = () =>
      t.app.inject({
        method: "POST",
        url: "/api/reset-password",
        payload: { token, password: "a new long password" },
      });
    expect((await reset()).statusCode).toBe(200);
    expect((await reset()).statusCode).toBe(400);
    const login = await t.app.inject({
      method: "POST",
      url: "/api/login",
      payload: { username: user.user.username, password: "a new long password" },
    });
    expect(login.statusCode).toBe(200);

    const unknown = await admin(["reset-link", "nobody"], env);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('No account is named "nobody".');
  });

  it("check reports files without rows and rows without files, and repairs only with --repair", async () => {
    const user = await createUserWithSession(t);
    const memory = await saveMemory(t, user, "Our garden");
    const memoryAudio = await t.services.audio.findById(memory.audioUrl.split("/").at(-1) ?? "");
    const unattached = await upload(t, wav, { cookie: user.cookie });
    const unattachedAudio = await t.services.audio.findById(unattached.json().id);
    if (!memoryAudio || !unattachedAudio) throw new Error("uploads not stored");

    expect((await admin(["check"], env)).code).toBe(0);

    await t.storage.write("stray.webm", Readable.from([Buffer.alloc(300)]));
    await t.storage.delete(unattachedAudio.storage_key);
    const found = await admin(["check"], env);
    expect(found.code).toBe(0);
    expect(found.out).toContain("Files without rows: 1");
    expect(found.out).toContain("stray.webm (300 bytes)");
    expect(found.out).toContain(`(never attached): ${unattachedAudio.storage_key} is missing`);
    expect(await t.storage.size("stray.webm")).toBe(300);

    await t.storage.delete(memoryAudio.storage_key);
    const broken = await admin(["check", "--repair"], env);
    expect(broken.code).toBe(1);
    expect(broken.out).toContain(`of memory:${memory.id}: ${memoryAudio.storage_key} is missing`);
    expect(broken.out).toContain("Repaired: 1 files and 1 rows deleted.");
    expect(broken.err).toContain("1 rows belong to memories or comments");
    expect(await t.storage.size("stray.webm")).toBeNull();
    expect(await t.services.audio.findById(unattachedAudio.id)).toBeNull();
    expect(await t.services.audio.findById(memoryAudio.id)).not.toBeNull();
  });

  it("refuses what it does not understand, and a database that is not there", async () => {
    expect((await admin(["delete-everything"], env)).code).toBe(2);
    expect((await admin(["check", "--force"], env)).code).toBe(2);
    expect((await admin(["reset-link"], env)).code).toBe(2);
    const missing = admin(["users"], {
      ...env,
      DATABASE_URL: "",
      DATA_DIR: `${t.dataDir}/nowhere`,
    });
    await expect(missing).rejects.toThrow(/No database at .*nowhere.*journal\.db: set DATA_DIR/);
  });
});

/** PostgreSQL enforces its foreign keys on every write; a SQLite file can be edited by hand. */
describe("admin check on a SQLite file edited by hand", () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ kind: "sqlite" });
  });
  afterEach(async () => t.cleanup());

  it("reports a database that breaks its own rules", async () => {
    const user = await createUserWithSession(t);
    await saveMemory(t, user, "Our garden");
    if (t.databaseTarget.kind !== "sqlite") throw new Error("a SQLite test app");
    // Foreign keys off, as a hand edit might be: a comment on a memory that is not there.
    const raw = new SqliteDatabase(t.databaseTarget.file);
    raw.pragma("foreign_keys = OFF");
    raw
      .prepare(
        "insert into comments (id, memory_id, commenter_name, audio_id, transcript, status, error, created_at) values ('c1', 'gone', 'Bob', null, '', 'saved', null, '2026-01-01')",
      )
      .run();
    raw.close();
    const result = await admin(["check"], instanceEnv(t));
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/Database: comments row \d+ names a missing memories row/);
  });
});

/**
 * A backup taken while an upload's file is half written in the bucket (held there by the test's
 * S3 server, so the order is fixed): the backup holds only complete files, and every one of them.
 */
describe.each(DATABASE_KINDS)("admin backup while an upload is being written (%s, s3)", (kind) => {
  let t: TestApp;
  let folder: string;

  beforeEach(async () => {
    t = await createTestApp({ kind, storage: "s3", env: UNLIMITED });
    folder = path.join(await makeTempDir("vmj-backup-"), "backup");
  });
  afterEach(async () => {
    await t.cleanup();
    await rm(path.dirname(folder), { recursive: true, force: true });
  });

  it("copies every complete file whole and leaves out the one still being written", async () => {
    const bucket = t.bucket;
    if (!bucket) throw new Error("an app storing audio in a bucket");
    const user = await createUserWithSession(t);
    const before = await saveMemory(t, user, "Before");
    const beforeAudio = await t.services.audio.findById(before.audioUrl.split("/").at(-1) ?? "");
    if (!beforeAudio) throw new Error("upload not stored");

    const held = bucket.server.holdNextWrite(bucket.settings.bucket);
    const uploading = upload(t, wav, { cookie: user.cookie });
    const writing = await held;
    let result: Awaited<ReturnType<typeof admin>>;
    try {
      if (t.databaseTarget.kind === "postgres") {
        await mkdir(folder, { recursive: true });
        await execFileAsync("pg_dump", [
          "--format=custom",
          `--file=${path.join(folder, "journal.pgdump")}`,
          t.databaseTarget.url,
        ]);
      }
      result = await admin(["backup", folder], instanceEnv(t));
    } finally {
      writing.release();
    }
    expect((await uploading).statusCode).toBe(201);
    expect(result.err).toBe("");
    expect(result.out).toContain("Backup complete.");
    expect(result.code).toBe(0);

    const copied = (await readdir(path.join(folder, "audio"))).sort();
    expect(copied).toEqual([beforeAudio.storage_key]);
    expect(copied).not.toContain(writing.key);
    const stored = await readFile(path.join(folder, "audio", beforeAudio.storage_key));
    expect(stored.equals(wav)).toBe(true);
  });
});

/**
 * A backup taken by the command, in its own process, while the server saves memories: restored
 * into a fresh instance, it passes the check and holds every memory saved before it began, each
 * with its file.
 */
describe.each(
  DATABASE_KINDS.flatMap((kind) => STORAGE_KINDS.map((storage) => ({ kind, storage }))),
)("admin backup under a write load ($kind, $storage)", ({ kind, storage }) => {
  let t: TestApp;
  let folder: string;
  const cleanups: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    t = await createTestApp({ kind, storage, env: UNLIMITED });
    folder = path.join(await makeTempDir("vmj-backup-"), "backup");
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await t.cleanup();
    await rm(path.dirname(folder), { recursive: true, force: true });
  });

  it("restores into a fresh instance that passes check with every memory and file", async () => {
    const user = await createUserWithSession(t);
    const saved: Memory[] = [];
    for (let i = 0; i < 3; i++) saved.push(await saveMemory(t, user, `Before ${i}`));

    let writing = true;
    const onSave: (() => void)[] = [];
    const load = (async () => {
      while (writing) {
        saved.push(await saveMemory(t, user, `During ${saved.length}`));
        for (const notify of onSave.splice(0)) notify();
      }
    })();
    const nextSave = () => new Promise<void>((resolve) => onSave.push(resolve));
    const beforeBackup = [...saved];
    let savedWhileCopying = 0;
    let copyStartedAt = 0;
    let paused: Promise<void> = Promise.resolve();
    let result: { code: number | null; output: string } = { code: null, output: "" };
    try {
      if (t.databaseTarget.kind === "postgres") {
        // The operator's first step on PostgreSQL, while the server writes.
        await mkdir(folder, { recursive: true });
        await execFileAsync("pg_dump", [
          "--format=custom",
          `--file=${path.join(folder, "journal.pgdump")}`,
          t.databaseTarget.url,
        ]);
      }
      result = await adminProcess(["backup", folder], instanceEnv(t), (line, child) => {
        if (!line.startsWith("Backing up into")) return;
        // Ordered by events, not timing: the backup waits, once begun, until a memory is saved.
        child.kill("SIGSTOP");
        copyStartedAt = saved.length;
        paused = nextSave().then(() => {
          child.kill("SIGCONT");
        });
      });
      await paused;
      savedWhileCopying = saved.length - copyStartedAt;
    } finally {
      writing = false;
      await load;
    }
    expect(result.output).toContain("Backup complete.");
    expect(result.code).toBe(0);
    expect(copyStartedAt).toBeGreaterThan(0);
    expect(savedWhileCopying).toBeGreaterThan(0);

    // The fresh instance: the backup folder as its data folder, or a new database and bucket.
    const restored: Record<string, string> = {
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      DATA_DIR: folder,
      DATABASE_URL: "",
    };
    if (t.databaseTarget.kind === "postgres") {
      const empty = await createEmptyPostgresDatabase();
      cleanups.push(empty.drop);
      await execFileAsync("pg_restore", [
        "--no-owner",
        `--dbname=${empty.url}`,
        path.join(folder, "journal.pgdump"),
      ]);
      restored.DATABASE_URL = empty.url;
    }
    if (t.bucket) {
      const bucket = await t.bucket.server.createBucket("restored");
      Object.assign(restored, t.bucket.server.env(bucket));
      const copied = await admin(
        ["copy-files", `file:${path.join(folder, "audio")}`, restored.STORAGE_URL ?? ""],
        restored,
      );
      expect(copied.code).toBe(0);
    }

    const check = await admin(["check"], restored);
    expect(check.out).toContain("Rows without files: 0");
    expect(check.code).toBe(0);
    if (t.databaseTarget.kind === "sqlite") expect(check.out).toContain("Files without rows: 0");

    // Every memory saved before the backup began is there and can be heard.
    const config = loadConfig(restored);
    const database = await openDatabase(config.database);
    const files = createAudioStorage(config.storage);
    const app = await buildAppOn({ config, database, storage: files });
    try {
      const ids = new Set<string>();
      for (let page = 1; ; page++) {
        const response = await app.inject({
          url: `/api/memories?page=${page}`,
          headers: { cookie: user.cookie },
        });
        const items: Memory[] = response.json().items;
        for (const item of items) ids.add(item.id);
        if (items.length === 0) break;
      }
      for (const memory of beforeBackup) {
        expect(ids.has(memory.id)).toBe(true);
        const audio = await app.inject({ url: memory.audioUrl, headers: { cookie: user.cookie } });
        expect(audio.statusCode).toBe(200);
        expect(audio.rawPayload.length).toBe(wav.length);
      }
    } finally {
      await app.close();
      await database.close();
    }
  }, 120_000);
});

/**
 * A backup against a bucket that hangs: one that never answers (the client's idle timeout ends
 * it), and one that trickles a byte now and then (only the backup's own deadline ends it). Either
 * way one line says what happened and what to do, and no partial backup is left.
 */
describe.each(DATABASE_KINDS)("admin backup against a hung bucket (%s)", (kind) => {
  let t: TestApp;
  let folder: string;
  let hung: Server;
  let trickles = false;

  beforeEach(async () => {
    t = await createTestApp({ kind, env: UNLIMITED });
    folder = path.join(await makeTempDir("vmj-backup-"), "backup");
    hung = createServer((_request, response) => {
      if (!trickles) return; // never answers
      response.writeHead(200, { "content-type": "application/xml" });
      const drip = setInterval(() => response.write(" "), 50);
      response.on("close", () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
  });
  afterEach(async () => {
    hung.closeAllConnections();
    await new Promise((resolve) => hung.close(resolve));
    await t.cleanup();
    await rm(path.dirname(folder), { recursive: true, force: true });
  });

  for (const mode of ["never answers", "trickles"] as const) {
    it(`fails in one line and leaves no partial backup when the bucket ${mode}`, async () => {
      trickles = mode === "trickles";
      const env = {
        ...instanceEnv(t),
        STORAGE_URL: "s3://hung-bucket/",
        S3_ENDPOINT: `http://127.0.0.1:${(hung.address() as AddressInfo).port}`,
        S3_REGION: "us-east-1",
        S3_ACCESS_KEY_ID: "test",
        S3_SECRET_ACCESS_KEY: "test",
        S3_FORCE_PATH_STYLE: "true",
        S3_CONNECT_TIMEOUT_MS: "200",
        S3_REQUEST_TIMEOUT_MS: "200",
      };
      const dump = path.join(folder, "journal.pgdump");
      if (kind === "postgres") {
        await mkdir(folder, { recursive: true });
        await writeFile(dump, "the operator's dump");
      }
      const result = await admin(["backup", folder], env);
      expect(result.code).toBe(1);
      expect(result.err.split("\n")).toEqual([
        "Backup failed: the file storage (s3://hung-bucket/) did not answer, so nothing was kept. Check that it is running and reachable (STORAGE_URL, S3_ENDPOINT), then run the backup again.",
      ]);
      if (kind === "postgres") expect(await readdir(folder)).toEqual(["journal.pgdump"]);
      else expect(existsSync(folder)).toBe(false);
    });
  }
});
