import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { type App, buildApp } from "../app";
import { createServices, type ServiceDeps, type Services } from "../compose";
import { type Config, loadConfig } from "../config";
import {
  type DatabaseHandle,
  type DatabaseKind,
  type DatabaseTarget,
  type OpenOptions,
  openDatabase,
} from "../db/connection";
import { newId } from "../ids";
import type { AudioStorage } from "../storage/audio-storage";
import { LocalAudioStorage } from "../storage/local-storage";
import type { S3StorageSettings } from "../storage/s3-storage";
import { createAudioStorage } from "../storage/storage-factory";
import { startTestS3, type TestS3 } from "./s3-server";
import { type SmtpSink, startSmtpSink } from "./smtp-sink";

export const TEST_POSTGRES_URL =
  process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** Both databases every repository test runs on. */
export const DATABASE_KINDS: DatabaseKind[] = ["sqlite", "postgres"];

export async function makeTempDir(prefix = "vmj-test-"): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

export interface TestDatabase {
  handle: DatabaseHandle;
  /** Where it lives, to open a second connection to the same database (two app instances). */
  target: DatabaseTarget;
  cleanup(): Promise<void>;
}

/**
 * A fresh, migrated database: a temp SQLite file, or a new PostgreSQL database. A database rather
 * than a schema per file, because catalog-wide introspection in one file's migration fails when
 * another file drops its schema at the same moment ("schema ... does not exist").
 */
