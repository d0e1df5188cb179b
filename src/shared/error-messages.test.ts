import { describe, expect, it } from "vitest";
import {
  ERROR_MESSAGES,
  type ErrorCode,
  failedSaveMemoryDescription,
  isErrorCode,
  messageFor,
  PROCESSING_ERROR_CODES,
} from "./messages";
import { canRetryProcessing } from "./rules";

/** What a status line, a library or the runtime writes: never a family's words. */
const TECHNICAL = [
  /^\d{3}:/,
  /\b(Internal Server Error|Bad Request|Service Unavailable)\b/i,
  /central directory|invalid signature|Unexpected token|expected \w+, received/i,
  /\bE(CONN\w+|TIMEDOUT|NOTFOUND|PIPE|ACCES)\b|SQLITE_|FST_ERR|undefined|null|\[object/,
  /^[a-zA-Z.]+: /,
];

describe("the error catalogue", () => {
  const codes = Object.keys(ERROR_MESSAGES) as ErrorCode[];

  it.each(codes)("%s has words a family can read", (code) => {
    const text = messageFor(code, "internal_error");
    expect(text).toBe(ERROR_MESSAGES[code]);
    expect(text.trim().length, code).toBeGreaterThan(0);
    for (const pattern of TECHNICAL) expect(text, code).not.toMatch(pattern);
  });

  it("codes are lower_snake or dotted", () => {
    for (const code of codes) expect(code).toMatch(/^[a-z_]+(\.[a-z_]+)?$/);
  });

  it("an unknown or missing code says the fallback's words", () => {
    expect(messageFor("something.new", "processing.failed")).toBe(
      ERROR_MESSAGES["processing.failed"],
    );
    expect(messageFor(null, "internal_error")).toBe(ERROR_MESSAGES.internal_error);
    expect(messageFor("toString", "not_found")).toBe(ERROR_MESSAGES.not_found);
    expect(isErrorCode("constructor")).toBe(false);
  });

  it("after 'Failed to save memory', every code's words say what to do next, once", () => {
    for (const code of codes) {
      const description = failedSaveMemoryDescription(code);
      expect(description, code).toMatch(/\b(try again|please)\b/i);
      expect(description.match(/try again/gi)?.length ?? 0, code).toBeLessThanOrEqual(1);
      expect(description, code).not.toMatch(/\.\./);
    }
  });

  it("offers Retry by code, only where processing again could help", () => {
    for (const code of PROCESSING_ERROR_CODES) {
      const hopeless = code === "transcribe.no_speech" || code === "transcribe.recording_missing";
      expect(canRetryProcessing(code), code).toBe(!hopeless);
    }
    expect(canRetryProcessing(null)).toBe(true);
  });
});
