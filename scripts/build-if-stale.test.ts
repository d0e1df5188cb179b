import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const SCRIPT = path.resolve("scripts/build-if-stale.mjs");

/**
 * The rule `npm start` builds by, on a project folder of real files: its `npm run build` writes
 * the two outputs the real build ends with and counts its runs in build.log.
 */
describe("npm start's build step", () => {
  let root: string;
  const at = (name: string) => path.join(root, name);
  const builds = async () =>
    (await readFile(at("build.log"), "utf8").catch(() => "")).split("\n").filter(Boolean).length;
  const start = () => run("node", [SCRIPT], { cwd: root });
  /** Sets a file's modification time `seconds` from now (real mtimes, as a checkout or edit sets them). */
  const touch = (name: string, seconds: number) => {
    const when = new Date(Date.now() + seconds * 1000);
    return utimes(at(name), when, when);
  };

  beforeEach(async () => {
    root = await makeProject();
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function makeProject(): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), "vmj-start-"));
    const build = [
      'const fs = require("node:fs");',
      'fs.mkdirSync("dist/client/.vite", { recursive: true });',
      'fs.mkdirSync("dist/server", { recursive: true });',
      'fs.writeFileSync("dist/client/.vite/manifest.json", "{}");',
      'fs.writeFileSync("dist/server/main.js", "");',
      'fs.appendFileSync("build.log", "built\\n");',
      "process.exit(Number(process.env.BUILD_EXIT ?? 0));",
    ].join("\n");
    await writeFile(path.join(dir, "build.cjs"), build);
    await writeFile(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "start-test", private: true, scripts: { build: "node build.cjs" } }),
    );
    await mkdir(path.join(dir, "src/server"), { recursive: true });
    await writeFile(path.join(dir, "src/server/main.ts"), "export {};");
    await writeFile(path.join(dir, "src/server/main.test.ts"), "export {};");
    return dir;
  }

  it("builds when there is no build, then not again until a source is newer than the build", async () => {
    const first = await start();
    expect(first.stdout).toContain("Building: no build yet");
    expect(await builds()).toBe(1);

    await start();
    await start();
    expect(await builds()).toBe(1);

    // A test file is not built: editing one needs no rebuild.
    await touch("src/server/main.test.ts", 60);
    await start();
    expect(await builds()).toBe(1);

    await touch("src/server/main.ts", 60);
    const third = await start();
    expect(third.stdout).toContain(`${path.join("src", "server", "main.ts")} changed`);
    expect(await builds()).toBe(2);
  });

  it("rebuilds after package.json changes (an upgrade) and when one half of the build is missing", async () => {
    await start();
    await touch("package.json", 60);
    await start();
    expect(await builds()).toBe(2);

    await rm(at("dist/server/main.js"));
    await start();
    expect(await builds()).toBe(3);
  });

  it("rebuilds when one output is older than the sources (an interrupted build)", async () => {
    await start();
    await touch("dist/server/main.js", -60);
    await start();
    expect(await builds()).toBe(2);
  });

  it("fails when the build fails, so the server is not started on an old build", async () => {
    const failing = run("node", [SCRIPT], { cwd: root, env: { ...process.env, BUILD_EXIT: "3" } });
    await expect(failing).rejects.toMatchObject({ code: 3 });
  });
});
