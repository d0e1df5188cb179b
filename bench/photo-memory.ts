import sharp from "sharp";
import { ApiClient, residentMb, serverFixture } from "../e2e/api-client";
import { startServer } from "../e2e/harness";
import { noisyPhoto } from "../src/server/test/image-fixtures";
import type { Memory } from "../src/shared/schemas";
import { loadAverage, markdownTable } from "./lib/load";

/**
 * Memory and time of adding photos, on the built app over loopback (`npm run build` first): ten
 * 12-megapixel camera-like JPEGs are added one after another to one memory, and the server's
 * resident memory is read before, at its peak (every 100 ms) and 5 s after the last, once as the
 * server starts by default and once with MALLOC_ARENA_MAX=2 (as the example systemd unit sets it).
 * Beside it, a floor from the same run: the same three sizes made by sharp directly in this
 * process. Targets, reported and not asserted: RSS 5 s after the ten photos within 200 MB of the
 * start, a photo in under 0.5 s.
 */
const PHOTOS = 10;
const SETTLE_MS = 5000;

const photo = await noisyPhoto(4000, 3000);
const mp3 = await serverFixture("tone.mp3");
const mb = (n: number) => n.toFixed(0);
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** The three sizes as the server makes them, by sharp in this process: the floor. */
async function floorMs(): Promise<number> {
  sharp.concurrency(1);
  sharp.cache(false);
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const full = await sharp(photo)
      .rotate()
      .resize({ width: 4096, height: 4096, fit: "inside", withoutEnlargement: true })
      .jpeg({ quality: 85 })
      .toBuffer();
    await sharp(full)
      .resize({ width: 1600, height: 1600, fit: "inside" })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer();
    await sharp(full)
      .resize({ width: 320, height: 320, fit: "inside" })
      .jpeg({ quality: 78, mozjpeg: true })
      .toBuffer();
    times.push(performance.now() - started);
  }
  return median(times);
}

async function run(name: string, env: Record<string, string>): Promise<string[]> {
  const server = await startServer({
    RATE_LIMIT_PHOTOS_PER_HOUR: "1000",
    LOG_LEVEL: "warn",
    ...env,
  });
  try {
    const pid = server.process.pid ?? 0;
    const client = new ApiClient(server.url);
    await client.register("photo_bench");
    const upload = await client.upload(mp3);
    const { url: audioUrl } = (await upload.json()) as { url: string };
    const created = await client.json<Memory>("POST", "/api/memories", {
      title: "The old harbour",
      audioUrl,
      transcript: "We walked to the harbour.",
      summary: "A walk.",
      tags: ["harbour"],
      recordedAt: new Date().toISOString(),
    });
    if (created.status !== 201) throw new Error(`creating the memory answered ${created.status}`);
    const before = await residentMb(pid);
    let peak = before;
    const sampler = setInterval(() => {
      residentMb(pid)
        .then((now) => {
          peak = Math.max(peak, now);
        })
        .catch(() => undefined);
    }, 100);
    const times: number[] = [];
    for (let i = 0; i < PHOTOS; i++) {
      const form = new FormData();
      form.append("photo", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "photo.jpg");
      const started = performance.now();
      const res = await client.request("POST", `/api/memories/${created.data.id}/photos`, form);
      times.push(performance.now() - started);
      if (res.status !== 201)
        throw new Error(`photo ${i} answered ${res.status} ${await res.text()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    clearInterval(sampler);
    const after = await residentMb(pid);
    peak = Math.max(peak, after);
    return [
      name,
      String(PHOTOS),
      mb(before),
      mb(peak),
      mb(after),
      mb(after - before),
      seconds(median(times)),
      seconds(Math.max(...times)),
    ];
  } finally {
    await server.stop();
    await server.cleanup();
  }
}

const load = loadAverage();
const rows = [await run("default", {}), await run("MALLOC_ARENA_MAX=2", { MALLOC_ARENA_MAX: "2" })];
const floor = await floorMs();
process.stdout.write(
  `photo-memory: ${PHOTOS} photos of 12 MP (${mb(photo.length / 1024 / 1024)} MB JPEG) added one after another over HTTP; load average ${load}\n\n`,
);
process.stdout.write(
  markdownTable(
    [
      "server",
      "photos",
      "RSS at start (MB)",
      "peak RSS (MB)",
      "RSS 5 s after (MB)",
      "growth after (MB)",
      "per photo median (s)",
      "per photo max (s)",
    ],
    rows,
  ),
);
process.stdout.write(
  `\nfloor: the three sizes by sharp in this process, median of 3: ${seconds(floor)} s per photo\n`,
);
