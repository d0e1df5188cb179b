import { type Kysely, type Selectable, sql, type Updateable } from "kysely";
import { PAGE_SIZE } from "../../shared/constants";
import { normalizeScores } from "../../shared/rules";
import {
  MEMORY_STATUSES,
  type Memory,
  type MemoryStatus,
  PIPELINE_STAGES,
  type PipelineStage,
} from "../../shared/schemas";
import type { DatabaseKind } from "../db/connection";
import { LIST_CHANGES_KEPT } from "../db/migrations/0011-list-changes";
import { RELEVANCE_FUNCTION } from "../db/relevance";
import type { Database, MemoriesTable } from "../db/schema";
import { ownedPrefixQuery, wordsOf } from "../db/search-words";
import type { Executor } from "../db/transactions";
import { newId, nowIso } from "../ids";

export type MemoryRow = Selectable<MemoriesTable>;

/** What a new memory row needs; everything else has a sensible default. */
export interface NewMemory {
  id?: string;
  userId: string | null;
  anonOwnerHash?: string | null;
  claimExpiresAt?: string | null;
  audioId: string | null;
  title?: string;
  transcript?: string;
  summary?: string;
  scores?: Record<string, number>;
  duration?: number;
  recordedAt?: string;
  tags?: string[];
  status: MemoryStatus;
  stage?: PipelineStage | null;
  error?: string | null;
  /** Defaults to now; a restored memory keeps its original. */
  createdAt?: string;
  /** The question shown while it was recorded, if any. */
  question?: string | null;
  /** The spoken language, when known (a restored memory keeps its own). */
  language?: string | null;
}

/** The fields an owner may change through PUT /api/memories/{id}. */
export interface MemoryEdit {
  title: string;
  transcript: string;
  summary: string;
  recordedAt: string;
  tags: string[];
}

export interface RowPage {
  rows: MemoryRow[];
  total: number;
}

/** Which memories a list or search covers. */
export interface MemoryScope {
  userId: string;
  /** Only saved memories (what others see on a public profile). */
  savedOnly: boolean;
}

/** At most this many unclaimed recordings are listed for one browser. */
export const UNCLAIMED_LIMIT = 50;

/**
 * A search ranks (and counts) at most this many matches: the most recently added ones. Enough
 * for 66 pages; a query matching more is not a search anyone pages through (ADR 0025).
 */
export const SEARCH_RANK_LIMIT = 1000;

/** How many of a user's newest memories are tried to tell a common query from a selective one. */
const BROAD_QUERY_SAMPLE = 200;

/** At most this many query words are used; more only slows the query without changing much. */
export const MAX_SEARCH_TOKENS = 16;

/**
 * Splits user input into plain word tokens (letters and digits only, lower case), so that the
 * database never sees FTS5 or tsquery syntax: quotes, parentheses, operators and emoji vanish.
 */
export function searchTokens(query: string): string[] {
  // The same split as the words SQLite indexes (search-words.ts), so a query word meets its row's.
  return wordsOf(query).slice(0, MAX_SEARCH_TOKENS);
}

function parseJson(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

function parseTags(text: string): string[] {
  const value = parseJson(text, []);
  return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === "string") : [];
}

/** The API shape of a memory row (spec section 3 field names); shared with the pipeline. */
export function toMemoryDto(row: MemoryRow): Memory {
  const status = (MEMORY_STATUSES as readonly string[]).includes(row.status)
    ? (row.status as MemoryStatus)
    : "failed";
  const stage = (PIPELINE_STAGES as readonly string[]).includes(row.stage ?? "")
    ? (row.stage as PipelineStage)
    : null;
  return {
    id: row.id,
    user_id: row.user_id,
    title: row.title,
    audioUrl: row.audio_id ? `/api/audio/${row.audio_id}` : "",
    transcript: row.transcript,
    summary: row.summary,
    scores: normalizeScores(parseJson(row.scores, {})),
    duration: Number(row.duration),
    recordedAt: row.recorded_at,
    tags: parseTags(row.tags),
    status,
    stage,
    error: row.error,
    createdAt: row.created_at,
    question: row.question ?? null,
    language: row.language ?? null,
  };
}

function toValues(input: NewMemory) {
  const now = nowIso();
  return {
    id: input.id ?? newId(),
    user_id: input.userId,
    anon_owner_hash: input.anonOwnerHash ?? null,
    claim_expires_at: input.claimExpiresAt ?? null,
    audio_id: input.audioId,
    title: input.title ?? "",
    transcript: input.transcript ?? "",
    summary: input.summary ?? "",
    scores: JSON.stringify(input.scores ?? {}),
    duration: input.duration ?? 0,
    recorded_at: input.recordedAt ?? now,
    tags: JSON.stringify(input.tags ?? []),
    status: input.status,
    stage: input.stage ?? null,
    error: input.error ?? null,
    created_at: input.createdAt ?? now,
    updated_at: now,
    question: input.question ?? null,
    language: input.language ?? null,
  };
}

/**
 * A deep list page seeks to the cached key of every this-many-th row of its scope and skips at
 * most this many minus one (ADR 0027): 20 pages' worth, a few hundredths of a millisecond, while
 * a 100,000-memory scope keeps 167 anchors per half and a walk takes few steps (each step of
 * SQLite's walk costs about as much as skipping 150 entries).
 */
export const PAGE_ANCHOR_INTERVAL = 20 * PAGE_SIZE;

/** At most this many anchors are cached per repository (about 5 MB), least recently used dropped. */
export const PAGE_ANCHOR_BUDGET = 50_000;

/**
 * At most this many anchors of one scope and direction are kept in the database (migration 0012),
 * the shallowest: 300,000 rows from each end, about 45 kB of JSON. Deeper pages walk on from them.
 */
