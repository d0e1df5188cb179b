// Runs every benchmark in bench/ (each a script printing its own figures), one after another.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";

const print = (line: string) => process.stdout.write(`${line}\n`);

const dir = import.meta.dirname;
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts") && name !== "run.ts")
  .filter((name) => only.length === 0 || only.some((o) => name.includes(o)))
  .sort();

let failed = 0;
for (const file of files) {
  print(`\n== ${file}`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(dir, file)], {
    stdio: "inherit",
  });
  if (result.status !== 0) {
    failed += 1;
    print(`${file} failed (exit ${result.status ?? result.signal})`);
  }
}
process.exit(failed > 0 ? 1 : 0);
