import { readFile } from "node:fs/promises";
import { CURRENT_QUESTION_SCRIPT_ID, SESSION_USER_SCRIPT_ID } from "../shared/constants";
import { type CurrentQuestion, currentQuestionSchema } from "../shared/reminders";
import { type User, userSchema } from "../shared/schemas";

/** A JSON data block; `<` escaped so no text can close the element (or open a comment). */
function dataBlock(id: string, value: unknown): string {
  const json = JSON.stringify(value).replace(/</g, "\\u003c");
  return `<script type="application/json" id="${id}">${json}</script>`;
}

/**
 * The single-page app's HTML with the logged-in user embedded as a JSON data block: the first render
 * then shows the right top bar at once (no session spinner that later reflows the page) and saves
 * the GET /api/user round trip. On the home page the user's current question comes the same way, so
 * the prompt above the recorder paints with the page. A data block is never executed, so the CSP
 * needs no exception.
 */
export class AppShell {
  private template: Promise<string> | undefined;

  constructor(private readonly indexHtmlPath: string) {}

  /**
   * `user` is `undefined` when the session could not be read: the page then asks GET /api/user
   * itself. `question` (that user's own) is left out when not given: the page then asks for it.
   */
  async render(user: User | null | undefined, question?: CurrentQuestion): Promise<string> {
    this.template ??= readFile(this.indexHtmlPath, "utf8");
    const template = await this.template.catch((error: unknown) => {
      this.template = undefined;
      throw error;
    });
    if (user === undefined) return template;
    // Only the fields GET /api/user (and GET /api/question) would send.
    let blocks = dataBlock(SESSION_USER_SCRIPT_ID, user ? userSchema.parse(user) : null);
    if (user && question) {
      blocks += dataBlock(CURRENT_QUESTION_SCRIPT_ID, currentQuestionSchema.parse(question));
    }
    // A replacer function, not a replacement string: the user's text may hold `$&`, `$'` or `` $` ``.
    return template.includes("</head>")
      ? template.replace("</head>", () => `${blocks}</head>`)
      : `${blocks}${template}`;
  }
}
