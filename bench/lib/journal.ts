import type { MemoriesRepo } from "../../src/server/memories/memories.repo";

export const WORDS =
  "morning sea walk grandma kitchen bread garden rain puppy school bicycle river picnic snow story song birthday cake swing park train window laugh friend bath star moon blanket ladder apple orchard kite shell boat harbour lantern winter summer autumn spring music piano drawing pebble forest owl".split(
    " ",
  );

export function sentence(rng: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(rng() * WORDS.length)]).join(" ");
}

/** A small deterministic generator so runs are comparable. */
export function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const JOURNAL_START = Date.parse("2015-01-01T00:00:00.000Z");

/** The i-th bench memory: one in a hundred is about castles (a selective search), one per hour. */
export function benchMemory(rng: () => number, i: number) {
  const castle = i % 100 === 0;
  return {
    title: castle ? `Castles on the beach ${i}` : `${sentence(rng, 4)} ${i}`,
    transcript: sentence(rng, 60),
    summary: sentence(rng, 25),
    tags: [WORDS[i % WORDS.length] as string, "family"],
    recordedAt: new Date(JOURNAL_START + i * 3_600_000).toISOString(),
  };
}

/** `count` saved memories for one user, inserted through the repository in batches. */
export async function seedJournal(repo: MemoriesRepo, userId: string, count: number) {
  const rng = mulberry32(42);
  const batch = [];
  for (let i = 0; i < count; i++) {
    batch.push({ userId, audioId: null, status: "saved" as const, ...benchMemory(rng, i) });
    if (batch.length === 5000) await repo.insertMany(batch.splice(0));
  }
  if (batch.length) await repo.insertMany(batch);
}
