import { existsSync } from "node:fs";
import bidiFactory from "bidi-js";
import { directionOf, type Language, SOURCE_LANGUAGE } from "../../shared/i18n/languages";
import { loadFonts } from "./pdf-parts";

/**
 * Where Debian puts the fonts a Chinese book or card is set in (`apt install fonts-wqy-microhei`,
 * or fonts-wqy-zenhei), with the name of the face inside each collection. DejaVu has no Chinese.
 */
const CJK_FONTS = [
  { path: "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", family: "WenQuanYiMicroHei" },
  { path: "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", family: "WenQuanYiZenHei" },
] as const;

/** A font pdfkit embeds: its bytes or file, and the face's name inside a collection. */
interface FontSource {
  src: Buffer | string;
  family?: string;
}

/**
 * How a PDF is written in a language: the language its words are in, its fonts, and its direction.
 * Chinese needs a CJK font from the system; without one the words fall back to English (the
 * product's words stay readable) and `missingFont` says so, for the log.
 */
export interface PdfWriting {
  language: Language;
  rtl: boolean;
  regular: FontSource;
  bold: FontSource;
  missingFont: boolean;
}

let cjk: FontSource | null | undefined;
function cjkFont(): FontSource | null {
  if (cjk === undefined) {
    const found = CJK_FONTS.find((font) => existsSync(font.path));
    cjk = found ? { src: found.path, family: found.family } : null;
  }
  return cjk;
}

/** The fonts and direction a PDF in `language` is set with (DejaVu Sans shapes Arabic itself). */
export function pdfWriting(language: Language): PdfWriting {
  const dejavu = loadFonts();
  const latin = {
    language,
    rtl: directionOf(language) === "rtl",
    regular: { src: dejavu.regular },
    bold: { src: dejavu.bold },
    missingFont: false,
  };
  if (language !== "zh-CN") return latin;
  const font = cjkFont();
  // The collection has no bold face: headings are set in its one weight.
  if (font) return { ...latin, regular: font, bold: font };
  return { ...latin, language: SOURCE_LANGUAGE, missingFont: true };
}

/** What the server logs when a PDF in `language` cannot be set in its own script; else undefined. */
export function missingFontWarning(language: Language): string | undefined {
  return pdfWriting(language).missingFont
    ? `no CJK font for a ${language} PDF: its words are written in English (install fonts-wqy-microhei)`
    : undefined;
}

/** Registers the writing's fonts on a document as "regular" and "bold". */
export function registerFonts(doc: PDFKit.PDFDocument, writing: PdfWriting): void {
  doc.registerFont("regular", writing.regular.src, writing.regular.family as string);
  doc.registerFont("bold", writing.bold.src, writing.bold.family as string);
}

const bidi = bidiFactory();
const STRONG_RIGHT_TO_LEFT = /[\p{Script=Arabic}\p{Script=Hebrew}]/u;

/** Whether a text needs the bidirectional layout (it holds right-to-left letters). */
export function hasRightToLeft(text: string): boolean {
  return STRONG_RIGHT_TO_LEFT.test(text);
}

const FIRST_LETTER = /\p{L}/u;

/**
 * Whether a paragraph reads right to left: by its first letter, as a page's `dir="auto"` does
 * (Unicode's rules P2 and P3), so a Spanish story in an Arabic book keeps its full stop at its end;
 * the page's direction where it has no letter.
 */
export function readsRightToLeft(paragraph: string, pageRtl: boolean): boolean {
  const letter = FIRST_LETTER.exec(paragraph)?.[0];
  return letter === undefined ? pageRtl : hasRightToLeft(letter);
}

/**
 * One line's runs in the order they are drawn from left to right (Unicode's bidirectional
 * algorithm, rules L2 and L4). A right-to-left run keeps its logical order: fontkit shapes Arabic
 * (joining forms) and lays a run of Arabic script out right to left itself; a right-to-left run
 * with no Arabic letter in it (spaces, punctuation) is turned here. Brackets are mirrored here.
 */
