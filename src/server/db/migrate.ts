import { type Kysely, type Migration, type MigrationProvider, Migrator } from "kysely";
import type { DatabaseHandle, DatabaseKind } from "./connection";
import { initialSchema } from "./migrations/0001-initial";
import { memoriesListOrder } from "./migrations/0002-memories-list-order";
import { rateLimits } from "./migrations/0003-rate-limits";
import { audioAttachment } from "./migrations/0004-audio-attachment";
import { shareLinks } from "./migrations/0005-share-links";
import { remindersAndQuestions } from "./migrations/0006-reminders-and-questions";
import { memoryLanguage } from "./migrations/0007-memory-language";
import { countsAndSearchIndex } from "./migrations/0008-counts-and-search-index";
import { listRevisions } from "./migrations/0009-list-revisions";
import { searchIndexPerOwner } from "./migrations/0010-search-index-per-owner";
import { listChanges } from "./migrations/0011-list-changes";
import { persistedPageAnchors } from "./migrations/0012-persisted-page-anchors";

/** A migration that may differ by dialect; every schema change is a new entry here. */
export interface DialectMigration {
  up(db: Kysely<unknown>, kind: DatabaseKind): Promise<void>;
}

const MIGRATIONS: Record<string, DialectMigration> = {
  "0001-initial": initialSchema,
  "0002-memories-list-order": memoriesListOrder,
  "0003-rate-limits": rateLimits,
  "0004-audio-attachment": audioAttachment,
  "0005-share-links": shareLinks,
  "0006-reminders-and-questions": remindersAndQuestions,
  "0007-memory-language": memoryLanguage,
  "0008-counts-and-search-index": countsAndSearchIndex,
  "0009-list-revisions": listRevisions,
  "0010-search-index-per-owner": searchIndexPerOwner,
  "0011-list-changes": listChanges,
  "0012-persisted-page-anchors": persistedPageAnchors,
};

class DialectMigrationProvider implements MigrationProvider {
  constructor(private readonly kind: DatabaseKind) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(MIGRATIONS).map(([name, migration]) => [
        name,
        { up: (db: Kysely<unknown>) => migration.up(db, this.kind) },
      ]),
    );
  }
}

/** Applies migrations up to and including `name` only: for tests of upgrades with data. */
export async function migrateUpTo(
  db: Kysely<unknown>,
  kind: DatabaseKind,
  name: keyof typeof MIGRATIONS,
): Promise<void> {
  const { error } = await new Migrator({
    db,
    provider: new DialectMigrationProvider(kind),
  }).migrateTo(name);
  if (error) throw error;
}

/** Brings the schema up to date; several instances starting at once are serialised by Kysely's lock. */
export async function migrateToLatest(handle: DatabaseHandle): Promise<void> {
  const migrator = new Migrator({
    db: handle.db,
    provider: new DialectMigrationProvider(handle.kind),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? "");
    throw new Error(`Database migration ${failed?.migrationName ?? ""} failed: ${reason}`);
  }
}
