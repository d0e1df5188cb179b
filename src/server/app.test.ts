import { randomBytes } from "node:crypto";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { precompressDir } from "../../scripts/precompress.ts";
import {
  CURRENT_QUESTION_SCRIPT_ID,
  PAGE_MEMORY_SCRIPT_ID,
  SESSION_USER_SCRIPT_ID,
  SHARED_WITH_ME_SCRIPT_ID,
} from "../shared/constants";
import { ERROR_MESSAGES, type ErrorCode, MESSAGES } from "../shared/messages";
import type { HealthResponse } from "../shared/schemas";
import { SESSION_COOKIE } from "./auth/session.service";
import { loadConfig } from "./config";
import { JobsRepo } from "./jobs/jobs.repo";
import { LocalAudioStorage } from "./storage/local-storage";
import { createUserWithSession } from "./test/auth-helpers";
import {
  buildAppOn,
  createTestApp,
  createTestDatabase,
  DATABASE_KINDS,
  makeTempDir,
  type TestApp,
} from "./test/harness";

describe.each(DATABASE_KINDS)("health on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ kind });
  });
  afterAll(async () => t.cleanup());

  it("reports the database and storage reachable, and the job queue", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: "ok",
      database: kind,
      storage: "ok",
      queue: { waiting: 0, running: 0, scheduled: 0, oldestWaitingSeconds: null },
    });
  });

  it("reports how long the oldest due job has waited", async () => {
    const jobs = new JobsRepo(t.database.db, kind);
    const now = Date.now();
    await jobs.enqueue({
      kind: "process-memory",
      targetId: "m1",
      runAfter: new Date(now - 90_000),
    });
    await jobs.enqueue({
      kind: "transcribe-comment",
      targetId: "c1",
      runAfter: new Date(now - 5_000),
    });
    // A retry waiting out its backoff is scheduled, not waiting.
    await jobs.enqueue({
      kind: "process-memory",
      targetId: "m2",
      runAfter: new Date(now + 60_000),
    });
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    const { queue } = res.json<HealthResponse>();
    expect(queue).toMatchObject({ waiting: 2, running: 0, scheduled: 1 });
    expect(queue.oldestWaitingSeconds).toBeGreaterThanOrEqual(90);
    expect(queue.oldestWaitingSeconds).toBeLessThan(120);
  });

  it("reports 503 when the database is gone", async () => {
    const broken = await createTestDatabase(kind);
    const app = await buildAppOn({ config: t.config, database: broken.handle, storage: t.storage });
    await broken.cleanup();
    const res = await app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      code: "database_unreachable",
      message: MESSAGES.databaseUnreachable,
    });
    await app.close();
  });

  it("reports 503 when the audio folder is missing, or is not a folder it can write to", async () => {
    const dir = await makeTempDir("vmj-health-");
    const audioDir = path.join(dir, "audio");
    const storage = new LocalAudioStorage(audioDir);
    const app = await buildAppOn({ config: t.config, database: t.database, storage });
    const health = () => app.inject({ method: "GET", url: "/api/health" });
    try {
      expect((await health()).statusCode).toBe(503);
      expect((await health()).json()).toEqual({
        code: "storage_unreachable",
        message: MESSAGES.storageUnreachable,
      });
      // The health check never creates or repairs the folder (checkWritable at start-up does).
      await expect(stat(audioDir)).rejects.toThrow();

      // A file where the folder should be (a volume mounted wrong). Tests run as root here, so a
      // folder without write permission would still pass access(); a file fails for everyone.
      await writeFile(audioDir, "");
      expect((await health()).statusCode).toBe(503);

      await rm(audioDir);
      await storage.checkWritable();
      expect((await health()).statusCode).toBe(200);
    } finally {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("reports 503 naming both when the database and the storage are gone", async () => {
    const broken = await createTestDatabase(kind);
    const dir = await makeTempDir("vmj-health-");
    const storage = new LocalAudioStorage(path.join(dir, "missing"));
    const app = await buildAppOn({ config: t.config, database: broken.handle, storage });
    await broken.cleanup();
    try {
      const res = await app.inject({ method: "GET", url: "/api/health" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        code: "database_and_storage_unreachable",
        message: MESSAGES.databaseAndStorageUnreachable,
      });
    } finally {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** A service worker as the build writes it (large enough to get compressed copies). */
const SERVICE_WORKER = `self.addEventListener("fetch", () => {});\n${"// precache list\n".repeat(100)}`;

/** An asset large enough to be worth compressing. */
const BIG_ASSET = "export const greeting = 'hello';\n".repeat(200);

describe("the HTTP shell", () => {
  let t: TestApp;
  let clientDir: string;
  let app: TestApp["app"];

  beforeAll(async () => {
    t = await createTestApp();
    clientDir = await makeTempDir("vmj-client-");
    await mkdir(path.join(clientDir, "assets"));
    await writeFile(path.join(clientDir, "index.html"), "<!doctype html><div id=root></div>");
    await writeFile(path.join(clientDir, "assets", "index-abc123.js"), "console.log(1)");
    await writeFile(path.join(clientDir, "assets", "big-def456.js"), BIG_ASSET);
    await writeFile(path.join(clientDir, "sw.js"), SERVICE_WORKER);
    await writeFile(
      path.join(clientDir, "manifest.webmanifest"),
      '{"name":"Voice Memory Journal"}',
    );
    await precompressDir(clientDir);
    app = await buildAppOn({
      config: t.config,
      database: t.database,
      storage: t.storage,
      clientDir,
    });
    app.post(
      "/api/echo",
      { schema: { body: z.object({ name: z.string().min(2), age: z.number() }) } },
      async (request) => request.body,
    );
    app.get("/api/boom", async () => {
      throw new Error("secret internal detail at /var/lib/db");
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await t.cleanup();
    await rm(clientDir, { recursive: true, force: true });
  });

  it("answers unknown API paths with 404 JSON", async () => {
    const res = await app.inject({ method: "GET", url: "/api/nope" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: "not_found", message: MESSAGES.notFound });
  });

  it("serves the single-page app on each of its screens, uncached", async () => {
    for (const url of [
      "/",
      "/?page=2&q=beach",
      "/profile/jo",
      "/profile/Jo%C3%ABl/?page=3",
      "/watch",
      "/reset-password?token=abc",
      "/account",
    ]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toMatch(/text\/html/);
      expect(res.headers["cache-control"]).toBe("private, no-cache");
      expect(res.body).toContain("<div id=root>");
      expect(res.body).toContain(`id="${SESSION_USER_SCRIPT_ID}">null</script>`);
    }
  });

  it("answers 404 with the page (which shows the 404 screen) on paths that are no screen", async () => {
    for (const url of [
      "/some/other/path?x=1",
      "/memory",
      "/memory/abc/extra",
      // A memory's screen, but no memory this browser may see (memory-page.test.ts).
      "/memory/abc",
      "/profile/",
      "/watchx",
      "/index.html.bak",
      "/assets/missing-123.js",
    ]) {
      for (const method of ["GET", "HEAD"] as const) {
        const res = await app.inject({ method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.headers["content-type"], url).toMatch(/text\/html/);
        expect(res.headers["cache-control"]).toBe("private, no-cache");
        if (method === "GET") expect(res.body).toContain("<div id=root>");
      }
    }
  });

  it("embeds the logged-in user in the page, as GET /api/user sends it", async () => {
    const { cookie } = await createUserWithSession(t, { username: "shell_user" });
    const api = await app.inject({ method: "GET", url: "/api/user", headers: { cookie } });
    const page = await app.inject({ method: "GET", url: "/account", headers: { cookie } });
    expect(page.statusCode).toBe(200);
    const block = page.body.match(/id="session-user">(.*?)<\/script>/)?.[1];
    expect(JSON.parse(block ?? "")).toEqual(api.json());
    expect(api.json().username).toBe("shell_user");
    // An ended session is a visitor again.
    const stale = await app.inject({
      method: "GET",
      url: "/",
      headers: { cookie: `${cookie.split("=")[0]}=not-a-session` },
    });
    expect(stale.body).toContain(`id="${SESSION_USER_SCRIPT_ID}">null</script>`);
  });

  it("tells a logged-out browser in the page whose memories its share links open", async () => {
    const { cookie } = await createUserWithSession(t, { username: "shell_teller" });
    const created = await app.inject({
      method: "POST",
      url: "/api/share-links",
      headers: { cookie },
      payload: { label: "Grandma" },
    });
    const opened = await app.inject({ method: "GET", url: new URL(created.json().url).pathname });
    const shareCookie = String(opened.headers["set-cookie"]).split(";")[0] ?? "";
    const blockOf = (html: string) =>
      html.match(new RegExp(`id="${SHARED_WITH_ME_SCRIPT_ID}">(.*?)</script>`))?.[1];
    for (const url of ["/", "/account", "/profile/shell_teller"]) {
      const page = await app.inject({ method: "GET", url, headers: { cookie: shareCookie } });
      const api = await app.inject({
        method: "GET",
        url: "/api/shared-with-me",
        headers: { cookie: shareCookie },
      });
      expect(JSON.parse(blockOf(page.body) ?? ""), url).toEqual(api.json());
      expect(api.json().owners).toEqual([{ username: "shell_teller", displayName: null }]);
    }
    // A stranger's page says there is nothing to ask; the owner's says nothing of it.
    expect(blockOf((await app.inject({ method: "GET", url: "/" })).body)).toBe('{"owners":[]}');
    const own = await app.inject({ method: "GET", url: "/", headers: { cookie } });
    expect(own.body).not.toContain(SHARED_WITH_ME_SCRIPT_ID);
  });

  it("embeds the user's own current question in the home page only, and reading it moves nothing", async () => {
    const questionIn = (html: string) => {
      const block = html.match(
        new RegExp(`id="${CURRENT_QUESTION_SCRIPT_ID}">(.*?)</script>`),
      )?.[1];
      return block === undefined ? undefined : JSON.parse(block);
    };
    const jo = await createUserWithSession(t, { username: "question_jo" });
    const ann = await createUserWithSession(t, { username: "question_ann" });
    const home = async (cookie?: string, url = "/") =>
      (await app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} })).body;
    const api = async (cookie: string) =>
      (await app.inject({ method: "GET", url: "/api/question", headers: { cookie } })).json();

    const first = questionIn(await home(jo.cookie));
    expect(first).toEqual(await api(jo.cookie));
    expect(first.position).toBe(0);
    // Serving the page again (a reload) does not move the rotation on.
    expect(questionIn(await home(jo.cookie, "/?page=2"))).toEqual(first);
    // Skipping does, and the next page carries the next question.
    const next = await app.inject({
      method: "POST",
      url: "/api/question/next",
      headers: { cookie: jo.cookie },
      payload: { position: 0 },
    });
    expect(questionIn(await home(jo.cookie))).toEqual(next.json());
    expect(next.json().position).toBe(1);
    // Each user gets their own; visitors and the other screens get none.
    expect(questionIn(await home(ann.cookie))).toEqual(await api(ann.cookie));
    expect(questionIn(await home(ann.cookie))?.position).toBe(0);
    expect(questionIn(await home())).toBeUndefined();
    expect(questionIn(await home(jo.cookie, "/account"))).toBeUndefined();
  });

  it("still serves the page, without a user, when the database is unreachable", async () => {
    const broken = await createTestDatabase("sqlite");
    const offline = await buildAppOn({
      config: t.config,
      database: broken.handle,
      storage: t.storage,
      clientDir,
    });
    await broken.cleanup();
    // A memory's page too: whether the memory is there is unknown, so it is no 404.
    for (const url of ["/", "/memory/abc"]) {
      const page = await offline.inject({
        method: "GET",
        url,
        // A well-formed token, so the lookup reaches the database.
        headers: { cookie: `${SESSION_COOKIE}=${randomBytes(32).toString("base64url")}` },
      });
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain("<div id=root>");
      expect(page.body).not.toContain(SESSION_USER_SCRIPT_ID);
      expect(page.body).not.toContain(PAGE_MEMORY_SCRIPT_ID);
    }
    await offline.close();
  });

  it("sends the build's compressed copy of an asset when the browser accepts it", async () => {
    const url = "/assets/big-def456.js";
    const br = await app.inject({ method: "GET", url, headers: { "accept-encoding": "br, gzip" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/);
    const source = BIG_ASSET;
    expect(br.rawPayload.length).toBeLessThan(source.length / 10);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(source);
    const gz = await app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(source);
    const plain = await app.inject({ method: "GET", url });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(source);
    // Small files are not worth compressing and are sent as they are.
    const small = await app.inject({
      method: "GET",
      url: "/assets/index-abc123.js",
      headers: { "accept-encoding": "br" },
    });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.body).toBe("console.log(1)");
  });

  it("caches hashed assets immutably", async () => {
    const res = await app.inject({ method: "GET", url: "/assets/index-abc123.js" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("serves the service worker and the manifest to be revalidated on every check", async () => {
    // A cached worker would hide a new deployment from the update check (ADR 0016).
    const sw = await app.inject({
      method: "GET",
      url: "/sw.js",
      headers: { "accept-encoding": "br" },
    });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers["cache-control"]).toBe("no-cache");
    expect(sw.headers["content-type"]).toMatch(/javascript/);
    expect(sw.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(sw.rawPayload).toString()).toBe(SERVICE_WORKER);
    const manifest = await app.inject({ method: "GET", url: "/manifest.webmanifest" });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers["cache-control"]).toBe("no-cache");
    expect(manifest.headers["content-type"]).toMatch(/^application\/manifest\+json/);
  });

  it("serves the shell the service worker caches without anyone's user in it", async () => {
    const { cookie } = await createUserWithSession(t, { username: "shell_cached" });
    const res = await app.inject({ method: "GET", url: "/index.html", headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("<div id=root>");
    // Shared by everyone using this browser: the page asks GET /api/user itself.
    expect(res.body).not.toContain("shell_cached");
    expect(res.body).not.toContain(SESSION_USER_SCRIPT_ID);
  });

  it("sends security headers with a content security policy", async () => {
    const res = await app.inject({ method: "GET", url: "/" });
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
    // The installable app's service worker and manifest (ADR 0016).
    expect(res.headers["content-security-policy"]).toMatch(/worker-src 'self'/);
    expect(res.headers["content-security-policy"]).toContain("manifest-src 'self'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    // Worked out once at start-up, then the same on every kind of response (API, missing).
    for (const url of ["/api/health", "/api/nothing-here"]) {
      const other = await app.inject({ method: "GET", url });
      for (const name of [
        "content-security-policy",
        "x-content-type-options",
        "x-frame-options",
        "strict-transport-security",
        "referrer-policy",
        "cross-origin-opener-policy",
      ]) {
        expect(other.headers[name], `${url} ${name}`).toBe(res.headers[name]);
      }
    }
    expect(res.headers["x-frame-options"]).toBe("SAMEORIGIN");
  });

  it("answers a bad body with 400 naming the field", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/api/echo",
      payload: { name: "x", age: 3 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toMatch(/^body\.name/);
    const missing = await app.inject({ method: "POST", url: "/api/echo", payload: { name: "xy" } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toMatch(/^body\.age/);
  });

  it("answers malformed JSON with 400", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/api/echo",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().message).toBe("string");
  });

  it("answers every refusal in the product's words: no status line, no library text", async () => {
    const refusals = [
      { payload: "{not json", headers: { "content-type": "application/json" } },
      { payload: "", headers: { "content-type": "application/json" } },
      { payload: "name=xy", headers: { "content-type": "text/csv" } },
      { payload: { name: 42, age: "old" } },
      { payload: { name: "xy" } },
    ];
    for (const request of refusals) {
      const res = await app.inject({ method: "POST", url: "/api/echo", ...request });
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      const { code, message } = res.json() as { code: ErrorCode; message: string };
      expect(["bad_request", "invalid_value"]).toContain(code);
      expect(message).toBe(ERROR_MESSAGES[code]);
    }
    const boom = await app.inject({ method: "GET", url: "/api/boom" });
    expect(boom.json()).toEqual({ code: "internal_error", message: MESSAGES.internalError });
  });

  it("never leaks internals on a 500", async () => {
    const res = await app.inject({ method: "GET", url: "/api/boom" });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: "internal_error", message: MESSAGES.internalError });
  });

  it("serves the OpenAPI document and its docs page", async () => {
    const doc = await app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().paths["/api/health"]).toBeDefined();
    const page = await app.inject({ method: "GET", url: "/api/docs/" });
    expect([200, 302]).toContain(page.statusCode);
  });

  it("serves public app info", async () => {
    const res = await app.inject({ method: "GET", url: "/api/app-info" });
    expect(res.json()).toEqual({
      featureRequestContact: t.config.FEATURE_REQUEST_CONTACT,
      linkBase: t.config.APP_URL ?? "http://localhost:80",
    });
  });
});

describe("start-up faults", () => {
  it("refuses an unwritable audio folder", async () => {
    const dir = await makeTempDir();
    await writeFile(path.join(dir, "file"), "");
    const storage = new LocalAudioStorage(path.join(dir, "file", "audio"));
    await expect(storage.checkWritable()).rejects.toThrow(/not writable/);
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses an unreachable PostgreSQL", async () => {
    const config = loadConfig({ DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" });
    expect(config.database.kind).toBe("postgres");
    const { openDatabase } = await import("./db/connection");
    await expect(
      openDatabase({ kind: "postgres", url: "postgres://nobody@127.0.0.1:1/none" }),
    ).rejects.toThrow();
  });
});
