import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { cachedSecret, type ServerSecretsRepo } from "./server-secrets.repo";

/** Seals and opens short texts (a link's token) with a server secret. */
export interface SealedBox {
  seal(text: string): Promise<string>;
  /** Throws when `sealed` was not sealed by this box (another secret, or altered). */
  unseal(sealed: string): Promise<string>;
}

/**
 * A link's token kept beside its hash, encrypted with AES-256-GCM under a key derived from the
 * server secret `name`: only the hash finds a link, and only the server can read the token back
 * (for a mail's links, a card printed again). Sealed as base64url of iv (12) | tag (16) | text.
 */
export function sealedBox(
  secrets: Pick<ServerSecretsRepo, "getOrCreate">,
  name: string,
): SealedBox {
  const secret = cachedSecret(secrets, name);
  const key = async () =>
    createHmac("sha256", await secret())
      .update("seal")
      .digest();
  return {
    async seal(text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", await key(), iv);
      const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
    },
    async unseal(sealed) {
      const bytes = Buffer.from(sealed, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", await key(), bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString(
        "utf8",
      );
    },
  };
}
