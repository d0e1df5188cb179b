import { open, readdir, readFile, stat, truncate } from "node:fs/promises";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOWNLOAD_CHECK_HEADER } from "../src/shared/constants";
import { MESSAGES } from "../src/shared/messages";
import { ApiClient, residentMb } from "./api-client";
import { type JourneySetup, seedMemory, startJourney } from "./fixtures";
import { addClientCookies, newPage, type RunningServer } from "./harness";

/** Four recordings of 256 MiB each: a one-gigabyte backup (sparse files, cheap to make). */
const RECORDINGS = 4;
const RECORDING_BYTES = 256 * 1024 * 1024;
const MB = 1024 * 1024;

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Resident memory of every Chromium process this test started (descendants named chrom*), in MB. */
async function chromiumResidentMb(): Promise<number> {
  const parents = new Map<number, { ppid: number; name: string }>();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // pid (comm) state ppid ...: comm may hold spaces, so split after its closing parenthesis.
    const close = stat.lastIndexOf(")");
    if (close < 0) continue;
    const name = stat.slice(stat.indexOf("(") + 1, close);
    const ppid = Number(stat.slice(close + 2).split(" ")[1]);
    parents.set(Number(entry), { ppid, name });
  }
  const ours = (pid: number): boolean => {
    for (let at = parents.get(pid)?.ppid; at; at = parents.get(at)?.ppid) {
      if (at === process.pid) return true;
    }
    return false;
  };
  let total = 0;
  for (const [pid, { name }] of parents) {
    if (name.startsWith("chrom") && ours(pid)) total += await residentMb(pid).catch(() => 0);
  }
  return total;
}

/**
 * Whether the zip is whole: its end-of-central-directory record (in the last 64 KiB) says the
 * directory ends where the record starts, which a cut download cannot satisfy.
 */
async function zipIsWhole(file: string, size: number): Promise<boolean> {
  const handle = await open(file);
  try {
    const length = Math.min(size, 64 * 1024);
    const tail = Buffer.alloc(length);
    await handle.read(tail, 0, length, size - length);
    const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (eocd < 0) return false;
    // ZIP64 archives (over 4 GiB) mark these 0xffffffff; ours stays under that.
    const directorySize = tail.readUInt32LE(eocd + 12);
    const directoryOffset = tail.readUInt32LE(eocd + 16);
    return directoryOffset + directorySize === size - length + eocd;
  } finally {
    await handle.close();
  }
}

describe("downloading a large backup", () => {
  let journey: JourneySetup;
  let server: RunningServer;
  let browser: Browser;
  let owner: ApiClient;

  beforeAll(async () => {
    journey = await startJourney({ name: "big-backup" });
    ({ server, browser } = journey);
    owner = new ApiClient(server.url);
    await owner.register("big_backup");
    for (let i = 0; i < RECORDINGS; i++) {
      await seedMemory(owner, {
        title: `Long evening ${i + 1}`,
        transcript: "We talked.",
        summary: "A long talk.",
        tags: [],
      });
    }
    // Grow each stored recording in place: the backup copies the file's bytes as they are.
    const audio = (await filesUnder(server.dataDir)).filter((file) => file.endsWith(".mp3"));
    expect(audio).toHaveLength(RECORDINGS);
    for (const file of audio) await truncate(file, RECORDING_BYTES);
  });
  afterAll(async () => {
    await journey?.close();
  });

  it("saves a one-gigabyte zip to disk while the page's memory stays flat", async () => {
    const { context, page } = await newPage(browser, { acceptDownloads: true });
    await addClientCookies(context, server.url, owner.cookieHeader());
    const fetched: { url: string; check: boolean; navigation: boolean }[] = [];
    page.on("request", (request) => {
      if (!request.url().includes("/api/backup-memories")) return;
      fetched.push({
        url: request.url(),
        check: Boolean(request.headers()[DOWNLOAD_CHECK_HEADER]),
        navigation: request.isNavigationRequest(),
      });
    });
    await page.goto(server.url);
    const button = page.getByRole("button", { name: MESSAGES.backupMemories });
    await button.waitFor();

    const cdp = await context.newCDPSession(page);
    await cdp.send("HeapProfiler.collectGarbage");
    const heap = async () =>
      (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number; totalSize: number };
    const before = (await heap()).usedSize;
    let peak = before;
    const chromiumBeforeMb = await chromiumResidentMb();
    expect(chromiumBeforeMb).toBeGreaterThan(0);
    let peakChromiumMb = chromiumBeforeMb;
    // Sampled while the bytes flow (the download ends the sampling, not a timer).
    let downloading = true;
    const sampling = (async () => {
      while (downloading) {
        peak = Math.max(peak, (await heap()).usedSize);
        peakChromiumMb = Math.max(peakChromiumMb, await chromiumResidentMb());
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();

    const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
    // The toast says so as the download starts (it is gone long before a gigabyte arrives).
    await page.getByText(MESSAGES.backupSuccessful).first().waitFor();
    const file = await download.path();
    downloading = false;
    await sampling;
    expect(await download.failure()).toBeNull();

    // The file on disk is the whole zip the server sent: its directory ends where the file does,
    // and it holds every recording's bytes.
    expect(download.suggestedFilename()).toMatch(/^memories-backup-big_backup-.*\.zip$/);
    const size = (await stat(file)).size;
    expect(size).toBeGreaterThan(RECORDINGS * RECORDING_BYTES);
    expect(await zipIsWhole(file, size)).toBe(true);

    // The page itself fetched only the check; the zip went from the server to the disk.
    expect(fetched.filter(({ navigation }) => !navigation)).toEqual([
      { url: `${server.url}/api/backup-memories`, check: true, navigation: false },
    ]);
    // The page's JavaScript heap never held the zip: it grew by less than 20 MB at its peak.
    expect((peak - before) / MB).toBeLessThan(20);
    // Nor did Chromium hold it anywhere (a Blob lives in the browser process, not the JS heap):
    // all its processes together grew by far less than the zip.
    expect(peakChromiumMb - chromiumBeforeMb).toBeLessThan(size / MB / 4);
    await context.close();
  });
});
