import { hash, randomInt } from "node:crypto";
import { QUESTIONS } from "../../shared/questions";
import type { CurrentQuestion } from "../../shared/reminders";
import type { QuestionsRepo } from "./questions.repo";

/** A small seeded generator (mulberry32): the same seed gives the same shuffle on every instance. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled(count: number, seed: number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  const random = seededRandom(seed);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}

/**
 * The order of round `round` through `count` questions: a fresh shuffle each round, so none comes
 * back before all were asked, and a round never starts with the question the last one ended on.
 */
export function roundOrder(count: number, seed: number, round: number): number[] {
  const order = shuffled(count, seed + round * 7919);
  if (round > 0 && count > 2) {
    const previousLast = shuffled(count, seed + (round - 1) * 7919)[count - 1];
    if (order[0] === previousLast) [order[0], order[1]] = [order[1] as number, order[0] as number];
  }
  return order;
}

/** Which built-in question a user at `position` of their rotation sees. */
export function questionAt(seed: number, position: number, questions = QUESTIONS): string {
  const count = questions.length;
  const order = roundOrder(count, seed, Math.floor(position / count));
  return questions[order[position % count] as number] as string;
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** Monday 5 January 1970, 00:00 UTC: weeks are counted from a Monday. */
const FIRST_MONDAY_MS = 4 * 24 * 60 * 60 * 1000;

/** The rotating question above the recorder: one shuffled order per user, skipped or answered in turn. */
export class QuestionsService {
  constructor(private readonly repo: QuestionsRepo) {}

  /**
   * The user's question now; `questions` is the built-in list in the reader's language (the
   * same questions in the same order in every language: `wordsIn(language).QUESTIONS`).
   */
  async current(userId: string, questions = QUESTIONS): Promise<CurrentQuestion> {
    const { seed, position } = await this.repo.getOrCreate(userId, randomInt(0, 2 ** 31 - 1));
    return { position, question: questionAt(seed, position, questions) };
  }

  /**
   * This week's question for one storyteller (a recording link's page, ADR 0060): the same all
   * week (weeks start on Monday, UTC) on every instance, with no row to keep; each storyteller
   * walks the built-in list in their own shuffled order, so none comes back before all were asked.
   * `questions`: the list in the reader's language, as for `current`.
   */
  weekly(storytellerId: string, now: Date, questions = QUESTIONS): string {
    const seed = Number.parseInt(hash("sha256", storytellerId, "hex").slice(0, 8), 16) >>> 1;
    return questionAt(seed, Math.floor((now.getTime() - FIRST_MONDAY_MS) / WEEK_MS), questions);
  }

  /** Moves on from `position` (a skip, or the question answered); a stale position changes nothing. */
  async next(userId: string, position: number): Promise<CurrentQuestion> {
    await this.current(userId);
    await this.repo.advanceFrom(userId, position);
    return this.current(userId);
  }
}
