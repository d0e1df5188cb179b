import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { speechMp3 } from "../../test/audio-fixtures";
import { makeTempDir } from "../../test/harness";
import { testModelBytes } from "../../test/whisper-model";
import { LocalTranscriber } from "../ai-factory";
import { ModelFetcher } from "./model-fetcher";
import type { ModelEntry } from "./whisper-models";

// The model host, locally, serving a generated model whose pin the test supplies: the real
// download, checksum, lock file and backoff run; only the host and the pinned values are the test's.
describe("the Whisper model fetched in the background", () => {
  let dir: string;
  let model: Buffer;
  let pin: ModelEntry;
  let server: Server;
  let host: string;
  let serve: (request: IncomingMessage, response: ServerResponse) => void;
  let requests = 0;

  const full = (_: IncomingMessage, response: ServerResponse) => {
    response.writeHead(200, { "content-length": model.length });
    response.end(model);
  };

  beforeAll(async () => {
    dir = await makeTempDir("vmj-fetch-");
    model = testModelBytes();
    pin = {
      file: "ggml-tiny.bin",
      bytes: model.length,
      sha256: createHash("sha256").update(model).digest("hex"),
      sha1: createHash("sha1").update(model).digest("hex"),
    };
    server = createServer((request, response) => {
      requests += 1;
      serve(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  function setUp(name: string, entry: ModelEntry = pin, at = host) {
    const dataDir = path.join(dir, name);
    const logs: string[] = [];
    const log = { info: (m: string) => logs.push(m), warn: (m: string) => logs.push(`WARN ${m}`) };
    const fetcher = new ModelFetcher({ name: "tiny", entry, dataDir, host: at, log });
    return { dataDir, models: path.join(dataDir, "models"), logs, fetcher };
  }
  const t0 = new Date("2026-11-26T03:00:00Z");
  const later = (ms: number) => new Date(t0.getTime() + ms);

  it("downloads and checks the model, says so once with progress, and the next recording uses Whisper", async () => {
    serve = full;
    const { dataDir, models, logs, fetcher } = setUp("first-start");
    const config = loadConfig({
      NODE_ENV: "test",
      AI_PROVIDER: "local",
      WHISPER_MODEL: "tiny",
      WHISPER_THREADS: "1",
      DATA_DIR: dataDir,
    });
    const transcriber = new LocalTranscriber(config);
    const audio = {
      bytes: await speechMp3("We walked to the harbour and watched the boats."),
      filename: "story.mp3",
      contentType: "audio/mpeg",
    };
    expect(transcriber.hasWhisper()).toBe(false);
    expect((await transcriber.transcribe(audio)).engine).toBe("pocketsphinx");

    expect(await fetcher.runOnce(t0)).toBe("downloaded");
    expect(await readdir(models)).toEqual(["ggml-tiny.bin"]);
    expect((await readFile(path.join(models, "ggml-tiny.bin"))).equals(model)).toBe(true);
    expect(logs[0]).toMatch(/^Whisper model tiny is not in .* yet: downloading ggml-tiny\.bin/);
    expect(logs.filter((l) => l.includes("transcribed with pocketsphinx until"))).toHaveLength(1);
    expect(logs).toContainEqual(
      expect.stringMatching(/^Whisper model download: (25|50|75)% of \d+ MB$/),
    );
    expect(logs.at(-1)).toMatch(
      /downloaded and checked .*: new recordings are transcribed with Whisper$/,
    );
    expect(await fetcher.runOnce(later(60_000))).toBe("present");

    expect(transcriber.hasWhisper()).toBe(true);
    expect((await transcriber.transcribe(audio)).engine).toBe("whisper.cpp ggml-tiny.bin");
  }, 120_000);

  it("deletes a download whose checksum is wrong, retries with a growing wait", async () => {
    serve = full;
    const { models, logs, fetcher } = setUp("wrong-checksum", { ...pin, sha256: "0".repeat(64) });
    const before = requests;
    expect(await fetcher.runOnce(t0)).toBe("failed");
    expect(await readdir(models)).toEqual([]);
    expect(logs.at(-1)).toMatch(
      /^WARN Could not download the Whisper model: Checksum mismatch.*Retrying in 1 min/,
    );
    expect(await fetcher.runOnce(later(30_000))).toBe("waiting");
    expect(await fetcher.runOnce(later(60_000))).toBe("failed");
    expect(logs.at(-1)).toContain("Retrying in 2 min");
    expect(await fetcher.runOnce(later(60_000 + 90_000))).toBe("waiting");
    expect(requests - before).toBe(2);
    expect(await readdir(models)).toEqual([]);
  });

  it("leaves nothing of a cut download and succeeds on the next attempt", async () => {
    serve = (_, response) => {
      response.writeHead(200, { "content-length": model.length });
      response.write(model.subarray(0, model.length >> 1), () => response.destroy());
    };
    const { models, logs, fetcher } = setUp("cut");
    expect(await fetcher.runOnce(t0)).toBe("failed");
    expect(await readdir(models)).toEqual([]);
    expect(logs.at(-1)).toMatch(/^WARN Could not download the Whisper model/);
    serve = full;
    expect(await fetcher.runOnce(later(60_000))).toBe("downloaded");
    expect(await readdir(models)).toEqual(["ggml-tiny.bin"]);
  });

  it("says how to place the model by hand when the host cannot be reached", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { models, logs, fetcher } = setUp("offline", pin, `http://127.0.0.1:${port}`);
    expect(await fetcher.runOnce(t0)).toBe("failed");
    const warning = logs.at(-1) ?? "";
    expect(warning).toContain("ECONNREFUSED");
    expect(warning).toContain(
      `To place it by hand, fetch http://127.0.0.1:${port}/ggml-tiny.bin on a machine with internet, check it is ${pin.bytes} bytes with SHA-256 ${pin.sha256}, and copy it to ${path.join(models, "ggml-tiny.bin")}`,
    );
    expect(await readdir(models)).toEqual([]);
  });

  it("downloads once when two instances share the folder", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived = () => {};
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    serve = (request, response) => {
      arrived();
      held.then(() => full(request, response));
    };
    const before = requests;
    const one = setUp("shared");
    const two = setUp("shared");
    const first = one.fetcher.runOnce(t0);
    await requested;
    expect(await readdir(one.models)).toContain(".ggml-tiny.bin.lock");
    expect(await two.fetcher.runOnce(t0)).toBe("busy");
    expect(two.logs.at(-1)).toBe("Another instance is downloading ggml-tiny.bin; waiting for it");
    release();
    expect(await first).toBe("downloaded");
    expect(await two.fetcher.runOnce(later(60_000))).toBe("present");
    expect(two.logs.at(-1)).toMatch(/^Whisper model ready: /);
    expect(requests - before).toBe(1);
    expect(await readdir(one.models)).toEqual(["ggml-tiny.bin"]);
  });

  it("takes over at once the lock of a download killed half-way; waits for one whose process runs", async () => {
    serve = full;
    const { models, fetcher } = setUp("killed");
    await mkdir(models, { recursive: true });
    const lock = path.join(models, ".ggml-tiny.bin.lock");
    // A process of this machine that ran and is gone (killed mid-download); the lock is fresh.
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => dead.on("exit", resolve));
    // One that runs: this test's process. And one of another machine sharing the folder.
    for (const holder of [`${process.pid}\n${hostname()}\n`, `${dead.pid}\nanother-host\n`]) {
      await writeFile(lock, holder);
      expect(await fetcher.runOnce(t0)).toBe("busy");
    }
    await writeFile(lock, `${dead.pid}\n${hostname()}\n`);
    expect(await fetcher.runOnce(t0)).toBe("downloaded");
    expect(await readdir(models)).toEqual(["ggml-tiny.bin"]);
  });

  it("stops a download when the server stops, leaving nothing behind", async () => {
    let arrived = () => {};
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    serve = (_, response) => {
      response.writeHead(200, { "content-length": model.length });
      response.write(model.subarray(0, 1000));
      arrived();
    };
    const { models, fetcher } = setUp("stopping");
    const controller = new AbortController();
    const run = fetcher.runOnce(t0, controller.signal);
    await requested;
    controller.abort(new Error("the server is stopping"));
    await expect(run).rejects.toThrow("the server is stopping");
    expect(await readdir(models)).toEqual([]);
  });
});
