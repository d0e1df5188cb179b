// Prints vitest's JSON result as one plain closing line: "Tests: N passed, N failed, N skipped".
import { readFileSync } from "node:fs";

const result = JSON.parse(readFileSync("test-results/vitest.json", "utf8"));
process.stdout.write(
  `Tests: ${result.numPassedTests} passed, ${result.numFailedTests} failed, ${result.numPendingTests + result.numTodoTests} skipped\n`,
);
