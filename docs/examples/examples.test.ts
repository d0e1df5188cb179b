import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const EXAMPLES = import.meta.dirname;
const ROOT = path.resolve(EXAMPLES, "..", "..");
const UNIT = path.join(EXAMPLES, "voice-memory-journal.service");
const CADDYFILE = path.join(EXAMPLES, "Caddyfile");

const installed = (program: string) =>
  spawnSync("sh", ["-c", `command -v ${program}`]).status === 0;
// Each example is checked by its own program where the machine has it; the test's name says when not.
const SYSTEMD = installed("systemd-analyze");
const CADDY = installed("caddy");

describe("the example files in docs/examples", () => {
  it(SYSTEMD
    ? "the systemd unit passes systemd-analyze verify"
    : "the systemd unit passes systemd-analyze verify (skipped: systemd-analyze is not installed)", {
    skip: !SYSTEMD,
  }, () => {
    const result = spawnSync("systemd-analyze", ["verify", "--man=no", UNIT], {
      encoding: "utf8",
    });
    // Unknown keys and bad values are only warnings (exit 0) that name the file.
    const complaints = `${result.stdout}${result.stderr}`
      .split("\n")
      .filter((line) => line.includes("voice-memory-journal"));
    expect(complaints).toEqual([]);
    expect(result.status).toBe(0);
  });

  it("the systemd unit runs what npm start runs", () => {
    const unit = readFileSync(UNIT, "utf8");
    const start: string = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts
      .start;
    const commands = [...unit.matchAll(/^ExecStart(?:Pre)?=\/usr\/bin\/node (\S+)$/gm)].map(
      (match) => match[1],
    );
    expect(commands).toEqual(["scripts/build-if-stale.mjs", "dist/server/main.js"]);
    expect(start).toBe(`node ${commands[0]} && node ${commands[1]}`);
  });

  it(CADDY
    ? "the Caddyfile passes caddy validate"
    : "the Caddyfile passes caddy validate (skipped: Caddy is not installed; apt-get install caddy)", {
    skip: !CADDY,
  }, () => {
    const result = spawnSync(
      "caddy",
      ["validate", "--config", CADDYFILE, "--adapter", "caddyfile"],
      { encoding: "utf8" },
    );
    expect(result.stdout + result.stderr).toContain("Valid configuration");
    expect(result.status).toBe(0);
  });
});
