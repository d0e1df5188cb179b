import { existsSync } from "node:fs";
import path from "node:path";
import pino from "pino";
import { createServices } from "../compose";
import { type Config, loadConfig, publicAppUrl, startupWarnings } from "../config";
import { type DatabaseHandle, openDatabase } from "../db/connection";
import { type AudioStorage, StorageUnavailableError } from "../storage/audio-storage";
import { copyAudio, storageFromArgument } from "../storage/storage-copy";
import { createAudioStorage } from "../storage/storage-factory";
import {
  BACKUP_DATABASE_FILE,
  BACKUP_FILES_FOLDER,
  BACKUP_PG_DUMP_FILE,
  type BackupReport,
  backupInstance,
  missingFiles,
} from "./instance-backup";
import { checkInstance, isSound } from "./instance-check";

/** Where the commands write: standard output for results, standard error for problems. */
export interface AdminOutput {
  out(line: string): void;
  err(line: string): void;
}

export const ADMIN_USAGE = `Usage: npm run admin -- <command>
  users                    list the accounts
  reset-link <username>    print a password-reset link (valid for one hour) without sending mail
  check [--repair]         check the database, and that every stored file and its row are there;
                           --repair deletes files no row names and never-attached uploads without a file
  backup <folder>          copy the whole instance (database and files) into a new folder; on
                           PostgreSQL, the folder holding the pg_dump it asks for
  copy-files <from> <to>   copy every stored file between a folder and a bucket, verified and resumable:
                           file: (DATA_DIR/audio), file:/some/folder, or s3://bucket/optional/prefix
The instance is the one the environment (and .env) selects, as for the server: DATA_DIR, DATABASE_URL,
STORAGE_URL and the S3_* settings.`;

/** An instance's parts, built by the same composition as the server's (nothing listens). */
async function openInstance(config: Config, databaseFile?: string, files?: AudioStorage) {
  const target = databaseFile ? { kind: "sqlite" as const, file: databaseFile } : config.database;
  if (target.kind === "sqlite" && !existsSync(target.file)) {
    throw new Error(
      `No database at ${target.file}: set DATA_DIR (or DATABASE_URL) as the server has it`,
    );
  }
  const database: DatabaseHandle = await openDatabase(target).catch((error: Error) => {
    const where = target.kind === "postgres" ? "DATABASE_URL" : target.file;
    throw new Error(`Could not open the database (${where}): ${error.message}`);
  });
  const storage = files ?? createAudioStorage(config.storage);
  const log = pino({ level: config.LOG_LEVEL }, pino.destination(2));
  const services = createServices({ config, database, storage, log });
  return {
    database,
    storage,
    services,
    owners: services.storedFiles,
    async close() {
      await services.close();
      await database.close();
    },
  };
}

type Instance = Awaited<ReturnType<typeof openInstance>>;

async function users(instance: Instance, io: AdminOutput): Promise<number> {
  const accounts = await instance.services.users.listAccounts();
  const rows = [
    ["username", "display name", "email", "created"],
    ...accounts.map((a) => [a.username, a.displayName ?? "", a.email ?? "", a.createdAt]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0))) ?? [];
  for (const row of rows)
    io.out(
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    );
  io.out(`${accounts.length} account${accounts.length === 1 ? "" : "s"}`);
  return 0;
}

async function resetLink(
  instance: Instance,
  config: Config,
  username: string,
  io: AdminOutput,
): Promise<number> {
  const link = await instance.services.auth.createResetLink(username, publicAppUrl(config));
  if (!link) {
    io.err(`No account is named "${username}".`);
    return 1;
  }
  for (const warning of startupWarnings(config)) io.err(warning);
  io.out(`Password-reset link for ${username}, valid for one hour (it replaces any earlier link):`);
  io.out(link);
  return 0;
}

async function check(instance: Instance, repair: boolean, io: AdminOutput): Promise<number> {
  const report = await checkInstance(instance, { repair });
  if (report.databaseProblems.length === 0) io.out(`Database: sound (${instance.database.kind}).`);
  for (const problem of report.databaseProblems) io.err(`Database: ${problem}`);
  io.out(`Files without rows: ${report.filesWithoutRows.length} (space only)`);
  for (const file of report.filesWithoutRows) io.out(`  ${file.key} (${file.bytes} bytes)`);
  io.out(`Rows without files: ${report.rowsWithoutFiles.length}`);
  for (const row of report.rowsWithoutFiles) io.out(`  ${row.label}: ${row.key} is missing`);
  if (report.repaired) {
    io.out(`Repaired: ${report.repaired.files} files and ${report.repaired.rows} rows deleted.`);
    const kept = report.rowsWithoutFiles.filter((row) => !row.disposable).length;
    if (kept > 0)
      io.err(`${kept} rows belong to memories or comments: restore their files from a backup.`);
  } else if (report.filesWithoutRows.length + report.rowsWithoutFiles.length > 0) {
    io.out("Nothing was changed; `npm run admin -- check --repair` deletes what can go.");
  }
  const sound = isSound(report);
  io.out(sound ? "Check passed." : "Check failed.");
  return sound ? 0 : 1;
}

