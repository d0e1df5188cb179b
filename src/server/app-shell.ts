import { readFile } from "node:fs/promises";
import { SESSION_USER_SCRIPT_ID } from "../shared/constants";
import { type User, userSchema } from "../shared/schemas";

/**
 * The single-page app's HTML with the logged-in user embedded as a JSON data block: the first render
 * then shows the right top bar at once (no session spinner that later reflows the page) and saves
 * the GET /api/user round trip. A data block is never executed, so the CSP needs no exception.
 */
export class AppShell {
  private template: Promise<string> | undefined;

  constructor(private readonly indexHtmlPath: string) {}

  /** `undefined` when the session could not be read: the page then asks GET /api/user itself. */
  async render(user: User | null | undefined): Promise<string> {
    this.template ??= readFile(this.indexHtmlPath, "utf8");
    const template = await this.template.catch((error: unknown) => {
      this.template = undefined;
      throw error;
    });
    if (user === undefined) return template;
    // Only the fields GET /api/user would send; `<` escaped so no text can close the element.
    const json = JSON.stringify(user ? userSchema.parse(user) : null).replace(/</g, "\\u003c");
    const block = `<script type="application/json" id="${SESSION_USER_SCRIPT_ID}">${json}</script>`;
    // A replacer function, not a replacement string: the user's text may hold `$&`, `$'` or `` $` ``.
    return template.includes("</head>")
      ? template.replace("</head>", () => `${block}</head>`)
      : `${block}${template}`;
  }
}