export const PAGE_ANCHORS_STORED = 1000;

type ListDirection = "asc" | "desc";

/**
 * Keys of rows of one scope, read in one direction, with their places: walked as every
 * PAGE_ANCHOR_INTERVAL-th row, then moved on past later changes (migration 0011), so their places
 * drift apart and are kept explicitly. A place is the number of rows before the key in reading
 * order, which stays true when the anchor's own row goes (the key still seeks where it stood).
 */
interface PageAnchors {
  /** The user's list revision the anchors hold at. */
  revision: number;
  recordedAt: string[];
  keys: number[];
  positions: number[];
  /** The revision of the anchors this process last read from or wrote to the database, if any. */
  storedRevision?: number;
}

/** A walk's anchors, every PAGE_ANCHOR_INTERVAL-th row on, and the revision it read them at. */
type WalkedAnchors = Omit<PageAnchors, "positions" | "storedRevision">;

/**
 * Anchors read back from the database (migration 0012), or undefined when the stored text is not
 * what this code writes (it is checked, not trusted: a wrong place would give a wrong page).
 */
function parseStoredAnchors(revision: number, text: string): PageAnchors | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== "object") return undefined;
  const { recordedAt, keys, positions } = value as Record<string, unknown>;
  if (!Array.isArray(recordedAt) || !Array.isArray(keys) || !Array.isArray(positions)) {
    return undefined;
  }
  const length = recordedAt.length;
  if (keys.length !== length || positions.length !== length) return undefined;
  for (let i = 0; i < length; i++) {
    const position = positions[i];
    if (
      typeof recordedAt[i] !== "string" ||
      !Number.isSafeInteger(keys[i]) ||
      !Number.isSafeInteger(position) ||
      (position as number) < (i === 0 ? 0 : (positions[i - 1] as number))
    ) {
      return undefined;
    }
  }
  return {
    revision,
    recordedAt: recordedAt as string[],
    keys: keys as number[],
    positions: positions as number[],
    storedRevision: revision,
  };
}

interface PageAnchor {
  /** The anchor row's place, counted from the end it was read from. */
  position: number;
  recordedAt: string;
  seq: number;
}

/** One change to a user's list (migration 0011): a row's key came in (+1) or went out (-1). */
interface ListChange {
  recordedAt: string;
  seq: number;
  saved: boolean;
  delta: number;
}

/**
 * Whether `change` lies before the anchor at `index` in reading order. Keys are compared as the
 * index orders them: recorded_at (ISO text in one format, so as strings), then seq.
 */
function liesBefore(
  change: ListChange,
  anchors: PageAnchors,
  index: number,
  direction: ListDirection,
) {
  const recordedAt = anchors.recordedAt[index] as string;
  const seq = anchors.keys[index] as number;
  const after =
    change.recordedAt > recordedAt || (change.recordedAt === recordedAt && change.seq > seq);
  return direction === "desc"
    ? after
    : change.recordedAt < recordedAt || (change.recordedAt === recordedAt && change.seq < seq);
}

/**
 * The anchors moved on past `changes` (in revision order): each change shifts the places of the
 * anchors after it by its delta. They are cut at the first anchor whose own row went out and did
 * not come back (a walk on from it would start one row late) or that drifted more than twice the
 * interval from the one before it (its pages would skip too far): the walk goes on from there.
 */
function movedOn(
  anchors: PageAnchors,
  changes: readonly ListChange[],
  scope: MemoryScope,
  direction: ListDirection,
  revision: number,
): PageAnchors {
  const positions = [...anchors.positions];
  const hollow = new Set<number>();
  for (const change of changes) {
    if (scope.savedOnly && !change.saved) continue;
    for (let i = 0; i < positions.length; i++) {
      if (change.seq === anchors.keys[i] && change.recordedAt === anchors.recordedAt[i]) {
        if (change.delta < 0) hollow.add(i);
        else hollow.delete(i);
      } else if (liesBefore(change, anchors, i, direction)) {
        positions[i] = (positions[i] as number) + change.delta;
      }
    }
  }
  let kept = 0;
  while (
    kept < positions.length &&
    !hollow.has(kept) &&
    (positions[kept] as number) - (kept === 0 ? 0 : (positions[kept - 1] as number)) <=
      2 * PAGE_ANCHOR_INTERVAL
  ) {
    kept++;
  }
  return {
    revision,
    recordedAt: anchors.recordedAt.slice(0, kept),
    keys: anchors.keys.slice(0, kept),
    positions: positions.slice(0, kept),
    ...(anchors.storedRevision === undefined ? {} : { storedRevision: anchors.storedRevision }),
  };
}

/**
 * Page anchors by scope and direction, least recently used dropped once they hold more than
 * PAGE_ANCHOR_BUDGET anchors in all.
 */
class PageAnchorCache {
  private readonly entries = new Map<string, PageAnchors>();
  private held = 0;

  get(key: string): PageAnchors | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, anchors: PageAnchors): void {
    this.delete(key);
    this.entries.set(key, anchors);
    this.held += anchors.keys.length;
    for (const oldest of this.entries.keys()) {
      if (this.held <= PAGE_ANCHOR_BUDGET) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.held -= entry.keys.length;
    this.entries.delete(key);
  }
}

/** How a scope and reading direction are named in the database's anchors (migration 0012). */
function storedScopeOf(scope: MemoryScope, direction: ListDirection): string {
  return `${scope.savedOnly ? "saved" : "all"} ${direction}`;
}

/** The key of a scope's anchors in one direction in the process's cache (and its walks' keys). */
function anchorKey(scope: MemoryScope, direction: ListDirection): string {
  return `${scope.userId}\u0000${storedScopeOf(scope, direction)}`;
}

