import { readFile } from "node:fs/promises";
import {
  CURRENT_QUESTION_SCRIPT_ID,
  PAGE_LANGUAGE_SCRIPT_ID,
  PAGE_MEMORY_OWNER_SCRIPT_ID,
  PAGE_MEMORY_SCRIPT_ID,
  SESSION_USER_SCRIPT_ID,
  SHARED_WITH_ME_SCRIPT_ID,
} from "../shared/constants";
import { directionOf, isLanguage, type Language } from "../shared/i18n/languages";
import { type CurrentQuestion, currentQuestionSchema } from "../shared/reminders";
import {
  type Memory,
  type MemoryOwner,
  memoryOwnerSchema,
  memorySchema,
  type SharedWithMe,
  sharedWithMeSchema,
  type User,
  userSchema,
} from "../shared/schemas";

/**
 * A JSON data block; `<` escaped so no text can close the element (or open a comment), and the
 * line separators U+2028/U+2029 too, so the text stays valid should it ever be read as script.
 */
function dataBlock(id: string, value: unknown): string {
  const json = JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return `<script type="application/json" id="${id}">${json}</script>`;
}

/** What a page carries besides the user (each left out when not given). */
export interface PageExtras {
  /** The logged-in user's own current question (the home page). */
  question?: CurrentQuestion | undefined;
  /** The memory a memory's page shows, when this request may see it (ADR 0031). */
  memory?: Memory | undefined;
  /** Whose it is, so its page names them from the first paint. */
  owner?: MemoryOwner | undefined;
  /** For a logged-out browser: whose memories its share links open (none for a stranger). */
  sharedWithMe?: SharedWithMe | undefined;
  /** The language the page speaks whoever opens it (a storyteller's recording link). */
  language?: Language | undefined;
}

/**
 * The single-page app's HTML with the logged-in user embedded as a JSON data block: the first render
 * then shows the right top bar at once (no session spinner that later reflows the page) and saves
 * the GET /api/user round trip. On the home page the user's current question comes the same way, so
 * the prompt above the recorder paints with the page; on a memory's page, the memory. A data block
 * is never executed, so the CSP needs no exception.
 */
export class AppShell {
  private template: Promise<string> | undefined;

  constructor(private readonly indexHtmlPath: string) {}

  /**
   * `user` is `undefined` when the session could not be read: the page then asks GET /api/user
   * itself. Whatever of `extras` is left out, the page asks the API for.
   */
  async render(
    user: User | null | undefined,
    { question, memory, owner, sharedWithMe, language }: PageExtras = {},
  ): Promise<string> {
    this.template ??= readFile(this.indexHtmlPath, "utf8");
    const template = await this.template.catch((error: unknown) => {
      this.template = undefined;
      throw error;
    });
    let blocks = "";
    // Each block holds only the fields its API route would send (parsed by the route's schema).
    if (user !== undefined) {
      blocks += dataBlock(SESSION_USER_SCRIPT_ID, user ? userSchema.parse(user) : null);
    }
    if (user && question) {
      blocks += dataBlock(CURRENT_QUESTION_SCRIPT_ID, currentQuestionSchema.parse(question));
    }
    if (memory) blocks += dataBlock(PAGE_MEMORY_SCRIPT_ID, memorySchema.parse(memory));
    if (memory && owner) {
      blocks += dataBlock(PAGE_MEMORY_OWNER_SCRIPT_ID, memoryOwnerSchema.parse(owner));
    }
    if (user === null && sharedWithMe) {
      blocks += dataBlock(SHARED_WITH_ME_SCRIPT_ID, sharedWithMeSchema.parse(sharedWithMe));
    }
    let page = template;
    if (isLanguage(language)) {
      blocks += dataBlock(PAGE_LANGUAGE_SCRIPT_ID, language);
      // The document's language and direction from the first byte, before the script runs.
      page = page.replace(
        /<html\b[^>]*>/i,
        () => `<html lang="${language}" dir="${directionOf(language)}">`,
      );
    }
    if (!blocks) return page;
    // A replacer function, not a replacement string: the user's text may hold `$&`, `$'` or `` $` ``.
    return page.includes("</head>")
      ? page.replace("</head>", () => `${blocks}</head>`)
      : `${blocks}${page}`;
  }
}
