import type SqliteDatabase from "better-sqlite3";

export declare const RELEVANCE_FUNCTION: "relevance";
export declare function relevance(
  fields: { title: string; tags: string; summary: string },
  words: readonly string[],
): number;
export declare function registerRelevanceFunction(sqlite: SqliteDatabase.Database): void;
