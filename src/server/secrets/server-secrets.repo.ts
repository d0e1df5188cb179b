import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import { nowIso } from "../ids";

/**
 * Secrets every app instance shares, made on first use and kept in the database (never sent to a
 * browser, never logged). The only code that reads or writes `server_secrets`.
 */
export class ServerSecretsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The secret named `name` (256 random bits); instances racing to make it all get the same one. */
  async getOrCreate(name: string): Promise<Buffer> {
    await this.db
      .insertInto("server_secrets")
      .values({ name, value: randomBytes(32).toString("base64url"), created_at: nowIso() })
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();
    const row = await this.db
      .selectFrom("server_secrets")
      .select("value")
      .where("name", "=", name)
      .executeTakeFirstOrThrow();
    return Buffer.from(row.value, "base64url");
  }
}

/** The secret `name`, read once and kept by the caller; a failed read is tried again next time. */
export function cachedSecret(
  secrets: Pick<ServerSecretsRepo, "getOrCreate">,
  name: string,
): () => Promise<Buffer> {
  let secret: Promise<Buffer> | undefined;
  return () => {
    secret ??= secrets.getOrCreate(name).catch((error: unknown) => {
      secret = undefined;
      throw error;
    });
    return secret;
  };
}
