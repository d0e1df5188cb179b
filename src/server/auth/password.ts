import { hash, verify } from "@node-rs/argon2";

// argon2id (algorithm 2) with OWASP's minimum: 19 MiB, 2 passes, 1 lane (about 100 ms here).
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash of nothing, verified against when a username is unknown so both answers take as long. */
export const DUMMY_PASSWORD_HASH = hashPassword("not-a-real-password-for-timing");
