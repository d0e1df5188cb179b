// `npm test`'s vitest half: the server and client projects (two workers) and the browser journeys
// run as two processes side by side, since the journeys mostly wait on Chromium and the server.
// Each line is prefixed with its half; the closing line sums both: "Tests: N passed, N failed, N skipped".
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const HALVES = [
  { name: "unit", args: ["--project", "server", "--project", "client", "--maxWorkers=2"] },
  { name: "e2e", args: ["--project", "e2e"] },
];

mkdirSync("test-results", { recursive: true });

function run({ name, args }) {
  const child = spawn(
    process.execPath,
    [
      "node_modules/vitest/vitest.mjs",
      "run",
      ...args,
      ...process.argv.slice(2),
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=test-results/${name}.json`,
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } },
  );
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) =>
      process.stdout.write(`[${name}] ${line}\n`),
    );
  }
  return new Promise((resolve) => child.on("close", (code) => resolve({ name, code: code ?? 1 })));
}

const results = await Promise.all(HALVES.map(run));
const totals = { passed: 0, failed: 0, skipped: 0 };
for (const { name, code } of results) {
  try {
    const json = JSON.parse(readFileSync(`test-results/${name}.json`, "utf8"));
    totals.passed += json.numPassedTests;
    totals.failed += json.numFailedTests;
    totals.skipped += json.numPendingTests + json.numTodoTests;
  } catch {
    process.stdout.write(`[${name}] no results written (exit ${code})\n`);
  }
}
process.stdout.write(
  `Tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`,
);
process.exit(results.every((result) => result.code === 0) ? 0 : 1);
