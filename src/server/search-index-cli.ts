// `npm run search-index -- rebuild`: indexes every memory for search afresh. SQLite's index is
// written by the app (ADR 0036), so memories another tool (the sqlite3 shell, a script) inserted
// or edited are listed at once but found by search only after this; PostgreSQL needs nothing.
import { rebuildSearchIndex } from "./compose";
import { loadConfig, loadDotEnv } from "./config";
import { openDatabase } from "./db/connection";

const USAGE = `Usage: npm run search-index -- rebuild
Indexes every memory for search afresh (DATABASE_URL or DATA_DIR name the database). Run it after
changing memories with a tool other than the app; the app may keep running meanwhile.`;

async function main(argv: string[]): Promise<number> {
  if (argv[0] !== "rebuild" || argv.length > 1) {
    console.error(USAGE);
    return 2;
  }
  loadDotEnv();
  const config = loadConfig();
  const database = await openDatabase(config.database);
  try {
    const indexed = await rebuildSearchIndex(database);
    process.stdout.write(
      database.kind === "sqlite"
        ? `Indexed ${indexed} memories for search.\n`
        : "PostgreSQL keeps its search index by itself: nothing to do.\n",
    );
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Search index rebuild failed: ${(error as Error).message ?? String(error)}`);
    process.exit(1);
  },
);
