import type { ByteRange } from "../storage/audio-storage";

/**
 * Parses a `Range` header against a file of `size` bytes (RFC 9110 section 14).
 * Returns "none" to send the whole file (no header, another unit, or several ranges, which we
 * answer in full rather than as multipart), a single inclusive range, or "unsatisfiable" (416).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): "none" | "unsatisfiable" | ByteRange {
  if (header === undefined) return "none";
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!match?.[1]) return "none";
  const specs = match[1].split(",").map((s) => s.trim());
  if (specs.length !== 1) return "none";
  const spec = /^(\d*)-(\d*)$/.exec(specs[0] ?? "");
  if (!spec) return "unsatisfiable";
  const [, first = "", last = ""] = spec;
  if (first === "" && last === "") return "unsatisfiable";
  if (first === "") {
    // A suffix: the last N bytes.
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}
