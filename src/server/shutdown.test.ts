import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

// Real signals, real exit codes: a child process runs the real shutdown handling (through tsx), as
// emitting signals or uncaught errors inside the test runner would reach the runner's own handlers.
const FIXTURE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "test/fixtures/shutdown-process.ts",
);

interface Line {
  level: string;
  msg: string;
  [field: string]: unknown;
}

interface Running {
  child: ChildProcess;
  lines: Line[];
  stderr(): string;
  /** Resolves once a line with this message has been logged; rejects if the process ends first. */
  logged(msg: string): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Children still running when a test ends (it failed): killed, so none outlives the run. */
const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  children.clear();
});

function start(env: Record<string, string>): Running {
  const child = spawn(process.execPath, ["--import", "tsx", FIXTURE], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  const lines: Line[] = [];
  let buffered = "";
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split("\n");
    buffered = parts.pop() ?? "";
    for (const part of parts) lines.push(JSON.parse(part) as Line);
    child.emit("lines");
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  const logged = (msg: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (lines.some((l) => l.msg === msg)) resolve();
      };
      check();
      child.on("lines", check);
      void exited.then(() =>
        reject(new Error(`exited before logging "${msg}": ${JSON.stringify(lines)} ${stderr}`)),
      );
    });
  return { child, lines, stderr: () => stderr, logged, exited };
}

const messages = (lines: Line[]) => lines.map((l) => l.msg);

describe("shutdown", () => {
  it("closes everything once on SIGTERM and exits 0", async () => {
    const p = start({ SCENARIO: "clean" });
    await p.logged("ready");
    p.child.kill("SIGTERM");
    expect(await p.exited).toMatchObject({ code: 0, signal: null });
    expect(messages(p.lines)).toEqual(["ready", "shutting down", "closing", "closed"]);
    expect(p.lines[1]).toMatchObject({ level: "info", signal: "SIGTERM" });
    expect(p.stderr()).toBe("");
  });

  it("ends a close that hangs once the grace period has passed, with exit code 1", async () => {
    const p = start({ SCENARIO: "hang", GRACE_MS: "300" });
    await p.logged("ready");
    p.child.kill("SIGTERM");
    const exit = await p.exited;
    expect(exit.code).toBe(1);
    expect(messages(p.lines)).toEqual([
      "ready",
      "shutting down",
      "closing",
      "shutdown outlasted its grace period: exiting now",
    ]);
    expect(p.lines.at(-1)).toMatchObject({ level: "error", graceMs: 300 });
  });

  it("ends at once on a second signal while closing", async () => {
    const p = start({ SCENARIO: "hang", GRACE_MS: "60000" });
    await p.logged("ready");
    p.child.kill("SIGTERM");
    await p.logged("closing");
    const sent = Date.now();
    p.child.kill("SIGINT");
    const exit = await p.exited;
    expect(exit.code).toBe(1);
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(p.lines.at(-1)).toMatchObject({
      level: "error",
      msg: "second signal while shutting down: exiting now",
      signal: "SIGINT",
    });
  });

  it.each([
    ["throw", "boom in a timer"],
    ["reject", "nobody caught this"],
  ])("logs an uncaught error (%s), closes cleanly and exits 1", async (scenario, message) => {
    const p = start({ SCENARIO: scenario });
    expect((await p.exited).code).toBe(1);
    expect(p.lines.find((l) => l.msg === "uncaught error: shutting down")).toMatchObject({
      level: "error",
      err: message,
    });
    expect(messages(p.lines).slice(-2)).toEqual(["closing", "closed"]);
  });

  it("logs a close that fails and exits 1", async () => {
    const p = start({ SCENARIO: "close-fails" });
    await p.logged("ready");
    p.child.kill("SIGTERM");
    expect((await p.exited).code).toBe(1);
    expect(p.lines.at(-1)).toMatchObject({
      level: "error",
      msg: "shutdown failed",
      err: "database would not close",
    });
  });
});
