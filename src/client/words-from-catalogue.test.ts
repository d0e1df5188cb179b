import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseAst } from "vite";
import { describe, expect, it } from "vitest";

/**
 * Every word the browser shows comes from the catalogues, in every language: no words written
 * between a component's tags, nor in the attributes a person reads or hears. The pseudo-locale
 * run in Chromium finds what it renders; this finds the rest (a state that run never reaches).
 */
const READ_ATTRIBUTES = new Set(["aria-label", "aria-description", "title", "placeholder", "alt"]);
const WORD = /\p{L}{2,}/u;
const CLIENT = import.meta.dirname;

interface AstNode {
  type?: string;
  start?: number;
  value?: unknown;
  name?: { name?: unknown };
  [key: string]: unknown;
}

/** The words in a component's markup that bypass the catalogues, as "file:line: words". */
function wordsOutsideCatalogue(file: string, text: string): string[] {
  const found: string[] = [];
  const report = (node: AstNode, words: string) => {
    // The line of its first word (a text between tags starts with the line break before it).
    const at = (node.start ?? 0) + (node.type === "JSXText" ? words.search(/\S/) : 0);
    const line = text.slice(0, at).split("\n").length;
    found.push(`${path.relative(CLIENT, file)}:${line}: ${words.trim()}`);
  };
  const visit = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (!node || typeof node !== "object") return;
    const element = node as AstNode;
    if (element.type === "JSXText" && typeof element.value === "string") {
      if (WORD.test(element.value)) report(element, element.value);
    } else if (element.type === "JSXAttribute") {
      const value = element.value as AstNode | null;
      const said = typeof value?.value === "string" ? value.value : "";
      if (READ_ATTRIBUTES.has(String(element.name?.name)) && WORD.test(said)) {
        report(element, said);
      }
    }
    for (const [key, child] of Object.entries(element)) {
      if (key !== "type" && child && typeof child === "object") visit(child);
    }
  };
  visit(parseAst(text, { lang: "tsx" }));
  return found;
}

function components(): string[] {
  return readdirSync(CLIENT, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".tsx") && !name.endsWith(".test.tsx"))
    .map((name) => path.join(CLIENT, name));
}

describe("the browser's words", () => {
  it("come from the catalogues: none is written in a component's markup", () => {
    const found = components().flatMap((file) =>
      wordsOutsideCatalogue(file, readFileSync(file, "utf8")),
    );
    expect(found).toEqual([]);
  });

  it("finds words written between tags or in a read attribute (the rule can fail)", () => {
    const probe = [
      "export const A = () => (",
      '  <p aria-label="Close" className="text-sm">',
      "    Transcript unavailable: {reason}",
      "    {MESSAGES.ok} · {' '}",
      "  </p>",
      ");",
    ].join("\n");
    expect(wordsOutsideCatalogue(path.join(CLIENT, "probe.tsx"), probe)).toEqual([
      "probe.tsx:2: Close",
      "probe.tsx:3: Transcript unavailable:",
    ]);
  });
});