export async function createTestDatabase(
  kind: DatabaseKind,
  options: OpenOptions = {},
): Promise<TestDatabase> {
  if (kind === "sqlite") {
    const dir = await makeTempDir("vmj-db-");
    const target: DatabaseTarget = { kind: "sqlite", file: path.join(dir, "test.db") };
    const handle = await openDatabase(target, options);
    return {
      handle,
      target,
      cleanup: async () => {
        await handle.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `vmj_test_${newId()
    .replace(/[^A-Za-z0-9]/g, "")
    .toLowerCase()}`;
  await adminQuery(`create database "${name}"`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const target: DatabaseTarget = { kind: "postgres", url: url.toString() };
  const handle = await openDatabase(target, options);
  return {
    handle,
    target,
    cleanup: async () => {
      // Dropped even when closing the pool fails; `with (force)` ends any connection left open.
      try {
        await handle.close();
      } finally {
        await adminQuery(`drop database if exists "${name}" with (force)`);
      }
    },
  };
}

/** A new, empty PostgreSQL database (no migrations): what a restore from `pg_dump` goes into. */
export async function createEmptyPostgresDatabase(): Promise<{
  url: string;
  drop(): Promise<void>;
}> {
  const name = `vmj_empty_${newId()
    .replace(/[^A-Za-z0-9]/g, "")
    .toLowerCase()}`;
  await adminQuery(`create database "${name}"`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await adminQuery(`drop database if exists "${name}" with (force)`);
    },
  };
}

async function adminQuery(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    return await admin.query(text, values);
  } finally {
    await admin.end();
  }
}

/**
 * Ends every connection to a test's PostgreSQL database (`target`), or only the one with backend
 * `pid`, as a restart or failover would; returns how many were ended.
 */
export async function terminateConnections(target: DatabaseTarget, pid?: number): Promise<number> {
  if (target.kind !== "postgres") throw new Error("not a PostgreSQL database");
  const name = new URL(target.url).pathname.slice(1);
  const result = await adminQuery(
    "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and ($2::int is null or pid = $2::int)",
    [name, pid ?? null],
  );
  return result.rowCount ?? 0;
}

/** Both places audio can live; the storage suite and the S3 route tests run on each. */
export type StorageKind = "local" | "s3";
export const STORAGE_KINDS: StorageKind[] = ["local", "s3"];

/** A test's S3-compatible server and the bucket its app uses. */
export interface TestBucket {
  server: TestS3;
  settings: S3StorageSettings;
}

export interface TestApp {
  app: App;
  config: Config;
  database: DatabaseHandle;
  /** Where the database lives, to open another connection to it (a second instance). */
  databaseTarget: DatabaseTarget;
  storage: AudioStorage;
  /** Set when the app stores audio in a bucket (`storage: "s3"`). */
  bucket: TestBucket | null;
  services: Services;
  dataDir: string;
  cleanup(): Promise<void>;
}

/** A silent logger for services built outside an app (tests, benchmarks). */
export const silentLog = pino({ level: "silent" });

/** Another app instance on existing parts (a second instance, a broken database, a client dir). */
export async function buildAppOn(
  deps: Omit<ServiceDeps, "log"> & { clientDir?: string },
): Promise<App> {
  const { clientDir, ...serviceDeps } = deps;
  const services = createServices({ ...serviceDeps, log: silentLog });
  return buildApp({ config: deps.config, services, ...(clientDir ? { clientDir } : {}) });
}

/**
 * A built app on a fresh database and data folder; nothing listens. With `storage: "s3"` its audio
 * lives in a new bucket of an S3-compatible server started for it (selected through STORAGE_URL,
 * as in production); pass `bucket` to share another app's bucket.
 */
export async function createTestApp(
  options: {
    kind?: DatabaseKind;
    storage?: StorageKind;
    bucket?: TestBucket;
    env?: Record<string, string>;
    deps?: Partial<Pick<ServiceDeps, "ai" | "mailer" | "whisperPin">> & { clientDir?: string };
  } = {},
): Promise<TestApp> {
  const dataDir = await makeTempDir("vmj-data-");
  let bucket: TestBucket | null = options.bucket ?? null;
  let ownServer: TestS3 | null = null;
  if (!bucket && options.storage === "s3") {
    ownServer = await startTestS3();
    bucket = { server: ownServer, settings: await ownServer.createBucket() };
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    NODE_ENV: "test",
    ...(bucket ? bucket.server.env(bucket.settings) : {}),
    ...options.env,
  });
  const testDb = await createTestDatabase(options.kind ?? "sqlite");
  const storage = createAudioStorage(config.storage);
  await storage.checkWritable();
  const { clientDir, ...serviceDeps } = options.deps ?? {};
  const services = createServices({
    config,
    database: testDb.handle,
    storage,
    log: silentLog,
    ...serviceDeps,
  });
  const app = await buildApp({ config, services, ...(clientDir ? { clientDir } : {}) });
  await app.ready();
  return {
    app,
    config,
    database: testDb.handle,
    databaseTarget: testDb.target,
    storage,
    bucket,
    services,
    dataDir,
    cleanup: async () => {
      await app.close();
      await testDb.cleanup();
      await ownServer?.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TwoInstances {
  /** The first instance's services, on the test database's own connection. */
  a: Services;
  /** The second instance's services, on a second connection pool to the same database. */
  b: Services;
  testDb: TestDatabase;
  /** Where both instances send their mail (SMTP_URL). */
  smtp: SmtpSink;
  cleanup(): Promise<void>;
}

/**
 * Two app instances (each its own connection pool and services) on one fresh database, as behind
 * a load balancer, sharing a data folder and one SMTP sink; `env` adds to their configuration.
 */
export async function createTwoInstances(
  kind: DatabaseKind,
  env: Record<string, string> = {},
): Promise<TwoInstances> {
  const smtp = await startSmtpSink();
  const dataDir = await makeTempDir("vmj-instances-");
  const testDb = await createTestDatabase(kind);
  const second = await openDatabase(testDb.target);
  const config = loadConfig({
    DATA_DIR: dataDir,
    NODE_ENV: "test",
    SMTP_URL: smtp.url,
    APP_URL: "https://journal.example.org",
    ...env,
  });
  const storage = new LocalAudioStorage(config.audioDir);
  const build = (database: DatabaseHandle) =>
    createServices({ config, database, storage, log: silentLog });
  const a = build(testDb.handle);
  const b = build(second);
  return {
    a,
    b,
    testDb,
    smtp,
    cleanup: async () => {
      await a.close();
      await b.close();
      await second.close();
      await testDb.cleanup();
      await smtp.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
