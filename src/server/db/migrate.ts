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
import { plainPagingAndSearch } from "./migrations/0013-plain-paging-and-search";
import { oneAccountPerEmail } from "./migrations/0014-one-account-per-email";
import { timedTranscripts } from "./migrations/0015-timed-transcripts";
import { photos } from "./migrations/0016-photos";
import { relativeNews } from "./migrations/0017-relative-news";
import { transcriptProposals } from "./migrations/0018-transcript-proposals";
import { errorCodes } from "./migrations/0019-error-codes";
import { relativeNewsAsJobs } from "./migrations/0020-relative-news-as-jobs";
import { linkOrigins } from "./migrations/0021-link-origins";
import { relativeNewsConfirmation } from "./migrations/0022-relative-news-confirmation";
import { familyJournals } from "./migrations/0023-family-journals";
import { recordingLinks } from "./migrations/0024-recording-links";
import { reminderOrigins } from "./migrations/0025-reminder-origins";
import { familyQuestions } from "./migrations/0026-family-questions";
import { repliesReachStorytellers } from "./migrations/0027-replies-reach-storytellers";
import { weeklyQuestionMail } from "./migrations/0028-weekly-question-mail";
import { languages } from "./migrations/0029-languages";
import { libraryQuestions } from "./migrations/0030-library-questions";

/** A migration that may differ by dialect; every schema change is a new entry here. */
export interface DialectMigration {
  up(db: Kysely<unknown>, kind: DatabaseKind): Promise<void>;
}

/**
 * Migrations whose every change a later one removed (0009 to 0012: list revisions, the change log,
 * the per-owner index's triggers, stored page anchors; see 0013). Kept by name, so a database
 * that ran them stays in step with this list; a new database no longer builds and drops them.
 */
const UNDONE_BY_0013: DialectMigration = { async up() {} };

const MIGRATIONS: Record<string, DialectMigration> = {
  "0001-initial": initialSchema,
  "0002-memories-list-order": memoriesListOrder,
  "0003-rate-limits": rateLimits,
  "0004-audio-attachment": audioAttachment,
  "0005-share-links": shareLinks,
  "0006-reminders-and-questions": remindersAndQuestions,
  "0007-memory-language": memoryLanguage,
  "0008-counts-and-search-index": countsAndSearchIndex,
  "0009-list-revisions": UNDONE_BY_0013,
  "0010-search-index-per-owner": UNDONE_BY_0013,
  "0011-list-changes": UNDONE_BY_0013,
  "0012-persisted-page-anchors": UNDONE_BY_0013,
  "0013-plain-paging-and-search": plainPagingAndSearch,
  "0014-one-account-per-email": oneAccountPerEmail,
  "0015-timed-transcripts": timedTranscripts,
  "0016-photos": photos,
  "0017-relative-news": relativeNews,
  "0018-transcript-proposals": transcriptProposals,
  "0019-error-codes": errorCodes,
  "0020-relative-news-as-jobs": relativeNewsAsJobs,
  "0021-link-origins": linkOrigins,
  "0022-relative-news-confirmation": relativeNewsConfirmation,
  "0023-family-journals": familyJournals,
  "0024-recording-links": recordingLinks,
  "0025-reminder-origins": reminderOrigins,
  "0026-family-questions": familyQuestions,
  "0027-replies-reach-storytellers": repliesReachStorytellers,
  "0028-weekly-question-mail": weeklyQuestionMail,
  "0029-languages": languages,
  "0030-library-questions": libraryQuestions,
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

/**
 * Brings the schema up to date (or up to `upTo`, for a test of an upgrade); several instances
 * starting at once are serialised by Kysely's lock.
 */
export async function migrateToLatest(handle: DatabaseHandle, upTo?: string): Promise<void> {
  const migrator = new Migrator({
    db: handle.db,
    provider: new DialectMigrationProvider(handle.kind),
  });
  const { error, results } = await (upTo ? migrator.migrateTo(upTo) : migrator.migrateToLatest());
  const failed = results?.find((result) => result.status === "Error");
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? "");
    throw new Error(`Database migration ${failed?.migrationName ?? ""} failed: ${reason}`);
  }
}
