import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuildManifest, readRoutePreloads, routePreloads } from "./route-preloads";
import { makeTempDir } from "./test/harness";

const MEMORY_PAGE = "features/memories/components/memory-page.tsx";

/** A manifest shaped as Vite writes it: the entry, shared chunks, and a lazily loaded screen. */
const MANIFEST: BuildManifest = {
  "index.html": { file: "assets/index-AAAA.js", isEntry: true, imports: ["_jsx-runtime.js"] },
  "_jsx-runtime.js": { file: "assets/jsx-runtime-BBBB.js" },
  "_dialog.js": { file: "assets/dialog-CCCC.js", imports: ["_jsx-runtime.js", "_focus.js"] },
  "_focus.js": { file: "assets/focus-DDDD.js" },
  [MEMORY_PAGE]: {
    file: "assets/memory-page-EEEE.js",
    imports: ["_jsx-runtime.js", "_dialog.js", "_odd.js"],
  },
  "_odd.js": { file: 'assets/x.js"><script>alert(1)</script>' },
};

describe("routePreloads", () => {
  it("lists a screen's scripts and what they import, without those the entry already loads", () => {
    const preloads = routePreloads(MANIFEST);
    expect(preloads.get("memory")).toEqual([
      "/assets/memory-page-EEEE.js",
      "/assets/dialog-CCCC.js",
      "/assets/focus-DDDD.js",
    ]);
  });

  it("gives no preloads to a screen the build does not have, nor to other screens", () => {
    const preloads = routePreloads(MANIFEST);
    expect(preloads.has("profile")).toBe(false);
    expect(preloads.has("home")).toBe(false);
  });

  it("never passes on a file name that is not one of Vite's hashed scripts", () => {
    expect(routePreloads(MANIFEST).get("memory")?.join(" ")).not.toContain("<script>");
  });
});

describe("readRoutePreloads", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await makeTempDir("vmj-preloads-");
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("has none for a client built without a manifest", async () => {
    expect((await readRoutePreloads(dir)).size).toBe(0);
  });

  it("reads the build's manifest", async () => {
    await mkdir(path.join(dir, ".vite"));
    await writeFile(path.join(dir, ".vite", "manifest.json"), JSON.stringify(MANIFEST));
    expect((await readRoutePreloads(dir)).get("memory")?.[0]).toBe("/assets/memory-page-EEEE.js");
  });
});