async function backup(instance: Instance, config: Config, dir: string, io: AdminOutput) {
  const folder = path.resolve(dir);
  const sqliteFile = config.database.kind === "sqlite" ? config.database.file : null;
  const dump = path.join(folder, BACKUP_PG_DUMP_FILE);
  if (!sqliteFile && !existsSync(dump)) {
    // The dump comes first: every row it holds then has its file in the copy made after it.
    io.err("On PostgreSQL, pg_dump copies the database and this command the files. Dump first:");
    io.err(`  mkdir -p ${folder} && pg_dump --format=custom --file=${dump} "$DATABASE_URL"`);
    io.err(`then run this command again.`);
    return 1;
  }
  io.out(`Backing up into ${folder}`);
  let seen = 0;
  let report: BackupReport;
  try {
    report = await backupInstance(
      {
        sqliteFile,
        storage: instance.storage,
        // Connecting, then a call's idle time, twice (the client tries once more), and a margin.
        callTimeoutMs: 2 * (config.S3_CONNECT_TIMEOUT_MS + config.S3_REQUEST_TIMEOUT_MS) + 1000,
        openCopy: (file, files) => openInstance(config, file, files),
      },
      folder,
      (key, outcome) => {
        seen += 1;
        if (outcome === "failed" || seen % 100 === 0) io.out(`${seen} files (${key}: ${outcome})`);
      },
    );
  } catch (error) {
    if (!(error instanceof StorageUnavailableError)) throw error;
    // The storage library's words go nowhere an operator must read; one line says what to do.
    io.err(
      `Backup failed: the file storage (${instance.storage.description}) did not answer, so nothing was kept. Check that it is running and reachable (STORAGE_URL, S3_ENDPOINT), then run the backup again.`,
    );
    return 1;
  }
  io.out(
    report.pages === null
      ? `Database: ${BACKUP_PG_DUMP_FILE} (pg_dump).`
      : `Database: ${BACKUP_DATABASE_FILE} (${report.pages} pages).`,
  );
  io.out(
    `Files: ${report.files.copied} copied into ${BACKUP_FILES_FOLDER}/ (${report.files.bytesCopied} bytes)` +
      (report.leftOut > 0 ? `, ${report.leftOut} saved after the database copy left out.` : "."),
  );
  const missing = missingFiles(report);
  for (const row of missing) io.err(`  ${row.label}: ${row.key} was deleted while the backup ran`);
  const copyFailed = sqliteFile === null ? report.files.failed : [];
  for (const failure of copyFailed) io.err(`  ${failure.key}: ${failure.reason}`);
  const problems = report.check?.databaseProblems ?? [];
  for (const problem of problems) io.err(`Database copy: ${problem}`);
  if (missing.length + copyFailed.length + problems.length > 0) {
    io.err("The backup is incomplete: run it again into a new folder.");
    return 1;
  }
  io.out(
    sqliteFile
      ? `Backup complete. To restore, stop the server and point DATA_DIR at ${folder} (or copy its contents into the data folder).`
      : `Backup complete. To restore, pg_restore ${BACKUP_PG_DUMP_FILE} into an empty database and copy ${BACKUP_FILES_FOLDER}/ back with copy-files (see docs/self-hosting.md).`,
  );
  return 0;
}

async function copyFiles(from: string, to: string, env: NodeJS.ProcessEnv, io: AdminOutput) {
  const source = storageFromArgument(from, env);
  const target = storageFromArgument(to, env);
  await source.check();
  await target.checkWritable();
  io.out(`Copying files from ${source.description} to ${target.description}`);
  let seen = 0;
  const report = await copyAudio(source, target, (key, outcome) => {
    seen += 1;
    if (outcome === "failed" || seen % 100 === 0) io.out(`${seen} files (${key}: ${outcome})`);
  });
  io.out(
    `Done: ${report.copied} copied (${report.bytesCopied} bytes), ${report.alreadyThere} already there, ${report.failed.length} failed.`,
  );
  for (const failure of report.failed) io.err(`  ${failure.key}: ${failure.reason}`);
  if (report.failed.length > 0) {
    io.err("Run the same command again to retry the failed files.");
    return 1;
  }
  io.out(`Every file is in ${target.description}.`);
  if (to === "file:" || to.startsWith("s3://")) io.out(`Set STORAGE_URL=${to} and restart.`);
  return 0;
}

/**
 * `npm run admin -- <command>`: the operator's tools, on the instance `env` selects. Returns the
 * exit code: 0 done, 1 failed or found problems, 2 not understood.
 */
export async function runAdmin(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: AdminOutput,
): Promise<number> {
  const [command, ...args] = argv;
  const usage = () => {
    io.err(ADMIN_USAGE);
    return 2;
  };
  const [first, second] = args;
  if (command === "copy-files") {
    if (args.length !== 2 || !first || !second || first === second) return usage();
    return copyFiles(first, second, env, io);
  }
  const understood =
    (command === "users" && args.length === 0) ||
    (command === "reset-link" && args.length === 1) ||
    (command === "check" && (args.length === 0 || (args.length === 1 && first === "--repair"))) ||
    (command === "backup" && args.length === 1);
  if (!understood) return usage();

  const config = loadConfig(env);
  const instance = await openInstance(config);
  try {
    if (command === "users") return await users(instance, io);
    if (command === "reset-link") return await resetLink(instance, config, first ?? "", io);
    if (command === "check") return await check(instance, first === "--repair", io);
    return await backup(instance, config, first ?? "", io);
  } finally {
    await instance.close();
  }
}
