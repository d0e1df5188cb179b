/**
 * ICU messages, the catalogues' one syntax for words with values: "{name} asks: {question}",
 * "{count, plural, one {# story} other {# stories}}", "{role, select, relative {…} other {…}}".
 * The subset the catalogues use (arguments, number, plural with =n and `#`, select, ICU's
 * apostrophe quoting), checked against FormatJS's intl-messageformat on every message of every
 * language by `catalogues.test.ts`; kept small so the first download carries no parser library.
 */

import { currentLanguage } from "./languages";

export type MessageValues = Readonly<Record<string, string | number>>;

type Part =
  | { kind: "text"; text: string }
  | { kind: "argument"; name: string; number: boolean }
  | { kind: "pound" }
  | { kind: "plural" | "select"; name: string; options: Map<string, Part[]> };

class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  parse(): Part[] {
    const parts = this.parts(false, 0);
    if (this.at < this.source.length) this.fail("an unmatched }");
    return parts;
  }

  private fail(what: string): never {
    throw new SyntaxError(`ICU message: ${what} at ${this.at} in "${this.source}"`);
  }

  /** Text and arguments until the end or a closing brace at this depth. */
  private parts(inPlural: boolean, depth: number): Part[] {
    const parts: Part[] = [];
    let text = "";
    const flush = () => {
      if (text) parts.push({ kind: "text", text });
      text = "";
    };
    while (this.at < this.source.length) {
      const char = this.source[this.at];
      if (char === "'") {
        text += this.quoted(inPlural);
        continue;
      }
      if (char === "}") {
        if (depth === 0) this.fail("an unmatched }");
        break;
      }
      if (char === "{") {
        flush();
        parts.push(this.argument(depth));
        continue;
      }
      if (char === "#" && inPlural) {
        flush();
        parts.push({ kind: "pound" });
        this.at++;
        continue;
      }
      text += char;
      this.at++;
    }
    flush();
    return parts;
  }

  /** ICU's apostrophe: '' is one apostrophe; '{…}' quotes syntax; otherwise it is itself. */
  private quoted(inPlural: boolean): string {
    const next = this.source[this.at + 1];
    if (next === "'") {
      this.at += 2;
      return "'";
    }
    if (next === "{" || next === "}" || (inPlural && next === "#")) {
      let text = "";
      this.at++;
      while (this.at < this.source.length) {
        if (this.source[this.at] === "'") {
          if (this.source[this.at + 1] === "'") {
            text += "'";
            this.at += 2;
            continue;
          }
          this.at++;
          return text;
        }
        text += this.source[this.at++];
      }
      return text;
    }
    this.at++;
    return "'";
  }

  private word(): string {
    this.space();
    const match = /^[\p{L}\p{N}_=.-]+/u.exec(this.source.slice(this.at));
    if (!match) this.fail("a name was expected");
    this.at += match[0].length;
    this.space();
    return match[0];
  }

  private space() {
    while (/\s/.test(this.source[this.at] ?? "")) this.at++;
  }

  private expect(char: string) {
    if (this.source[this.at] !== char) this.fail(`"${char}" was expected`);
    this.at++;
  }

  private argument(depth: number): Part {
    this.expect("{");
    const name = this.word();
    if (this.source[this.at] === "}") {
      this.at++;
      return { kind: "argument", name, number: false };
    }
    this.expect(",");
    const type = this.word();
    if (type === "number") {
      this.expect("}");
      return { kind: "argument", name, number: true };
    }
    if (type !== "plural" && type !== "select") this.fail(`the type "${type}" is not supported`);
    this.expect(",");
    const options = new Map<string, Part[]>();
    this.space();
    while (this.source[this.at] !== "}") {
      const key = this.word();
      this.expect("{");
      options.set(key, this.parts(type === "plural", depth + 1));
      this.expect("}");
      this.space();
      if (this.at >= this.source.length) this.fail("a } was expected");
    }
    this.at++;
    if (!options.has("other")) this.fail(`"${name}" has no "other" case`);
    return { kind: type, name, options };
  }
}

const parsed = new Map<string, Part[]>();
const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function rulesFor(locale: string): Intl.PluralRules {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules;
}

function formatNumber(value: number, locale: string): string {
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale);
    numberFormats.set(locale, format);
  }
  return format.format(value);
}

function render(parts: Part[], values: MessageValues, locale: string, pound?: number): string {
  let out = "";
  for (const part of parts) {
    if (part.kind === "text") out += part.text;
    else if (part.kind === "pound") out += pound === undefined ? "#" : formatNumber(pound, locale);
    else if (part.kind === "argument") {
      const value = values[part.name];
      if (value === undefined) throw new Error(`ICU message: no value for "${part.name}"`);
      out += part.number || typeof value === "number" ? formatNumber(Number(value), locale) : value;
    } else {
      const value = values[part.name];
      if (value === undefined) throw new Error(`ICU message: no value for "${part.name}"`);
      let chosen: Part[] | undefined;
      if (part.kind === "plural") {
        const count = Number(value);
        chosen = part.options.get(`=${count}`) ?? part.options.get(rulesFor(locale).select(count));
        out += render(chosen ?? (part.options.get("other") as Part[]), values, locale, count);
      } else {
        chosen = part.options.get(String(value)) ?? part.options.get("other");
        out += render(chosen as Part[], values, locale, pound);
      }
    }
  }
  return out;
}

/** `message` with its values put in, by `locale`'s plural rules and number format. */
export function formatMessage(
  message: string,
  values: MessageValues = {},
  locale: string = currentLanguage(),
): string {
  let parts = parsed.get(message);
  if (!parts) {
    parts = new Parser(message).parse();
    parsed.set(message, parts);
  }
  return render(parts, values, locale);
}

/** The names of a message's values, for the check that every language asks for the same ones. */
export function messageArguments(message: string): string[] {
  const names = new Set<string>();
  const visit = (parts: Part[]) => {
    for (const part of parts) {
      if (part.kind === "argument") names.add(part.name);
      if (part.kind === "plural" || part.kind === "select") {
        names.add(part.name);
        for (const option of part.options.values()) visit(option);
      }
    }
  };
  visit(new Parser(message).parse());
  return [...names].sort();
}
