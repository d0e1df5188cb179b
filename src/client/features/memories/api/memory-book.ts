import { MEMORY_BOOK } from "../../../../shared/messages";
import { DEFAULT_BOOK_PAPER, type MemoryBookQuery } from "../../../../shared/schemas";
import { downloadFile } from "./backup-memories";

export const MEMORY_BOOK_PATH = "/api/memory-book";

/** GET /api/memory-book with only the filters that are set (and the paper unless the default). */
export function memoryBookUrl(filter: MemoryBookQuery): string {
  const params = new URLSearchParams();
  if (filter.from) params.set("from", filter.from);
  if (filter.to) params.set("to", filter.to);
  if (filter.tag?.trim()) params.set("tag", filter.tag.trim());
  if (filter.paper && filter.paper !== DEFAULT_BOOK_PAPER) params.set("paper", filter.paper);
  if (filter.journal) params.set("journal", filter.journal);
  const query = params.toString();
  return query ? `${MEMORY_BOOK_PATH}?${query}` : MEMORY_BOOK_PATH;
}

/** Downloads the printable PDF straight to disk; throws with the server's message if it cannot start. */
export function downloadMemoryBook(filter: MemoryBookQuery): Promise<void> {
  return downloadFile(memoryBookUrl(filter), MEMORY_BOOK.defaultFilename);
}
