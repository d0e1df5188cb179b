import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The guides name commands, paths and settings; these tests keep them true. Decisions (docs/adr)
 * and benchmark records are history and keep the names of their day.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const GUIDES = [
  "README.md",
  "CONTRIBUTING.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md") && name !== "benchmarks.md")
    .map((name) => `docs/${name}`),
];
/** Guides written beside this one that are linked before they are in the tree. */
const WRITTEN_ALONGSIDE = new Set<string>();

const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const scripts = Object.keys(JSON.parse(read("package.json")).scripts as Record<string, string>);

/** `npm run x`, `npm run -s x`, `npm start`, `npm test` as a guide writes them. */
function npmScriptsNamed(text: string): string[] {
  const names = [...text.matchAll(/\bnpm (?:run(?: -s)? ([a-z][\w:-]*)|(start|test)\b)/g)];
  return names.map((match) => match[1] ?? match[2] ?? "");
}

/** Relative link targets of Markdown links, without their #fragment. */
function relativeLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? "")
    .filter((target) => !/^([a-z]+:|#)/.test(target))
    .map((target) => target.replace(/#.*$/, ""));
}

/** Paths in the repository a guide names (`src/...`, `docs/...`, `scripts/...`), placeholders aside. */
function repositoryPaths(text: string): string[] {
  return [...text.matchAll(/(?<=^|[\s`(])((?:src|docs|scripts|e2e|bench|\.ci)\/[\w./-]*\w)/gm)]
    .map((match) => match[1] ?? "")
    .filter((name) => !name.includes("NNNN"));
}

describe("the guides", () => {
  it("finds what it checks (the checks can fail)", () => {
    expect(
      npmScriptsNamed("run `npm run admin -- users`, then npm start; npm run -s bench"),
    ).toEqual(["admin", "start", "bench"]);
    expect(relativeLinks("[a](docs/ai.md#local) [b](https://x.org) [c](#here)")).toEqual([
      "docs/ai.md",
    ]);
    expect(repositoryPaths("see `src/server/config.ts` and docs/adr/NNNN-title.md.")).toEqual([
      "src/server/config.ts",
    ]);
  });

  it.each(GUIDES)("%s names only npm scripts that exist", (file) => {
    const missing = npmScriptsNamed(read(file)).filter((name) => !scripts.includes(name));
    expect(missing).toEqual([]);
  });

  it.each(GUIDES)("%s links only to files that exist", (file) => {
    const missing = relativeLinks(read(file)).filter((target) => {
      const resolved = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), target));
      return !existsSync(path.join(ROOT, resolved)) && !WRITTEN_ALONGSIDE.has(resolved);
    });
    expect(missing).toEqual([]);
  });

  it.each(GUIDES)("%s names only paths that exist", (file) => {
    const missing = repositoryPaths(read(file)).filter(
      (name) => !existsSync(path.join(ROOT, name)) && !WRITTEN_ALONGSIDE.has(name),
    );
    expect(missing).toEqual([]);
  });

  it("the configuration guide lists every setting the server reads, and no other", () => {
    const config = read("src/server/config.ts");
    const start = config.indexOf("const configSchema");
    const schema = config.slice(start, config.indexOf("\n});", start));
    const settings = [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map(
      (match) => match[1] ?? "",
    );
    const documented = [
      ...read("docs/configuration.md").matchAll(/^\| `([A-Z][A-Z0-9_]+)`\s*\|/gm),
    ].map((match) => match[1] ?? "");
    expect(settings.length).toBeGreaterThan(40);
    expect([...documented].sort()).toEqual([...settings].sort());
  });
});
