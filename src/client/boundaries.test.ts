import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The client's import boundaries (CONTRIBUTING.md): a feature imports `components/`, `lib/`,
 * `src/shared` and itself, not another feature; `app/` composes features. The exceptions, each
 * with its reason, are the only crossings allowed. Client and server never import each other.
 * Tests may cross features.
 */
const ALLOWED_CROSSINGS: Record<string, { imports: RegExp; why: string }[]> = {
  "*": [
    { imports: /^auth\/api\//, why: "the session user is app-wide" },
    {
      imports: /^journals\/(api\/|open-journal$)/,
      why: "the user's journals and the open one are app-wide, as the session user is",
    },
  ],
  account: [
    {
      imports: /^(memories|profiles)\/api\//,
      why: "a restored backup refreshes the memory lists, a changed account its profile",
    },
  ],
  comments: [{ imports: /^recorder\/components\/recorder$/, why: "a spoken comment is recorded" }],
  journals: [
    {
      imports: /^recording-link\/components\/recording-link-actions$/,
      why: "the family page offers a storyteller's recording link and fridge card",
    },
  ],
  memories: [
    {
      imports: /^auth\/components\/save-account-dialog$/,
      why: "the list of unclaimed recordings offers to save them to an account",
    },
    {
      imports: /^photos\/(components\/(memory-photos|photo-cover)|api\/add-photo)$/,
      why: "photos belong to memories: the memory page, its list covers",
    },
    {
      imports: /^transcripts\/(components\/(better-transcript|follow-along)|api\/transcript)$/,
      why: "the memory page reads its transcript along with the audio, with captions, and offers the owner a better one",
    },
    {
      imports: /^comments\/components\/new-replies-mark$/,
      why: "a storyteller sees which of their stories have new replies, in the list and on the page",
    },
  ],
  photos: [
    {
      imports: /^memories\/(api\/(get-memories|memory-keys)|processing\/memory-saved-events)$/,
      why: "photos refresh the memory lists by their query keys and wait for a saved memory",
    },
  ],
  "recording-link": [
    {
      imports: /^memories\/processing\/run-processing$/,
      why: "a story recorded through a link is followed through the same processing stages",
    },
    {
      imports: /^share-links\/components\/created-link$/,
      why: "a new recording link's address is shown once, as a share link's is",
    },
  ],
  reminders: [
    {
      imports: /^memories\/processing\/memory-saved-events$/,
      why: "the weekly reminder is offered after a memory is saved",
    },
  ],
  transcripts: [
    {
      imports: /^memories\/(api\/(get-memories|memory-keys)|processing\/use-regenerate)$/,
      why: "a transcript is a memory's: cached under its keys, a new one refreshes it and the memory lists, and transcribing again runs its processing",
    },
  ],
};

const CLIENT = path.join(import.meta.dirname);
const SRC = path.dirname(CLIENT);
const FEATURES = path.join(CLIENT, "features");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
    .map((name) => path.join(dir, name));
}

/** Every relative import of a file, resolved to a path without extension. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [
    ...text.matchAll(/(?:import|export)\s[^"']*?from\s+["']([^"']+)["']/g),
    ...text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g),
    ...text.matchAll(/^import\s+["']([^"']+)["']/gm),
  ].map((match) => match[1] as string);
  return specifiers
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => path.resolve(path.dirname(file), specifier));
}

function featureOf(resolved: string): { feature: string; rest: string } | undefined {
  const relative = path.relative(FEATURES, resolved);
  if (relative.startsWith("..")) return undefined;
  const [feature = "", ...rest] = relative.split(path.sep);
  return { feature, rest: rest.join("/") };
}

/** Each crossing from one feature into another that no exception allows. */
function forbiddenCrossings(files: string[], importsOfFile = importsOf): string[] {
  const found: string[] = [];
  for (const file of files) {
    const from = featureOf(file)?.feature;
    if (!from) continue;
    for (const target of importsOfFile(file)) {
      const to = featureOf(target);
      if (!to || to.feature === from) continue;
      const crossing = `${to.feature}/${to.rest}`;
      const allowed = [...(ALLOWED_CROSSINGS["*"] ?? []), ...(ALLOWED_CROSSINGS[from] ?? [])];
      if (!allowed.some((rule) => rule.imports.test(crossing))) {
        found.push(`${path.relative(SRC, file)} imports features/${crossing}`);
      }
    }
  }
  return found;
}

describe("client import boundaries", () => {
  it("features import other features only where an exception allows it", () => {
    expect(forbiddenCrossings(sourceFiles(FEATURES))).toEqual([]);
  });

  it("a crossing with no exception is found (the rule can fail)", () => {
    const probe = path.join(FEATURES, "memories", "api", "get-memory.ts");
    const alsoComments = (file: string) => [
      ...importsOf(file),
      path.join(FEATURES, "comments", "api", "comments"),
    ];
    expect(forbiddenCrossings([probe], alsoComments)).toEqual([
      "client/features/memories/api/get-memory.ts imports features/comments/api/comments",
    ]);
  });

  it("the client never imports the server, nor the server the client", () => {
    const crossing = (files: string[], other: string) =>
      files.filter((file) =>
        importsOf(file).some(
          (target) => !path.relative(path.join(SRC, other), target).startsWith(".."),
        ),
      );
    expect(crossing(sourceFiles(CLIENT), "server")).toEqual([]);
    expect(crossing(sourceFiles(path.join(SRC, "server")), "client")).toEqual([]);
  });
});
