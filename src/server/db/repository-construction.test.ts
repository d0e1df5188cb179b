import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Repositories are built in one place, compose.ts (the composition function main.ts and the tests
 * use), so each feature gets the same instances and no service or background task builds a
 * second way to its tables. This reads the server's source (tests aside) and fails when another
 * file constructs one.
 */
const SERVER = path.resolve(import.meta.dirname, "..");

/** `new XRepo(` and the rate-limit store (the owner of rate_limits). */
const CONSTRUCTION = /\bnew\s+([A-Z]\w*Repo|RateLimitCounters)\s*\(/g;

function constructed(source: string): string[] {
  return [...source.matchAll(CONSTRUCTION)].map((match) => match[1] ?? "");
}

describe("repository construction", () => {
  it("finds constructions (the check can fail)", () => {
    expect(constructed("const a = new UsersRepo(db); new RateLimitCounters(db)")).toEqual([
      "UsersRepo",
      "RateLimitCounters",
    ]);
    expect(constructed("type X = UsersRepo; // new sessions repo")).toEqual([]);
  });

  it("happens in compose.ts only", async () => {
    const entries = await readdir(SERVER, { withFileTypes: true, recursive: true });
    const elsewhere: string[] = [];
    let inCompose = 0;
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith(".ts") || entry.name.endsWith(".test.ts")) {
        continue;
      }
      const file = path.relative(SERVER, path.join(entry.parentPath, entry.name));
      if (file.startsWith(`test${path.sep}`)) continue;
      const found = constructed(await readFile(path.join(SERVER, file), "utf8"));
      if (file === "compose.ts") inCompose = found.length;
      else elsewhere.push(...found.map((name) => `${file} constructs ${name}`));
    }
    expect(elsewhere).toEqual([]);
    expect(inCompose).toBeGreaterThan(10);
  });
});
