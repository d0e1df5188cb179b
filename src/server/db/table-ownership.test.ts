import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * ADR 0009: every table has exactly one owning repository, the only code that reads or writes it.
 * This reads the server's source (tests, migrations and the schema types aside) and fails when any
 * other file names a table in a query.
 */
const SERVER = path.resolve(import.meta.dirname, "..");

/** Memories are owned by their repository together with its paging and its search (one file per database). */
const MEMORIES = [
  "memories/memories.repo.ts",
  "memories/memory-paging.ts",
  "memories/memory-search.sqlite.ts",
  "memories/memory-search.postgres.ts",
];

const OWNERS: Record<string, string | string[]> = {
  users: "users/users.repo.ts",
  journals: "journals/journals.repo.ts",
  journal_members: "journals/journals.repo.ts",
  family_questions: "journals/family-questions.repo.ts",
  sessions: "auth/sessions.repo.ts",
  password_reset_tokens: "auth/reset-tokens.repo.ts",
  audio_files: "audio/audio.repo.ts",
  memories: MEMORIES,
  memories_fts: "memories/memory-search.sqlite.ts",
  memory_months: "memories/memory-paging.ts",
  comments: "comments/comments.repo.ts",
  reply_views: "comments/comments.repo.ts",
  jobs: "jobs/jobs.repo.ts",
  rate_limits: "rate-limit-store.ts",
  reminder_settings: "reminders/reminders.repo.ts",
  reminder_occurrences: "reminders/reminders.repo.ts",
  question_rotation: "reminders/questions.repo.ts",
  server_secrets: "secrets/server-secrets.repo.ts",
  share_links: "share-links/share-links.repo.ts",
  memory_photos: "photos/photos.repo.ts",
  share_link_subscriptions: "share-links/share-link-subscriptions.repo.ts",
};

const TABLES = Object.keys(OWNERS).join("|");
/** Kysely builder calls and raw SQL clauses that name a table. */
const QUERY_PATTERNS = [
  new RegExp(
    `\\.(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|with)\\(\\s*["'\`](${TABLES})\\b`,
    "g",
  ),
  new RegExp(`\\b(?:from|join|into|update|table)\\s+(${TABLES})\\b`, "gi"),
];

/** The tables a piece of source queries. */
function tablesQueried(source: string): Set<string> {
  const found = new Set<string>();
  for (const pattern of QUERY_PATTERNS) {
    for (const match of source.matchAll(pattern)) {
      if (match[1]) found.add(match[1].toLowerCase());
    }
  }
  return found;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => path.relative(SERVER, path.join(entry.parentPath, entry.name)))
    .filter(
      (file) =>
        !file.endsWith(".test.ts") &&
        !file.startsWith(`test${path.sep}`) &&
        !file.startsWith(`db${path.sep}migrations${path.sep}`) &&
        file !== path.join("db", "schema.ts"),
    );
}

describe("table ownership", () => {
  it("finds table names in builder calls and raw SQL (the check can fail)", () => {
    expect(tablesQueried('db.selectFrom("comments").selectAll()')).toEqual(new Set(["comments"]));
    expect(tablesQueried('trx.updateTable("audio_files as a")')).toEqual(new Set(["audio_files"]));
    expect(tablesQueried("sql`select * from memories m join users u on u.id = m.user_id`")).toEqual(
      new Set(["memories", "users"]),
    );
    expect(tablesQueried('q.leftJoin("users as u", "u.id", "m.user_id")')).toEqual(
      new Set(["users"]),
    );
    expect(tablesQueried("const memories = 1; // the users")).toEqual(new Set());
  });

  it("no server file queries a table it does not own", async () => {
    const trespasses: string[] = [];
    const seen = new Map<string, Set<string>>();
    for (const file of await sourceFiles(SERVER)) {
      const tables = tablesQueried(await readFile(path.join(SERVER, file), "utf8"));
      seen.set(file, tables);
      for (const table of tables) {
        if (![OWNERS[table]].flat().includes(file))
          trespasses.push(`${file} queries ${table} (owner: ${OWNERS[table]})`);
      }
    }
    expect(trespasses).toEqual([]);
    // Every owner is where the map says, and does query its table.
    for (const [table, owners] of Object.entries(OWNERS)) {
      for (const owner of [owners].flat()) {
        expect(seen.get(owner)?.has(table), `${owner} owns ${table}`).toBe(true);
      }
    }
  });
});
