import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/harness";
import { testModelBytes } from "../../test/whisper-model";
import {
  downloadModel,
  inspectModel,
  type ModelEntry,
  modelPath,
  WHISPER_MODELS,
} from "./whisper-models";

const ROOT = path.resolve(import.meta.dirname, "../../../..");

describe("Whisper models", () => {
  let dir: string;
  let model: Buffer;
  let server: Server;
  let host: string;
  let entry: ModelEntry;
  const requests: string[] = [];

  beforeAll(async () => {
    dir = await makeTempDir("vmj-models-");
    model = testModelBytes();
    // The model host, locally: serves the generated model under both published names.
    server = createServer((request, response) => {
      requests.push(request.url ?? "");
      if (request.url === "/ggml-tiny.bin" || request.url === "/ggml-base.bin") {
        response.writeHead(200, { "content-length": model.length });
        response.end(model);
      } else {
        response.writeHead(404).end("Entry not found");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    entry = {
      file: "ggml-tiny.bin",
      bytes: model.length,
      sha256: createHash("sha256").update(model).digest("hex"),
      sha1: createHash("sha1").update(model).digest("hex"),
    };
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it("pins the published size and checksums of tiny and base", () => {
    expect(WHISPER_MODELS.base).toMatchObject({ file: "ggml-base.bin", bytes: 147_951_465 });
    expect(WHISPER_MODELS.tiny).toMatchObject({ file: "ggml-tiny.bin", bytes: 77_691_713 });
    for (const m of Object.values(WHISPER_MODELS)) {
      expect(m.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(m.sha1).toMatch(/^[0-9a-f]{40}$/);
    }
  });

  it("resolves WHISPER_MODEL as a name under DATA_DIR/models or as a path", () => {
    expect(modelPath("base", "/srv/journal")).toBe("/srv/journal/models/ggml-base.bin");
    expect(modelPath("/opt/whisper/ggml-small.bin", "/srv/journal")).toBe(
      "/opt/whisper/ggml-small.bin",
    );
  });

  it("downloads a model whose checksum matches into DATA_DIR/models", async () => {
    const dataDir = path.join(dir, "match");
    const file = await downloadModel({ name: "tiny", dataDir, host, entry });
    expect(file).toBe(path.join(dataDir, "models", "ggml-tiny.bin"));
    expect((await readFile(file)).equals(model)).toBe(true);
    expect(await readdir(path.join(dataDir, "models"))).toEqual(["ggml-tiny.bin"]);
    expect(await inspectModel(file)).toMatchObject({ multilingual: true, state: 64 });
  });

  it("deletes what a killed download left behind, but not a download still being written", async () => {
    const dataDir = path.join(dir, "leftovers");
    const models = path.join(dataDir, "models");
    await mkdir(models, { recursive: true });
    const abandoned = path.join(models, ".ggml-tiny.bin.0a1b2c3d4e5f.partial");
    const running = path.join(models, ".ggml-tiny.bin.9f8e7d6c5b4a.partial");
    const otherModel = path.join(models, ".ggml-base.bin.0a1b2c3d4e5f.partial");
    for (const file of [abandoned, running, otherModel]) await writeFile(file, "half a model");
    const anHourAgo = new Date(Date.now() - 60 * 60 * 1000);
    await utimes(abandoned, anHourAgo, anHourAgo);
    await utimes(otherModel, anHourAgo, anHourAgo);
    await downloadModel({ name: "tiny", dataDir, host, entry });
    expect((await readdir(models)).sort()).toEqual([
      ".ggml-base.bin.0a1b2c3d4e5f.partial",
      ".ggml-tiny.bin.9f8e7d6c5b4a.partial",
      "ggml-tiny.bin",
    ]);
  });

  it("refuses a download whose checksum does not match and leaves nothing behind", async () => {
    const dataDir = path.join(dir, "mismatch");
    const wrong = { ...entry, sha256: "0".repeat(64) };
    await expect(downloadModel({ name: "tiny", dataDir, host, entry: wrong })).rejects.toThrow(
      /^Checksum mismatch for ggml-tiny\.bin: .* The file was deleted\.$/,
    );
    expect(await readdir(path.join(dataDir, "models"))).toEqual([]);
  });

  it("refuses a download of the wrong size and a missing file", async () => {
    const dataDir = path.join(dir, "short");
    await expect(
      downloadModel({ name: "tiny", dataDir, host, entry: { ...entry, bytes: 1000 } }),
    ).rejects.toThrow(/larger than 1000 bytes/);
    await expect(
      downloadModel({ name: "tiny", dataDir, host, entry: { ...entry, file: "ggml-nope.bin" } }),
    ).rejects.toThrow(/HTTP 404/);
    expect(await readdir(path.join(dataDir, "models"))).toEqual([]);
  });

  it("`npm run models -- download base` checks the pinned checksum: a different file is refused", async () => {
    const dataDir = path.join(dir, "cli");
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(ROOT, "scripts/models.ts"), "download", "base"],
      {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, WHISPER_MODEL_HOST: host, NODE_ENV: "test" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(1);
    expect(output).toContain(`Downloading ggml-base.bin (148 MB) from ${host}`);
    expect(output).toMatch(/Checksum mismatch for ggml-base\.bin/);
    expect(requests).toContain("/ggml-base.bin");
    expect(await readdir(path.join(dataDir, "models"))).toEqual([]);
  }, 60_000);

  it.each([
    ["missing", null, /is missing/],
    ["cut short", (b: Buffer) => b.subarray(0, b.length - 1), /is cut short/],
    ["cut in the vocabulary", (b: Buffer) => b.subarray(0, 70_000), /is cut short/],
    ["not a model", () => Buffer.from("<!doctype html>"), /is not a whisper\.cpp model/],
  ])("says what is wrong with a model file that is %s", async (name, damage, message) => {
    const file = path.join(dir, `${name.replace(/\s/g, "-")}.bin`);
    if (damage) await writeFile(file, damage(model));
    await expect(inspectModel(file)).rejects.toThrow(message);
  });
});
