import { createHash, randomBytes } from "node:crypto";

/** A random, unguessable identifier for URLs (128 bits, URL-safe). */
export function newId(): string {
  return randomBytes(16).toString("base64url");
}

/** A secret token of 256 bits for cookies and links; only its hash is stored. */
export function newSecretToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

export function nowIso(): string {
  return new Date().toISOString();
}
