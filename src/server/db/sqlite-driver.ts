import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

const require = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split(".")[0]);

/**
 * better-sqlite3, in the build that runs on this Node. Version 12 (compiled for the running Node)
 * on Node 20, where 13 crashes; version 13 (Node-API, prebuilt in its package) from Node 22, because
 * 12 built against Node 24.19+ aborts the process when a statement is garbage collected.
 */
export const SqliteDatabase: typeof BetterSqlite3 =
  nodeMajor >= 22 ? require("better-sqlite3-napi") : require("better-sqlite3");

/** The driver's types, under the same name as the constructor, as better-sqlite3 exports them. */
export declare namespace SqliteDatabase {
  type Database = BetterSqlite3.Database;
  type Statement = BetterSqlite3.Statement;
  type Options = BetterSqlite3.Options;
}