/** The only code that reads or writes the memories table. */
export class MemoriesRepo {
  /** Per process (per repository); validated by the database's revision on every use. */
  private readonly pageAnchors = new PageAnchorCache();
  /**
   * Anchor walks and writes of anchors to the database under way, by scope, direction, revision
   * and anchors already known (a walk) or by scope, direction and revision (a write).
   */
  private readonly anchorWalks = new Map<string, Promise<void>>();
  /** Reads of a scope's stored anchors under way, so requests on a cold cache share one. */
  private readonly anchorLoads = new Map<string, Promise<PageAnchors | undefined>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: DatabaseKind,
  ) {}

  async insert(input: NewMemory, ex: Executor = this.db): Promise<MemoryRow> {
    const values = toValues(input);
    await ex.insertInto("memories").values(values).execute();
    const row = await this.findById(values.id, ex);
    if (!row) throw new Error("Inserted memory vanished");
    return row;
  }

  /** Inserts many memories in one transaction (imports, seeding benchmarks). */
  async insertMany(inputs: readonly NewMemory[], chunkSize = 500): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < inputs.length; i += chunkSize) {
        await trx
          .insertInto("memories")
          .values(inputs.slice(i, i + chunkSize).map(toValues))
          .execute();
      }
    });
  }

  async findById(id: string, ex: Executor = this.db): Promise<MemoryRow | undefined> {
    return ex
      .selectFrom("memories")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst()
      .then(stripSearchVector);
  }

  /**
   * A user's memories, newest recorded first, one page of PAGE_SIZE with the total. The total is
   * the trigger-kept count (migration 0008), not a count of the journal, so page 1 costs the same
   * at any size; pages past the middle are read from the oldest end, so the last page is as cheap
   * as the first (ADR 0025); a deep page seeks from the nearest cached page anchor and skips
   * fewer than PAGE_ANCHOR_INTERVAL rows (ADR 0027).
   */
  async list(scope: MemoryScope, page: number): Promise<RowPage> {
    const { total, revision } = await this.listState(scope);
    const offset = (page - 1) * PAGE_SIZE;
    if (offset >= total) return { rows: [], total };
    const fromOldest = offset > total / 2;
    const direction: ListDirection = fromOldest ? "asc" : "desc";
    // The page's place counted from the end it is read from, and its length.
    const position = fromOldest ? Math.max(0, total - offset - PAGE_SIZE) : offset;
    const length = fromOldest ? Math.min(PAGE_SIZE, total - offset) : PAGE_SIZE;
    const anchor =
      position >= PAGE_ANCHOR_INTERVAL
        ? await this.anchorAtOrBefore(scope, direction, revision, position)
        : undefined;
    let base = this.db.selectFrom("memories").where("user_id", "=", scope.userId);
    if (scope.savedOnly) base = base.where("status", "=", "saved");
    if (anchor) {
      // Rows from the anchor on, in reading order: the anchor's own key and beyond it.
      base = base.where(
        (eb) => eb.refTuple("recorded_at", "seq"),
        direction === "desc" ? "<=" : ">=",
        (eb) => eb.tuple(anchor.recordedAt, anchor.seq),
      );
    }
    // The page's keys come from the index alone (a deferred join), then only 15 rows are read.
    const pageKeys = base
      .select("seq")
      .orderBy("recorded_at", direction)
      .orderBy("seq", direction)
      .limit(length)
      .offset(position - (anchor?.position ?? 0));
    const rows = await this.db
      .selectFrom("memories")
      .selectAll()
      .where("seq", "in", pageKeys)
      .orderBy("recorded_at", "desc")
      .orderBy("seq", "desc")
      .execute();
    if (position < PAGE_ANCHOR_INTERVAL) this.prepareDeepPages(scope, revision, total);
    return { rows: rows.map((row) => stripSearchVector(row) as MemoryRow), total };
  }

  /**
   * After a shallow page (page 1 is every visit's first), the anchors the scope's deep pages will
   * need, in both directions, when this process has none it can move on: the stored ones read
   * back, or, when none are stored within the change log's reach (a journal no instance has
   * walked yet, or one a restore changed past the log), walked to the middle. So the first deep
   * page of a journal is no longer the one that pays the walk (ADR 0027). Runs after the answer;
   * concurrent requests share one preparation per scope and direction.
   */
  private prepareDeepPages(scope: MemoryScope, revision: number, total: number): void {
    const deepest = Math.floor(total / 2);
    if (deepest < PAGE_ANCHOR_INTERVAL) return;
    for (const direction of ["desc", "asc"] as const) {
      const key = anchorKey(scope, direction);
      if (this.withinReach(this.pageAnchors.get(key), revision)) continue;
      this.runAfterAnswer(`${key}\u0000prepare`, async () => {
        const stored = await this.storedAnchors(key, scope, direction);
        if (this.withinReach(stored, revision)) return;
        this.walkAfter(
          key,
          scope,
          direction,
          revision,
          undefined,
          Math.floor(deepest / PAGE_ANCHOR_INTERVAL),
        );
      });
    }
  }

  /**
   * Walks and stores the anchors of every scope and direction with deep pages whose stored anchors
   * are missing or out of the change log's reach: journals no instance has walked yet (all of them
   * right after the upgrade to migration 0012), or one changed past the log since. One at a time,
   * each walk after the one before; run at start-up, so a deep page opened before any page 1 of
   * its journal finds its anchors too (ADR 0027). Returns how many scopes and directions it walked.
   */
  async prepareUnwalkedJournals(): Promise<number> {
    const smallest = 2 * PAGE_ANCHOR_INTERVAL;
    const journals = await this.db
      .selectFrom("memory_counts")
      .select(["user_id", "total", "saved", "revision"])
      .where("total", ">=", smallest)
      .orderBy("user_id")
      .execute();
    const stored = await this.db
      .selectFrom("memory_page_anchors")
      .innerJoin("memory_counts", "memory_counts.user_id", "memory_page_anchors.user_id")
      .select(["memory_page_anchors.user_id", "scope", "memory_page_anchors.revision"])
      .where("memory_counts.total", ">=", smallest)
      .execute();
    const storedAt = new Map(
      stored.map((row) => [`${row.user_id}\u0000${row.scope}`, Number(row.revision)]),
    );
    let walked = 0;
    for (const journal of journals) {
      const revision = Number(journal.revision);
      for (const savedOnly of [false, true]) {
        const scope = { userId: journal.user_id, savedOnly };
        const deepest = Math.floor(Number(savedOnly ? journal.saved : journal.total) / 2);
        if (deepest < PAGE_ANCHOR_INTERVAL) continue;
        for (const direction of ["desc", "asc"] as const) {
          const key = anchorKey(scope, direction);
          const storedRevision = storedAt.get(key);
          if (storedRevision !== undefined && revision - storedRevision <= LIST_CHANGES_KEPT) {
            continue;
          }
          const last = Math.floor(deepest / PAGE_ANCHOR_INTERVAL);
          await this.extendAnchors(key, scope, direction, revision, undefined, last);
          walked += 1;
        }
      }
    }
    return walked;
  }

  /** Whether `anchors` can serve `revision`: as they are, or moved on past the logged changes. */
  private withinReach(anchors: PageAnchors | undefined, revision: number): boolean {
    return (
      anchors !== undefined &&
      anchors.keys.length > 0 &&
      revision - anchors.revision <= LIST_CHANGES_KEPT
    );
  }

  /** How many memories the scope covers, from the counts the triggers keep (migration 0008). */
  async countOf(scope: MemoryScope): Promise<number> {
    return (await this.listState(scope)).total;
  }

  /** The scope's total and the user's list revision (migration 0009), read together. */
  private async listState(scope: MemoryScope): Promise<{ total: number; revision: number }> {
    const row = await this.db
      .selectFrom("memory_counts")
      .select(["total", "saved", "revision"])
      .where("user_id", "=", scope.userId)
      .executeTakeFirst();
    return {
      total: Number((scope.savedOnly ? row?.saved : row?.total) ?? 0),
      revision: Number(row?.revision ?? 0),
    };
  }

  /**
   * The nearest cached anchor at or before `position` (counted in `direction`). Anchors cached at
   * an older revision are first moved on past the changes made since (one read of the change log,
   * migration 0011); anchors that cannot be (changes no longer kept, a revision newer than the
   * request's) are not used. When the anchors stop short of `position` (or there are none), the
   * page is read from the last of them (or by plain offset) and the walk on towards `position`
   * runs after, for the pages that follow: no request waits for a walk, so none costs more than a
   * plain OFFSET (ADR 0027).
   */
  private async anchorAtOrBefore(
    scope: MemoryScope,
    direction: ListDirection,
    revision: number,
    position: number,
  ): Promise<PageAnchor | undefined> {
    const key = anchorKey(scope, direction);
    // A cold cache reads the anchors another process (or this one before a restart) stored.
    let anchors = this.pageAnchors.get(key) ?? (await this.storedAnchors(key, scope, direction));
    // Anchors newer than this request's revision: a later request's; this one reads by offset.
    if (anchors && anchors.revision > revision) return undefined;
    if (anchors && anchors.revision < revision) {
      anchors = await this.movedOnTo(key, scope, direction, anchors, revision);
    }
    const last = anchors && anchors.keys.length > 0 ? anchors.keys.length - 1 : -1;
    if (!anchors || last < 0) {
      this.walkAfter(
        key,
        scope,
        direction,
        revision,
        undefined,
        Math.floor(position / PAGE_ANCHOR_INTERVAL),
      );
      return undefined;
    }
    const lastPosition = anchors.positions[last] as number;
    if (lastPosition + PAGE_ANCHOR_INTERVAL <= position) {
      const steps = Math.floor((position - lastPosition) / PAGE_ANCHOR_INTERVAL);
      this.walkAfter(key, scope, direction, revision, anchors, last + steps);
    }
    // The last anchor at or before `position` (places only grow along the list).
    let low = 0;
    let high = last;
    if ((anchors.positions[0] as number) > position) return undefined;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if ((anchors.positions[middle] as number) <= position) low = middle;
      else high = middle - 1;
    }
    return {
      position: anchors.positions[low] as number,
      recordedAt: anchors.recordedAt[low] as string,
      seq: anchors.keys[low] as number,
    };
  }

  /**
   * The cached anchors moved on to `revision` past the changes made since they were walked, and
   * cached so; undefined when the changes between are no longer all kept.
   */
  private async movedOnTo(
    key: string,
    scope: MemoryScope,
    direction: ListDirection,
    anchors: PageAnchors,
    revision: number,
  ): Promise<PageAnchors | undefined> {
    if (revision - anchors.revision > LIST_CHANGES_KEPT) {
      this.pageAnchors.delete(key);
      return undefined;
    }
    const changes = await this.db
      .selectFrom("memory_list_changes")
      .select(["recorded_at", "seq", "saved", "delta"])
      .where("user_id", "=", scope.userId)
      .where("revision", ">", anchors.revision)
      .where("revision", "<=", revision)
      .orderBy("revision")
      .execute();
    if (changes.length !== revision - anchors.revision) return undefined;
    const moved = movedOn(
      anchors,
      changes.map((change) => ({
        recordedAt: change.recorded_at,
        seq: Number(change.seq),
        saved: Number(change.saved) === 1,
        delta: Number(change.delta),
      })),
      scope,
      direction,
      revision,
    );
    // Another request may have moved them on (or walked) meanwhile: keep the newest.
    const current = this.pageAnchors.get(key);
    if (!current || current.revision <= revision) this.pageAnchors.set(key, moved);
    // Stored anchors half as far behind as the log reaches are written again, after the answer,
    // so that a process starting later can still move them on.
    if (
      moved.keys.length > 0 &&
      revision - (moved.storedRevision ?? Number.NEGATIVE_INFINITY) >= LIST_CHANGES_KEPT / 2
    ) {
      moved.storedRevision = revision;
      this.runAfterAnswer(`${key}\u0000stored\u0000${revision}`, () =>
        this.storeAnchors(scope, direction, moved),
      );
    }
    return moved;
  }

  /**
   * The scope's anchors as stored in the database (one small read), cached; undefined when none
   * are stored or they are not readable. They may hold at any revision: the caller moves them on
   * or leaves them as it would its own cached anchors.
   */
  private storedAnchors(
    key: string,
    scope: MemoryScope,
    direction: ListDirection,
  ): Promise<PageAnchors | undefined> {
    const under = this.anchorLoads.get(key);
    if (under) return under;
    const load = (async () => {
      const row = await this.db
        .selectFrom("memory_page_anchors")
        .select(["revision", "anchors"])
        .where("user_id", "=", scope.userId)
        .where("scope", "=", storedScopeOf(scope, direction))
        .executeTakeFirst();
      const stored = row ? parseStoredAnchors(Number(row.revision), row.anchors) : undefined;
      if (!stored) return undefined;
      // A walk of this process may have cached newer anchors meanwhile: keep the newest.
      const current = this.pageAnchors.get(key);
      if (current && current.revision >= stored.revision) return current;
      this.pageAnchors.set(key, stored);
      return stored;
    })().finally(() => this.anchorLoads.delete(key));
    this.anchorLoads.set(key, load);
    return load;
  }

  /**
   * Writes the scope's anchors (the first PAGE_ANCHORS_STORED) to the database unless it holds
   * anchors at a newer revision, or as many at the same one (another instance walked too).
   */
  private async storeAnchors(
    scope: MemoryScope,
    direction: ListDirection,
    anchors: PageAnchors,
  ): Promise<void> {
    const kept = Math.min(anchors.keys.length, PAGE_ANCHORS_STORED);
    const text = JSON.stringify({
      recordedAt: anchors.recordedAt.slice(0, kept),
      keys: anchors.keys.slice(0, kept),
      positions: anchors.positions.slice(0, kept),
    });
    await this.db
      .insertInto("memory_page_anchors")
      .values({
        user_id: scope.userId,
        scope: storedScopeOf(scope, direction),
        revision: anchors.revision,
        anchors: text,
      })
      .onConflict((oc) =>
        oc
          .columns(["user_id", "scope"])
          .doUpdateSet((eb) => ({
            revision: eb.ref("excluded.revision"),
            anchors: eb.ref("excluded.anchors"),
          }))
          .where(
            sql<boolean>`memory_page_anchors.revision < excluded.revision
              or (memory_page_anchors.revision = excluded.revision
                and length(memory_page_anchors.anchors) < length(excluded.anchors))`,
          ),
      )
      .execute();
  }

  /**
   * Starts the walk on from the `known` anchors to anchor number `last`, unless one from the same
   * anchors is under way (requests that find the same anchors short share one walk; a deeper one
   * starts from where it ends). A walk that fails leaves the cache as it was: the pages that wanted
   * it were answered without it.
   */
  private walkAfter(
    key: string,
    scope: MemoryScope,
    direction: ListDirection,
    revision: number,
    known: PageAnchors | undefined,
    last: number,
  ): void {
    this.runAfterAnswer(`${key}\u0000${revision}\u0000${known?.keys.length ?? 0}`, () =>
      this.extendAnchors(key, scope, direction, revision, known, last),
    );
  }

  /**
   * Starts `work` unless work under the same key is under way, tracked until it ends (so
   * `anchorWalksSettled()` covers it). Its failure is dropped: it only ever speeds up later pages.
   */
  private runAfterAnswer(key: string, work: () => Promise<unknown>): void {
    if (this.anchorWalks.has(key)) return;
    const run = work()
      .then(() => undefined)
      .catch(() => undefined)
      .finally(() => this.anchorWalks.delete(key));
    this.anchorWalks.set(key, run);
  }

  /** Resolves once the anchor walks under way have ended (tests and benchmarks wait on it). */
  async anchorWalksSettled(): Promise<void> {
    while (this.anchorWalks.size > 0) await Promise.all(this.anchorWalks.values());
  }

  /** The `known` anchors walked on to anchor number `last` and cached, unless the revision moved. */
  private async extendAnchors(
    key: string,
    scope: MemoryScope,
    direction: ListDirection,
    revision: number,
    known: PageAnchors | undefined,
    last: number,
  ): Promise<void> {
    const walked = await this.walkAnchors(scope, direction, known, last);
    if (walked.keys.length > 0 && walked.revision !== revision) return;
    const current = this.pageAnchors.get(key);
    if (current && current.revision > revision) return;
    const from = known ? known.keys.length - 1 : -1;
    const start = known ? (known.positions[from] as number) : -PAGE_ANCHOR_INTERVAL;
    const extended: PageAnchors = {
      revision,
      recordedAt: [...(known?.recordedAt ?? []), ...walked.recordedAt],
      keys: [...(known?.keys ?? []), ...walked.keys],
      positions: [
        ...(known?.positions ?? []),
        ...walked.keys.map((_, i) => start + (i + 1) * PAGE_ANCHOR_INTERVAL),
      ],
    };
    const storedRevision = walked.keys.length > 0 ? revision : known?.storedRevision;
    if (storedRevision !== undefined) extended.storedRevision = storedRevision;
    this.pageAnchors.set(key, extended);
    // Still after the answer: the walk's anchors outlive this process (migration 0012).
    if (walked.keys.length > 0) await this.storeAnchors(scope, direction, extended);
  }

  /**
   * The anchors after those already `known`, up to and including anchor number `last`: each
   * step seeks past the previous anchor on the index and skips PAGE_ANCHOR_INTERVAL - 1 entries,
   * as many entries as one OFFSET that far reads, with no window over them (a window function cost
   * SQLite five times more). "Beyond the anchor" is spelt without a row value, which SQLite steps
   * through up to a third slower. The user's revision is read in the same statement (one
   * snapshot on both databases), so anchors are never kept under a revision they did not come
   * from.
   */
  private async walkAnchors(
    scope: MemoryScope,
    direction: ListDirection,
    known: PageAnchors | undefined,
    last: number,
  ): Promise<WalkedAnchors> {
    const saved = scope.savedOnly ? sql`and s.status = 'saved'` : sql``;
    const order =
      direction === "desc" ? sql`s.recorded_at desc, s.seq desc` : sql`s.recorded_at, s.seq`;
    const beyond = direction === "desc" ? sql`<` : sql`>`;
    const from = known ? known.keys.length - 1 : -1;
    const start = known
      ? sql`select cast(${from} as integer), cast(${known.recordedAt[from]} as text),
          cast(${known.keys[from]} as bigint)`
      : sql`select 0, first.recorded_at, first.seq from (
          select s.recorded_at, s.seq from memories s where s.user_id = ${scope.userId} ${saved}
          order by ${order} limit 1
        ) first`;
    const result = await sql<{ revision: number | string; recorded_at: string; seq: number }>`
      with recursive anchors (n, recorded_at, seq) as (
        ${start}
        union all
        select a.n + 1, m.recorded_at, m.seq from anchors a join memories m on m.seq = (
          select s.seq from memories s where s.user_id = ${scope.userId} ${saved}
            and s.recorded_at ${beyond}= a.recorded_at
            and (s.recorded_at ${beyond} a.recorded_at or s.seq ${beyond} a.seq)
          order by ${order} limit 1 offset ${PAGE_ANCHOR_INTERVAL - 1}
        )
        where a.n < ${last}
      )
      select (select revision from memory_counts where user_id = ${scope.userId}) as revision,
        recorded_at, seq
      from anchors where n > ${from} order by n`.execute(this.db);
    return {
      revision: Number(result.rows[0]?.revision ?? -1),
      recordedAt: result.rows.map((row) => row.recorded_at),
      keys: result.rows.map((row) => Number(row.seq)),
    };
  }

  /**
   * Full-text search over title, transcript, summary and tags, ranked by relevance (title and
   * tags weigh most), every token matched as a prefix. Empty token lists match nothing.
   *
   * Bounded (ADR 0025): only the SEARCH_RANK_LIMIT most recently added matches are ranked and
   * counted, so a query matching most of a large journal costs what a selective one does. A query
   * with fewer matches than that ranks all of them, exactly as before.
   */
  async search(scope: MemoryScope, tokens: readonly string[], page: number): Promise<RowPage> {
    if (tokens.length === 0) return { rows: [], total: 0 };
    const offset = (page - 1) * PAGE_SIZE;
    const saved = scope.savedOnly ? sql`and m.status = 'saved'` : sql``;
    if (this.kind === "sqlite") {
      // The full-text index holds each user's words apart (ADR 0029) and yields this user's
      // matches newest rowid (seq) first, stopping at the limit; the join re-checks the owner and
      // applies the saved-only filter. The candidates are ranked by the relevance() function
      // (relevance.js) inside the query, so a read worker does the weighing and sends one page.
      const match = ownedPrefixQuery(scope.userId, tokens);
      const result = await sql<MemoryRow & { matches: number }>`with candidates as materialized (
          select m.seq, m.recorded_at,
            ${sql.raw(RELEVANCE_FUNCTION)}(m.title, m.tags, m.summary, ${tokens.join(" ")}) as score
          from memories_fts f join memories m on m.seq = f.rowid
          where memories_fts match ${match} and m.user_id = ${scope.userId} ${saved}
          order by f.rowid desc limit ${SEARCH_RANK_LIMIT}
        ), page as (
          select seq, score, recorded_at, count(*) over () as matches from candidates
          order by score desc, recorded_at desc, seq desc limit ${PAGE_SIZE} offset ${offset}
        )
        select m.*, page.matches from page join memories m on m.seq = page.seq
        order by page.score desc, page.recorded_at desc, page.seq desc`.execute(this.db);
      return this.searchPage(result.rows, async () => {
        const counted = await sql<{ n: number }>`select count(*) as n from (
            select 1 from memories_fts f join memories m on m.seq = f.rowid
            where memories_fts match ${match} and m.user_id = ${scope.userId} ${saved}
            limit ${SEARCH_RANK_LIMIT}
          ) b`.execute(this.db);
        return Number(counted.rows[0]?.n ?? 0);
      });
    }
    const tsquery = tokens.map((token) => `${token}:*`).join(" & ");
    const rankPage = (ex: Executor) =>
      sql<MemoryRow & { matches: number }>`with candidates as materialized (
          select m.seq from memories m
          where m.search_vector @@ to_tsquery('simple', ${tsquery}) and m.user_id = ${scope.userId} ${saved}
          order by m.seq desc limit ${SEARCH_RANK_LIMIT}
        )
        select m.*, (select count(*) from candidates) as matches
        from candidates c join memories m on m.seq = c.seq, to_tsquery('simple', ${tsquery}) q
        order by ts_rank(m.search_vector, q) desc, m.recorded_at desc, m.seq desc
        limit ${PAGE_SIZE} offset ${offset}`.execute(ex);
    // The GIN index finds every match before the newest can be picked: right for a selective
    // query, but a common word makes it read most of the journal. Such a query instead walks the
    // user's memories newest first and stops at the limit, which the planner (whose estimate for
    // prefix queries is far too low) is told by turning bitmap and sequential scans off for this
    // one query, leaving the (user_id, seq) index.
    const result = (await this.isBroadPostgresQuery(scope, tsquery))
      ? await this.db.transaction().execute(async (trx) => {
          await sql`set local enable_bitmapscan = off`.execute(trx);
          await sql`set local enable_seqscan = off`.execute(trx);
          return rankPage(trx);
        })
      : await rankPage(this.db);
    return this.searchPage(result.rows, () => this.countSearchCandidates(tsquery, scope));
  }

  /**
   * True when at least one in ten of the user's newest memories match (PostgreSQL): walking newest
   * first then finds SEARCH_RANK_LIMIT matches within ten times as many rows, fewer than the
   * index would read for a query that common.
   */
  private async isBroadPostgresQuery(scope: MemoryScope, tsquery: string): Promise<boolean> {
    const saved = scope.savedOnly ? sql`and m.status = 'saved'` : sql``;
    const result = await sql<{ hits: number }>`select count(*) as hits from (
        select m.search_vector from memories m where m.user_id = ${scope.userId} ${saved}
        order by m.seq desc limit ${BROAD_QUERY_SAMPLE}
      ) newest where newest.search_vector @@ to_tsquery('simple', ${tsquery})`.execute(this.db);
    return Number(result.rows[0]?.hits ?? 0) * 10 >= BROAD_QUERY_SAMPLE;
  }

  /** A search page from its rows, each carrying the candidates' count (none past the last page). */
  private async searchPage(
    rows: Array<MemoryRow & { matches: number }>,
    countWhenPastEnd: () => Promise<number>,
  ): Promise<RowPage> {
    const first = rows[0];
    const total = first ? Number(first.matches) : await countWhenPastEnd();
    return {
      rows: rows.map(({ matches: _matches, ...row }) => stripSearchVector(row) as MemoryRow),
      total,
    };
  }

  /** The bounded match count alone, for a page past the last one (it has no rows to carry it). */
  private async countSearchCandidates(tsquery: string, scope: MemoryScope): Promise<number> {
    const saved = scope.savedOnly ? sql`and m.status = 'saved'` : sql``;
    const result = await sql<{ n: number }>`select count(*) as n from (
        select 1 from memories m
        where m.search_vector @@ to_tsquery('simple', ${tsquery}) and m.user_id = ${scope.userId} ${saved}
        order by m.seq desc limit ${SEARCH_RANK_LIMIT}
      ) b`.execute(this.db);
    return Number(result.rows[0]?.n ?? 0);
  }

  /**
   * Applies an owner's edit unless the memory is processing (the pipeline owns its fields until it
   * ends: ADR 0011). Returns the updated row, or 'processing', or undefined when it is gone.
   */
  async update(id: string, edit: MemoryEdit): Promise<MemoryRow | "processing" | undefined> {
    const result = await this.db
      .updateTable("memories")
      .set({
        title: edit.title,
        transcript: edit.transcript,
        summary: edit.summary,
        recorded_at: edit.recordedAt,
        tags: JSON.stringify(edit.tags),
        updated_at: nowIso(),
      })
      .where("id", "=", id)
      .where("status", "<>", "processing")
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) return this.findById(id);
    return (await this.findById(id)) ? "processing" : undefined;
  }

  /**
   * Locks the memory row for the rest of the transaction (PostgreSQL; SQLite has one writer) so a
   * comment cannot be added while the memory is being deleted. Undefined when it is gone.
   */
  async findForDelete(id: string, trx: Executor): Promise<MemoryRow | undefined> {
    const query = trx.selectFrom("memories").selectAll().where("id", "=", id);
    const row = await (this.kind === "postgres" ? query.forUpdate() : query).executeTakeFirst();
    return row ? stripSearchVector(row) : undefined;
  }

  /** Deletes the row; false when another request deleted it first (only one delete wins). */
  async delete(id: string, trx: Executor): Promise<boolean> {
    const result = await trx.deleteFrom("memories").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Every memory of a user with its audio id, each row locked for the rest of the transaction
   * (PostgreSQL), so no comment can be added to them meanwhile: part of deleting an account.
   */
  async lockAllOfUser(
    userId: string,
    trx: Executor,
  ): Promise<Array<{ id: string; audio_id: string | null }>> {
    const query = trx
      .selectFrom("memories")
      .select(["id", "audio_id"])
      .where("user_id", "=", userId);
    return (this.kind === "postgres" ? query.forUpdate() : query).execute();
  }

  /** Deletes every memory of a user; returns how many. */
  async deleteAllOfUser(userId: string, trx: Executor): Promise<number> {
    const result = await trx
      .deleteFrom("memories")
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** One batch of a user's memories in a stable order, for streaming a backup (keyset paging). */
  async batchForBackup(userId: string, afterSeq: number, limit: number): Promise<MemoryRow[]> {
    const rows = await this.db
      .selectFrom("memories")
      .selectAll()
      .where("user_id", "=", userId)
      .where("seq", ">", afterSeq)
      .orderBy("seq", "asc")
      .limit(limit)
      .execute();
    return rows.map((row) => stripSearchVector(row) as MemoryRow);
  }

  /**
   * One batch of a user's saved memories in recorded order (oldest first), recorded in
   * [from, to), after the (recordedAt, seq) key: keyset paging for the memory book.
   */
  async batchForBook(
    userId: string,
    range: { from: string | null; to: string | null },
    after: { recordedAt: string; seq: number } | null,
    limit: number,
  ): Promise<MemoryRow[]> {
    let query = this.db
      .selectFrom("memories")
      .selectAll()
      .where("user_id", "=", userId)
      .where("status", "=", "saved");
    if (range.from) query = query.where("recorded_at", ">=", range.from);
    if (range.to) query = query.where("recorded_at", "<", range.to);
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb("recorded_at", ">", after.recordedAt),
          eb.and([eb("recorded_at", "=", after.recordedAt), eb("seq", ">", after.seq)]),
        ]),
      );
    }
    const rows = await query
      .orderBy("recorded_at", "asc")
      .orderBy("seq", "asc")
      .limit(limit)
      .execute();
    return rows.map((row) => stripSearchVector(row) as MemoryRow);
  }

  // ---- Processing (the AI pipeline, retries and claiming) ----------------------------------

  // The pipeline's writes apply only while the memory is processing: a memory deleted, or one whose
  // processing ended meanwhile, is never written by a late stage.

  /** Records the stage now running (the browser shows it as progress). */
  async setStage(id: string, stage: PipelineStage): Promise<boolean> {
    return this.updateProcessing(id, { stage, error: null, updated_at: nowIso() });
  }

  /** Stores what a stage produced, so a retry resumes after it. */
  async saveStageOutput(
    id: string,
    output: {
      transcript?: string;
      duration?: number;
      /** The detected spoken language; null clears one an earlier attempt stored. */
      language?: string | null;
      summary?: string;
      title?: string;
      scores?: Record<string, number>;
      tags?: string[];
    },
  ): Promise<boolean> {
    return this.updateProcessing(id, {
      ...(output.transcript !== undefined ? { transcript: output.transcript } : {}),
      ...(output.duration !== undefined ? { duration: output.duration } : {}),
      ...(output.language !== undefined ? { language: output.language } : {}),
      ...(output.summary !== undefined ? { summary: output.summary } : {}),
      ...(output.title !== undefined ? { title: output.title } : {}),
      ...(output.scores !== undefined ? { scores: JSON.stringify(output.scores) } : {}),
      ...(output.tags !== undefined ? { tags: JSON.stringify(output.tags) } : {}),
      updated_at: nowIso(),
    });
  }

  /** The pipeline finished: the memory is saved. */
  async markSaved(id: string): Promise<boolean> {
    return this.updateProcessing(id, {
      status: "saved",
      stage: null,
      error: null,
      updated_at: nowIso(),
    });
  }

  /** The pipeline stopped at `stage` with a message the user sees; the audio stays. */
  async markFailed(id: string, stage: PipelineStage, message: string): Promise<boolean> {
    return this.updateProcessing(id, {
      status: "failed",
      stage,
      error: message,
      updated_at: nowIso(),
    });
  }

  private async updateProcessing(id: string, changes: Updateable<MemoriesTable>): Promise<boolean> {
    const result = await this.db
      .updateTable("memories")
      .set(changes)
      .where("id", "=", id)
      .where("status", "=", "processing")
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Puts a failed memory back to processing at its failed stage; false when it was not failed. */
  async resumeFailed(id: string, trx: Executor): Promise<boolean> {
    const result = await trx
      .updateTable("memories")
      .set({ status: "processing", error: null, updated_at: nowIso() })
      .where("id", "=", id)
      .where("status", "=", "failed")
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Puts a saved or failed memory back to processing at the summarize stage, so the pipeline makes
   * the summary, title, scores and tags again from its (corrected) transcript. One conditional
   * UPDATE: false when it is processing already, or gone.
   */
  async startRegenerate(id: string, trx: Executor): Promise<boolean> {
    const result = await trx
      .updateTable("memories")
      .set({ status: "processing", stage: "summarize", error: null, updated_at: nowIso() })
      .where("id", "=", id)
      .where("status", "in", ["saved", "failed"])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Gives an anonymous memory to `userId` when `visitorHash` recorded it and the claim window is
   * open. One conditional UPDATE: of two concurrent claims only one can match `user_id is null`.
   */
  async claim(
    id: string,
    userId: string,
    visitorHash: string,
    now: Date,
    trx: Executor,
  ): Promise<boolean> {
    const result = await trx
      .updateTable("memories")
      .set({ user_id: userId, claim_expires_at: null, updated_at: nowIso() })
      .where("id", "=", id)
      .where("user_id", "is", null)
      .where("anon_owner_hash", "=", visitorHash)
      .where("claim_expires_at", ">", now.toISOString())
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * The anonymous memories `visitorHash` recorded that can still be claimed at `now` (not claimed,
   * window open), newest first, at most UNCLAIMED_LIMIT (the daily cap keeps the real number small).
   */
  async listUnclaimed(visitorHash: string, now: Date): Promise<MemoryRow[]> {
    const rows = await this.db
      .selectFrom("memories")
      .selectAll()
      .where("anon_owner_hash", "=", visitorHash)
      .where("user_id", "is", null)
      .where("claim_expires_at", ">", now.toISOString())
      .orderBy("created_at", "desc")
      .orderBy("seq", "desc")
      .limit(UNCLAIMED_LIMIT)
      .execute();
    return rows.map((row) => stripSearchVector(row) as MemoryRow);
  }

  /** How many memories this anonymous browser started since `since` (the daily cap). */
  async countAnonymousSince(visitorHash: string, since: Date): Promise<number> {
    const row = await this.db
      .selectFrom("memories")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("anon_owner_hash", "=", visitorHash)
      .where("created_at", ">=", since.toISOString())
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

/** PostgreSQL rows carry the generated search_vector column; it never leaves the repo. */
function stripSearchVector<T>(row: T): T {
  if (row && typeof row === "object" && "search_vector" in row) {
    const { search_vector: _ignored, ...rest } = row as Record<string, unknown>;
    return rest as T;
  }
  return row;
}
