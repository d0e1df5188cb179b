import type { Kysely } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * Share links remember the address the owner made them at (`origin`, e.g.
 * `http://192.168.1.20:5202`): without APP_URL, relatives' news mailed later is built on it.
 * Links made before have none and fall back to the configured address.
 */
export const linkOrigins: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("share_links").addColumn("origin", "text").execute();
  },
};
