import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ClientRouteName } from "../shared/routes";

/**
 * The screens whose code the page should start fetching with its HTML, by the module the client
 * router loads lazily for them (as Vite's build manifest names it: relative to src/client). A
 * memory or profile opened from a shared link or a memory book's QR code would otherwise wait for
 * the main script to run before asking for its own code (ADR 0030).
 */
export const PRELOADED_SCREENS: Partial<Record<ClientRouteName, string>> = {
  memory: "features/memories/components/memory-page.tsx",
  profile: "features/profiles/components/profile-page.tsx",
};

/** One chunk of Vite's build manifest (`build.manifest`), as far as preloading needs it. */
export interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

export type BuildManifest = Record<string, ManifestChunk>;

/** What Vite names its hashed scripts; anything else is not put in the page. */
const ASSET_SCRIPT = /^assets\/[\w.-]+\.js$/;

/**
 * For each preloaded screen, the scripts its code needs that the entry does not already load
 * (index.html preloads those itself), as absolute paths. A screen missing from the manifest gets
 * none: the page then loads its code as before.
 */
export function routePreloads(manifest: BuildManifest): Map<ClientRouteName, string[]> {
  const reach = (key: string, into: Set<string>) => {
    if (into.has(key) || !manifest[key]) return;
    into.add(key);
    for (const imported of manifest[key].imports ?? []) reach(imported, into);
  };
  const loadedByEntry = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) {
    if (chunk.isEntry) reach(key, loadedByEntry);
  }
  const preloads = new Map<ClientRouteName, string[]>();
  for (const [route, module] of Object.entries(PRELOADED_SCREENS) as [ClientRouteName, string][]) {
    if (!manifest[module]) continue;
    const needed = new Set<string>();
    reach(module, needed);
    const files = [...needed]
      .filter((key) => !loadedByEntry.has(key))
      .map((key) => manifest[key]?.file ?? "")
      .filter((file) => ASSET_SCRIPT.test(file))
      .map((file) => `/${file}`);
    preloads.set(route, files);
  }
  return preloads;
}

/** The preloads of a built client (`dist/client/.vite/manifest.json`); none without a manifest. */
export async function readRoutePreloads(
  clientDir: string,
): Promise<Map<ClientRouteName, string[]>> {
  try {
    const text = await readFile(path.join(clientDir, ".vite", "manifest.json"), "utf8");
    return routePreloads(JSON.parse(text) as BuildManifest);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Map();
    throw error;
  }
}
