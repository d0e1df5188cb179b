import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressDir } from "../scripts/precompress";
import { SESSION_USER_SCRIPT_ID } from "../src/shared/constants";
import { MESSAGES, pendingRecordingsLabel, UPDATE_MESSAGES } from "../src/shared/messages";
import type { MemoryPage } from "../src/shared/schemas";
import { ApiClient } from "./api-client";
import { seriousViolations } from "./axe";
import { type JourneySetup, looksLikeMp3, openAiEnv, startJourney } from "./fixtures";
import {
  addClientCookies,
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  fakeMicrophoneArgs,
  makeSpeechWav,
  type RunningServer,
  startServer,
} from "./harness";

const OWNER = "pwa_owner";
const SPEECH = "We planted sunflowers in the garden and watered them every morning.";
const PHONE = { width: 390, height: 844 };
/** A second deployment of the app: a copy of the build with a changed service worker and page. */
const V2_DIR = path.resolve("dist-e2e-pwa-v2");
const V2_MARKER = "vmj-e2e-build-2";

interface Manifest {
  name?: string;
  short_name?: string;
  start_url?: string;
  scope?: string;
  display?: string;
  theme_color?: string;
  icons?: { src: string; sizes: string; type: string; purpose?: string }[];
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function audioFiles(dataDir: string): Promise<string[]> {
  try {
    return (await readdir(path.join(dataDir, "audio"))).filter((name) => !name.startsWith("."));
  } catch {
    return [];
  }
}

/** Fetch failures while the browser is offline or the server restarts are the point here. */
function unexpected(errors: string[]): string[] {
  return errors.filter(
    (text) =>
      !/net::ERR_INTERNET_DISCONNECTED|net::ERR_CONNECTION_REFUSED|Failed to fetch/.test(text) &&
      !/^Failed to load resource: the server responded with a status of 40[14]\b/.test(text),
  );
}

/**
 * The app installs on a phone, opens and records with no connection, uploads what it
 * recorded offline once the connection returns, and offers a new version when one is deployed.
 */
describe("the installable app in Chromium", () => {
  let journey: JourneySetup;
  let server: RunningServer;
  let v2: RunningServer | undefined;
  let context: BrowserContext;
  let page: Page;
  const consoleErrors: string[] = [];
  let speechSeconds: number;
  let api: ApiClient;

  beforeAll(async () => {
    journey = await startJourney({ name: "pwa" });
    server = journey.server;
    api = new ApiClient(server.url);
    await api.register(OWNER);
    // A browser profile on disk, as on a phone: Chromium offers to install apps only outside
    // incognito, and every context of launch() is incognito.
    const speech = makeSpeechWav(journey.workDir, SPEECH);
    speechSeconds = speech.seconds;
    context = await chromium.launchPersistentContext(path.join(journey.workDir, "profile"), {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, ...fakeMicrophoneArgs(speech.wav)],
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on("console", (msg) => {
      if (msg.type() === "error") consoleErrors.push(msg.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(error.message));
    // The browser is logged in as the owner (the session cookie the API client got).
    await addClientCookies(context, server.url, api.cookieHeader());
  });
  afterAll(async () => {
    await context?.close();
    await v2?.stop();
    await journey?.close();
    await rm(V2_DIR, { recursive: true, force: true });
  });

  it("links a valid manifest with icons, installs its service worker and is installable", async () => {
    await page.goto(server.url);
    await page.getByRole("button", { name: MESSAGES.userMenu }).waitFor();

    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    expect(href).toBe("/manifest.webmanifest");
    const res = await page.request.get(`${server.url}${href}`);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as Manifest;
    expect(manifest).toMatchObject({
      name: MESSAGES.appTitle,
      short_name: MESSAGES.appShortName,
      start_url: "/",
      scope: "/",
      display: "standalone",
      theme_color: "#7c3aed",
    });
    const icons = manifest.icons ?? [];
    for (const [size, purpose] of [
      ["192x192", "any"],
      ["512x512", "any"],
      ["512x512", "maskable"],
    ] as const) {
      const icon = icons.find((i) => i.sizes === size && (i.purpose ?? "any") === purpose);
      expect(icon, `${size} ${purpose}`).toBeDefined();
      const png = await page.request.get(`${server.url}${icon?.src}`);
      expect(png.status()).toBe(200);
      expect(png.headers()["content-type"]).toBe("image/png");
      const [w, h] = size.split("x").map(Number);
      expect(pngSize(await png.body())).toEqual({ width: w, height: h });
    }

    // Chromium's own reading of the manifest: no errors. (A second CDP session on the page keeps
    // navigator.onLine true under setOffline, so it is closed again below.)
    const cdp = await context.newCDPSession(page);
    const read = (await cdp.send("Page.getAppManifest")) as { url: string; errors: unknown[] };
    expect(read.url).toBe(`${server.url}/manifest.webmanifest`);
    expect(read.errors).toEqual([]);

    // The service worker installs (registered after the page has loaded) and precaches the shell.
    const state = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return { scope: registration.scope, script: registration.active?.scriptURL };
    });
    expect(state).toEqual({ scope: `${server.url}/`, script: `${server.url}/sw.js` });
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
      }
      return urls.map((url) => new URL(url).pathname);
    });
    expect(cached).toContain("/index.html");
    expect(cached.some((p) => /^\/assets\/mp3-.*\.wasm$/.test(p))).toBe(true);
    expect(cached.some((p) => p.startsWith("/api/"))).toBe(false);

    // Chromium finds nothing missing to offer installing it.
    const installability = (await cdp.send("Page.getInstallabilityErrors")) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installability.installabilityErrors).toEqual([]);
    await cdp.detach();

    await page.screenshot({
      path: path.join("test-results", "pwa-install-ready-phone.png"),
      animations: "disabled",
    });
    expect(unexpected(consoleErrors)).toEqual([]);
  });

  it("reloads with no connection and shows the home page from the cached shell", async () => {
    await context.setOffline(true);
    const response = await page.reload();
    expect(response?.fromServiceWorker()).toBe(true);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    await page.getByRole("heading", { name: MESSAGES.homeHeader }).waitFor();
    await page.getByRole("button", { name: MESSAGES.startRecording }).waitFor();
    // The cached shell is everyone's: no user is baked into it (the network page has one).
    expect(await page.locator(`#${SESSION_USER_SCRIPT_ID}`).count()).toBe(0);
    // Who is logged in is unknown offline: no Log in offered to the owner.
    expect(await page.getByRole("button", { name: MESSAGES.logIn }).count()).toBe(0);
    await page.screenshot({
      path: path.join("test-results", "pwa-offline-phone.png"),
      animations: "disabled",
    });
  });

  it("keeps a recording made offline in the browser and uploads it when the connection returns", async () => {
    const before = await audioFiles(server.dataDir);
    await page.getByRole("button", { name: MESSAGES.startRecording }).click();
    await page.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await page.waitForTimeout(speechSeconds * 1000 + 800);
    await page.getByRole("button", { name: MESSAGES.stopRecording }).click();
    await page.getByRole("status").getByText(MESSAGES.recordingKeptOnDevice).waitFor();
    await page.getByText(pendingRecordingsLabel(1)).waitFor();
    // Offline is not a failure: no error box and nothing in red.
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(
      await page
        .getByTestId("recorder")
        .evaluate((recorder) =>
          [...recorder.querySelectorAll("*")].some((element) =>
            /(^|\s)(text|bg|border)-red-/.test(element.getAttribute("class") ?? ""),
          ),
        ),
    ).toBe(false);
    // Nothing reached the server while offline.
    await page.waitForTimeout(1000);
    expect(await audioFiles(server.dataDir)).toEqual(before);
    const kept = await page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open("vmj-recordings");
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const count = open.result.transaction("pending").objectStore("pending").count();
            count.onsuccess = () => resolve(count.result);
            count.onerror = () => reject(count.error);
          };
        }),
    );
    expect(kept).toBe(1);

    // Back online: the browser's 'online' event sends it, and it is processed into a memory.
    await context.setOffline(false);
    await page.getByRole("button", { name: MESSAGES.userMenu }).waitFor();
    await page.getByTestId("pending-recordings").waitFor({ state: "detached", timeout: 60_000 });
    await expect
      .poll(
        async () => {
          const list = await api.json<MemoryPage>("GET", "/api/memories");
          return list.data.items.map((m) => m.status);
        },
        { timeout: 60_000, interval: 500 },
      )
      .toEqual(["saved"]);
    const files = (await audioFiles(server.dataDir)).filter((f) => !before.includes(f));
    expect(files).toHaveLength(1);
    const bytes = await readFile(path.join(server.dataDir, "audio", files[0] ?? ""));
    // Converted to MP3 in the browser while offline (the encoder came from the cache).
    expect(looksLikeMp3(bytes)).toBe(true);
    await page.getByRole("list", { name: "Memories" }).getByRole("listitem").first().waitFor();
    expect(unexpected(consoleErrors)).toEqual([]);
  });

  it("opens a memory's page from the network under the service worker, with its memory, offline from the shell", async () => {
    const list = await api.json<MemoryPage>("GET", "/api/memories");
    const memory = list.data.items[0];
    if (!memory) throw new Error("no memory");
    const heading = page.getByRole("heading", { name: memory.title });
    // Online, the worker passes the page on from the network: it carries the memory (ADR 0031).
    const online = await page.goto(`${server.url}/memory/${memory.id}`);
    expect(online?.status()).toBe(200);
    await heading.waitFor();
    const asked = await page.evaluate(() =>
      performance.getEntriesByType("resource").map((r) => new URL(r.name).pathname),
    );
    expect(asked).not.toContain(`/api/memories/${memory.id}`);
    // And its 404 for a memory this browser may not see, not the cached shell's 200.
    const gone = await page.goto(`${server.url}/memory/not-a-memory`);
    expect(gone?.status()).toBe(404);
    await page.getByTestId("not-found").waitFor();

    // Offline, the cached shell opens (it carries no memory) and the page asks once back online.
    await context.setOffline(true);
    const offline = await page.goto(`${server.url}/memory/${memory.id}`);
    expect(offline?.fromServiceWorker()).toBe(true);
    expect(offline?.status()).toBe(200);
    await page.getByRole("status", { name: MESSAGES.loading }).waitFor();
    await context.setOffline(false);
    await heading.waitFor();
    // Home again, where the next test expects the app.
    await page.goto(server.url);
    await page.getByRole("heading", { name: MESSAGES.homeHeader }).waitFor();
    expect(unexpected(consoleErrors)).toEqual([]);
  });

  it("offers a new version once it is deployed, and switches to it on Reload", async () => {
    // "Deploy" a second build: the same app with a changed page, so its service worker changes.
    await rm(V2_DIR, { recursive: true, force: true });
    await cp(path.resolve("dist"), V2_DIR, { recursive: true });
    const clientDir = path.join(V2_DIR, "client");
    for (const name of await readdir(clientDir)) {
      if (name.endsWith(".br") || name.endsWith(".gz")) await rm(path.join(clientDir, name));
    }
    const indexHtml = path.join(clientDir, "index.html");
    await writeFile(
      indexHtml,
      (await readFile(indexHtml, "utf8")).replace(
        "</head>",
        `<meta name="${V2_MARKER}" content="yes" /></head>`,
      ),
    );
    const swPath = path.join(clientDir, "sw.js");
    const sw = await readFile(swPath, "utf8");
    const revised = sw.replace(
      /\{url:"index\.html",revision:"[^"]+"\}/,
      `{url:"index.html",revision:"${V2_MARKER}"}`,
    );
    expect(revised).not.toBe(sw);
    await writeFile(swPath, revised);
    await precompressDir(clientDir);

    await server.stop();
    v2 = await startServer(
      openAiEnv(journey.stub),
      { dataDir: server.dataDir, port: server.port },
      path.join(V2_DIR, "server", "main.js"),
    );

    // The open app asks for updates hourly and on resume; here it is asked now.
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration?.update();
    });
    const prompt = page.getByRole("region", { name: UPDATE_MESSAGES.region });
    await prompt.getByText(UPDATE_MESSAGES.newVersion).waitFor({ timeout: 30_000 });
    // The new version waits for the person: the page still runs the first one.
    expect(await page.locator(`meta[name="${V2_MARKER}"]`).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({
      path: path.join("test-results", "pwa-update-prompt-phone.png"),
      animations: "disabled",
    });

    // "Not now" puts it away; the next check offers it again.
    await prompt.getByRole("button", { name: UPDATE_MESSAGES.later }).click();
    await prompt.waitFor({ state: "detached" });

    // A person reads the offer before pressing Reload. Pressed within half a second of the page
    // starting, while its scripts still came through the old worker, Chromium under load kept the
    // new worker waiting for good (asking it again 13 s later did not help either).
    await page.reload({ waitUntil: "networkidle" });
    await page.getByRole("heading", { name: MESSAGES.homeHeader }).waitFor();
    // The page already comes from the new server (pages are asked from the network); what changes
    // is the worker, and the page reloads under it.
    const reloaded = page.waitForEvent("load");
    await prompt.getByRole("button", { name: UPDATE_MESSAGES.reload }).click();
    await reloaded;
    await page.getByRole("heading", { name: MESSAGES.homeHeader }).waitFor();
    await prompt.waitFor({ state: "detached" });
    expect(
      await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return {
          waiting: registration?.waiting ?? null,
          controlled: !!navigator.serviceWorker.controller,
        };
      }),
    ).toEqual({ waiting: null, controlled: true });

    // Offline again, the shell that opens is the new version's.
    await context.setOffline(true);
    await page.reload();
    await page.getByRole("heading", { name: MESSAGES.homeHeader }).waitFor();
    expect(await page.locator(`meta[name="${V2_MARKER}"]`).count()).toBe(1);
    await context.setOffline(false);
    expect(unexpected(consoleErrors)).toEqual([]);
  });
});