export function visualRuns(line: string, rtl: boolean): string[] {
  const { levels } = bidi.getEmbeddingLevels(line, rtl ? "rtl" : "ltr");
  // Levels are per UTF-16 unit; both halves of a surrogate pair share one, so a run keeps them.
  const runs: { text: string; mirrored: string; level: number }[] = [];
  for (let i = 0; i < line.length; i++) {
    const level = levels[i] ?? 0;
    const char = line[i] as string;
    const shown = level % 2 === 1 ? (bidi.getMirroredCharacter(char) ?? char) : char;
    const last = runs[runs.length - 1];
    if (last && last.level === level) {
      last.text += char;
      last.mirrored += shown;
    } else runs.push({ text: char, mirrored: shown, level });
  }
  const highest = Math.max(...runs.map((run) => run.level));
  const lowestOdd = Math.min(...runs.map((run) => run.level).filter((level) => level % 2 === 1));
  for (let level = highest; level >= lowestOdd && Number.isFinite(lowestOdd); level--) {
    for (let start = 0; start < runs.length; start++) {
      if ((runs[start]?.level ?? 0) < level) continue;
      let end = start;
      while (end + 1 < runs.length && (runs[end + 1]?.level ?? 0) >= level) end++;
      runs.splice(start, end - start + 1, ...runs.slice(start, end + 1).reverse());
      start = end;
    }
  }
  // A right-to-left run's brackets are mirrored (fontkit does not); fontkit turns the runs with
  // Arabic letters, the others are turned here.
  return runs.map((run) => {
    if (run.level % 2 === 0) return run.text;
    return hasRightToLeft(run.text) ? run.mirrored : [...run.mirrored].reverse().join("");
  });
}

// With features, pdfkit lays a run out whole rather than word by word, so fontkit turns a
// right-to-left run as one (its words then stand in their right-to-left order).
const WHOLE = { lineBreak: false, features: [] };

/** The width of one line of text as `drawLine` draws it. */
export function lineWidth(doc: PDFKit.PDFDocument, line: string): number {
  return doc.widthOfString(line, WHOLE);
}

/** One unwrapped line from its left edge at x, its runs in their visual order; never a new page. */
export function drawLine(
  doc: PDFKit.PDFDocument,
  line: string,
  x: number,
  y: number,
  rtl: boolean,
): void {
  let left = x;
  for (const run of visualRuns(line, rtl)) {
    doc.text(run, left, y, WHOLE);
    left += doc.widthOfString(run, WHOLE);
  }
}

/** Options of a right-to-left (or mixed) text block, as pdfkit's own `text` takes them. */
export interface BidiTextOptions {
  width: number;
  align?: "left" | "center" | "right" | "justify" | undefined;
  lineGap?: number | undefined;
  paragraphGap?: number | undefined;
  /**
   * The family's own words (a title, a transcript, a name): each paragraph reads in the direction
   * of its first letter. The product's words, whose values may come first ("{name}، ..."), read in
   * the page's direction.
   */
  ownWords?: boolean | undefined;
}

/** A paragraph cut into lines no wider than `width`, at spaces (a longer word is cut anywhere). */
function wrap(doc: PDFKit.PDFDocument, paragraph: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of paragraph.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (doc.widthOfString(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    while (doc.widthOfString(line) > width && line.length > 1) {
      let cut = line.length - 1;
      while (cut > 1 && doc.widthOfString(line.slice(0, cut)) > width) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [""];
}

/**
 * Writes text the way pdfkit's `text` does (wrapped in `width` from x, y, onto new pages past the
 * bottom margin), for a right-to-left page or a text holding right-to-left letters: pdfkit wraps
 * and shapes, but lays every line out left to right. Right-to-left lines align right by default.
 */
export function bidiText(
  doc: PDFKit.PDFDocument,
  text: string,
  x: number,
  y: number,
  rtl: boolean,
  options: BidiTextOptions,
): void {
  const { width, lineGap = 0, paragraphGap = 0 } = options;
  let top = y;
  const paragraphs = text.split("\n");
  for (const [index, paragraph] of paragraphs.entries()) {
    const paragraphRtl = options.ownWords ? readsRightToLeft(paragraph, rtl) : rtl;
    const align =
      options.align === "justify" || !options.align
        ? paragraphRtl
          ? "right"
          : "left"
        : options.align;
    // "left" is where the paragraph starts: the right, right to left.
    const side = paragraphRtl && options.align === "left" ? "right" : align;
    for (const line of wrap(doc, paragraph, width)) {
      const height = doc.currentLineHeight(true);
      if (top + height > doc.page.maxY()) {
        doc.addPage();
        top = doc.page.margins.top;
      }
      const total = lineWidth(doc, line);
      const left =
        side === "right" ? x + width - total : side === "center" ? x + (width - total) / 2 : x;
      drawLine(doc, line, left, top, paragraphRtl);
      top += height + lineGap;
    }
    if (index < paragraphs.length - 1) top += paragraphGap;
  }
  top += paragraphGap;
  doc.x = x;
  doc.y = top;
}
