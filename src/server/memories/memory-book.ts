import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { PassThrough, type Readable } from "node:stream";
import PDFDocument from "pdfkit";
import QRCode from "qrcode";
import { formatDate } from "../../shared/dates";
import { MEMORY_BOOK_PDF } from "../../shared/messages";
import type { MemoryBookQuery, User } from "../../shared/schemas";
import { ownJournalId } from "../journals/journals.repo";
import type { BookPhoto } from "../photos/photos.service";
import { StorageUnavailableError } from "../storage/audio-storage";
import type { MemoriesRepo, MemoryRow } from "./memories.repo";
import { toMemoryDto } from "./memory-dto";

/** Memories read from the database per query while the book is made. */
const BATCH_SIZE = 100;
/** Generation pauses while this much PDF is waiting for a slow reader (flat memory). */
const HIGH_WATER_BYTES = 1024 * 1024;

// A4 in points, with 2 cm margins.
const PAGE = { width: 595.28, height: 841.89, margin: 56 };
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const CONTENT_BOTTOM = PAGE.height - PAGE.margin;
const CONTENT_HEIGHT = CONTENT_BOTTOM - PAGE.margin;
/** A memory starts on a new page when less than this is left (its header and a few lines). */
export const MIN_SPACE_FOR_MEMORY = Math.max(200, CONTENT_HEIGHT * 0.2);
const QR_SIZE = 82;
const HEADER_TEXT_WIDTH = CONTENT_WIDTH - QR_SIZE - 18;
const TOC_LINE_HEIGHT = 20;
const TOC_LINES_FIRST_PAGE = Math.floor((CONTENT_HEIGHT - 50) / TOC_LINE_HEIGHT);
const TOC_LINES_PER_PAGE = Math.floor(CONTENT_HEIGHT / TOC_LINE_HEIGHT);
/** A photo is at most this tall on the page (about 11 cm), so a page holds two. */
const PHOTO_MAX_HEIGHT = 320;
const PHOTO_GAP = 12;

/** A photo's size on the page: the content width at most, PHOTO_MAX_HEIGHT at most. */
function photoBox(photo: Pick<BookPhoto, "width" | "height">): { width: number; height: number } {
  const scale = Math.min(CONTENT_WIDTH / photo.width, PHOTO_MAX_HEIGHT / photo.height);
  return { width: photo.width * scale, height: photo.height * scale };
}

const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | undefined;
/** DejaVu Sans covers Latin, Greek and Cyrillic with their accents; read once, embedded (subset). */
function loadFonts(): { regular: Buffer; bold: Buffer } {
  fonts ??= {
    regular: readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf")),
    bold: readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf")),
  };
  return fonts;
}

/** Which memories go in a book: recorded dates as UTC days (inclusive) and one tag. */
export type MemoryBookFilter = MemoryBookQuery;

/** A recorded day as the book prints it (recorded dates are UTC days). */
function bookDate(iso: string): string {
  return formatDate(iso, "date", { timeZone: "UTC" }) || iso;
}

function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}

function tocPageCount(memories: number): number {
  if (memories <= TOC_LINES_FIRST_PAGE) return 1;
  return 1 + Math.ceil((memories - TOC_LINES_FIRST_PAGE) / TOC_LINES_PER_PAGE);
}

type Doc = PDFKit.PDFDocument;
type Face = "regular" | "bold";

/** pdfkit's internals the book trims so that a page, once written, leaves nothing behind. */
interface DocInternals {
  /** The page tree: one reference per page, each still holding its dictionary once written. */
  _root: { data: { Pages: { data: { Kids: { data: object }[] } } } };
  /** Each font's cache of laid-out words, which otherwise keeps every distinct word ever set. */
  _fontFamilies: Record<string, { layoutCache?: Record<string, unknown> }>;
}

/** Fonts forget the words they laid out every this many pages (a page number is a new word). */
const LAYOUT_CACHE_PAGES = 16;

/**
 * Drops what pdfkit keeps of the pages already written: the page tree needs only their
 * references ("12 0 R"), not their dictionaries (with their contents' and resources' own
 * references), and the fonts' word cache would grow with every title and page number.
 * Called as a page is added, when every earlier page has been written (no `bufferPages`).
 */
function releaseWrittenPages(doc: Doc, pagesAdded: number): void {
  const internals = doc as unknown as DocInternals;
  const kids = internals._root.data.Pages.data.Kids;
  const written = kids[kids.length - 2];
  if (written) written.data = {};
  if (pagesAdded % LAYOUT_CACHE_PAGES === 0) {
    for (const font of Object.values(internals._fontFamilies)) {
      if (font.layoutCache) font.layoutCache = Object.create(null);
    }
  }
}

/**
 * The book's typesetting on one pdfkit document. Page numbers start at `firstPage`; the footer is
 * drawn as each page is added, so no page is ever held back (no `bufferPages`).
 */
class Typesetter {
  readonly doc: Doc;
  page = 0;
  private face: Face = "regular";
  private size = 11;
  private color = "#111111";

  constructor(
    firstPage: number,
    info: { title: string; author: string },
    /** False for the layout pass, whose bytes are thrown away. */
    compress = true,
  ) {
    const { regular, bold } = loadFonts();
    this.doc = new PDFDocument({
      size: [PAGE.width, PAGE.height],
      margin: PAGE.margin,
      autoFirstPage: false,
      bufferPages: false,
      compress,
      info: { Title: info.title, Author: info.author, Creator: "Voice Memory Journal" },
    });
    this.doc.registerFont("regular", regular);
    this.doc.registerFont("bold", bold);
    this.page = firstPage - 1;
    let pagesAdded = 0;
    this.doc.on("pageAdded", () => {
      releaseWrittenPages(this.doc, ++pagesAdded);
      this.page += 1;
      this.footer();
    });
  }

  style(face: Face, size: number, color = "#111111"): this {
    this.face = face;
    this.size = size;
    this.color = color;
    this.doc.font(face).fontSize(size).fillColor(color);
    return this;
  }

  /** The page number at the foot of every page but the cover. */
  private footer(): void {
    if (this.page === 1) return;
    const { doc } = this;
    const { x, y } = doc;
    doc.font("regular").fontSize(9).fillColor("#555555");
    // No `width`: with one, pdfkit wraps, and text below the margin would add a page from here.
    this.at(`${this.page}`, PAGE.width / 2, PAGE.height - PAGE.margin / 2 - 6, "center");
    doc.font(this.face).fontSize(this.size).fillColor(this.color);
    doc.x = x;
    doc.y = y;
  }

  /** One unwrapped line placed at x (its left, centre or right edge), never breaking the page. */
  at(text: string, x: number, y: number, align: "left" | "center" | "right" = "left"): void {
    const width = this.doc.widthOfString(text);
    const left = align === "left" ? x : align === "center" ? x - width / 2 : x - width;
    this.doc.text(text, left, y, { lineBreak: false });
  }

  newPage(): void {
    this.doc.addPage();
  }

  get spaceLeft(): number {
    return CONTENT_BOTTOM - this.doc.y;
  }

  /** Wrapped text at the left margin that flows onto new pages as needed. */
  paragraph(text: string, options: PDFKit.Mixins.TextOptions = {}): void {
    this.doc.text(text, PAGE.margin, this.doc.y, { width: CONTENT_WIDTH, ...options });
  }
}

/** Draws a QR code as vector squares (crisp at any print resolution), one rect per dark run. */
function drawQr(doc: Doc, text: string, x: number, y: number, size: number): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
  const count = qr.modules.size;
  const cell = size / count;
  doc.save();
  for (let row = 0; row < count; row++) {
    let col = 0;
    while (col < count) {
      if (!qr.modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < count && qr.modules.get(row, col)) col++;
      doc.rect(x + start * cell, y + row * cell, (col - start) * cell, cell);
    }
  }
  doc.fill("#000000");
  doc.restore();
}

/** What the book asks of the photos feature. */
export interface MemoryBookPhotos {
  /** Each memory's photos, cover first. */
  forBook(memoryIds: readonly string[]): Promise<Map<string, BookPhoto[]>>;
  readFile(key: string): Promise<Buffer>;
}

/** A memory as the book places it: its row and its photos (with their bytes once drawn). */
interface BookEntry {
  row: MemoryRow;
  photos: BookPhoto[];
}

export interface MemoryBookOptions {
  /**
   * The address of the share link the owner's book opens its memories through
   * (`<base>/s/<token>`, ADR 0042, `base` being APP_URL or the address the owner is using); a
   * memory's QR code is that address and `/<memory id>`.
   */
  shareLinkFor: (userId: string, base: string) => Promise<string>;
  /** The memories' photos; a book without them when absent. */
  photos?: MemoryBookPhotos;
}

/**
 * The printable memory book: a PDF made while streaming, in two passes over the memories read in
 * batches. The first lays the book out into a discarded document only to learn the page each
 * memory starts on; the second writes the cover, the contents with those page numbers, and the
 * memories. Nothing is kept but one page number per memory (see docs/adr/0017-memory-book.md).
 */
export class MemoryBook {
  constructor(
    private readonly repo: Pick<MemoriesRepo, "batchForBook">,
    private readonly options: MemoryBookOptions,
  ) {}

  /** The saved memories the book holds, oldest recorded first, read in batches, with photos. */
  private async *memories(userId: string, filter: MemoryBookFilter): AsyncGenerator<BookEntry> {
    const range = {
      from: filter.from ? `${filter.from}T00:00:00.000Z` : null,
      to: filter.to ? nextDay(filter.to) : null,
    };
    const tag = filter.tag?.trim().toLowerCase();
    let after: { recordedAt: string; seq: number } | null = null;
    for (;;) {
      const rows = await this.repo.batchForBook(ownJournalId(userId), range, after, BATCH_SIZE);
      const photos = (await this.options.photos?.forBook(rows.map((row) => row.id))) ?? new Map();
      for (const row of rows) {
        if (tag && !toMemoryDto(row).tags.some((t) => t.trim().toLowerCase() === tag)) continue;
        yield { row, photos: photos.get(row.id) ?? [] };
      }
      const last = rows[rows.length - 1];
      if (!last || rows.length < BATCH_SIZE) return;
      after = { recordedAt: last.recorded_at, seq: last.seq };
    }
  }

  /**
   * One memory: title, date and tags beside its QR code, its photos (each whole on one page),
   * then the letter and the transcript. `images` holds the photos' bytes when they are drawn;
   * without them (the layout pass) only their room is taken, and no QR code is drawn.
   */
  private typesetMemory(
    t: Typesetter,
    { row, photos }: BookEntry,
    linkFor: ((memoryId: string) => string) | null,
    images: (Buffer | null)[] = [],
  ): number {
    const memory = toMemoryDto(row);
    const { doc } = t;
    if (t.spaceLeft < MIN_SPACE_FOR_MEMORY) t.newPage();
    else if (doc.y > PAGE.margin + 1) doc.y += 24;
    const startPage = t.page;
    const top = doc.y;
    const hasQr = memory.audioUrl !== "";
    const textWidth = hasQr ? HEADER_TEXT_WIDTH : CONTENT_WIDTH;
    t.style("bold", 17);
    doc.text(memory.title || "—", PAGE.margin, top, { width: textWidth });
    t.style("regular", 11, "#444444");
    doc.text(bookDate(memory.recordedAt), PAGE.margin, doc.y + 2, { width: textWidth });
    if (memory.tags.length > 0) {
      doc.text(`${MEMORY_BOOK_PDF.tags}: ${memory.tags.join(", ")}`, PAGE.margin, doc.y + 2, {
        width: textWidth,
      });
    }
    let bottom = doc.y;
    if (hasQr) {
      const qrX = PAGE.width - PAGE.margin - QR_SIZE;
      if (linkFor) drawQr(doc, linkFor(memory.id), qrX, top, QR_SIZE);
      t.style("regular", 8, "#444444");
      t.at(MEMORY_BOOK_PDF.scanToListen, qrX + QR_SIZE / 2, top + QR_SIZE + 3, "center");
      bottom = Math.max(bottom, top + QR_SIZE + 14);
    }
    doc.y = bottom + 10;
    doc
      .moveTo(PAGE.margin, doc.y)
      .lineTo(PAGE.width - PAGE.margin, doc.y)
      .lineWidth(0.5)
      .strokeColor("#999999")
      .stroke();
    doc.y += 10;
    for (const [index, photo] of photos.entries()) {
      const box = photoBox(photo);
      // A photo never splits: it goes whole onto the next page when it does not fit.
      if (t.spaceLeft < box.height) t.newPage();
      const x = PAGE.margin + (CONTENT_WIDTH - box.width) / 2;
      const image = images[index];
      if (image) doc.image(image, x, doc.y, { width: box.width, height: box.height });
      else if (image === null)
        doc.save().rect(x, doc.y, box.width, box.height).fill("#eeeeee").restore();
      doc.y += box.height + PHOTO_GAP;
    }
    for (const [heading, body] of [
      [MEMORY_BOOK_PDF.letter, memory.summary],
      [MEMORY_BOOK_PDF.transcript, memory.transcript],
    ] as const) {
      if (!body.trim()) continue;
      // A heading never sits alone at the foot of a page.
      if (t.spaceLeft < 60) t.newPage();
      t.style("bold", 12);
      t.paragraph(heading);
      doc.y += 3;
      t.style("regular", 11);
      t.paragraph(body.trim(), { align: "left", lineGap: 2, paragraphGap: 6 });
      doc.y += 8;
    }
    return startPage;
  }

  /**
   * A photo's bytes for the page, or null when its file is gone from storage: a pale box takes
   * its place (its room was already counted), so the pages stay where the contents say. An
   * unreachable storage fails the book.
   */
  private async readPhoto(key: string): Promise<Buffer | null> {
    try {
      return await (this.options.photos as MemoryBookPhotos).readFile(key);
    } catch (error) {
      if (error instanceof StorageUnavailableError) throw error;
      return null;
    }
  }

  /** Pass one: where each memory starts, typeset into a document whose bytes are discarded. */
  private async layout(
    userId: string,
    filter: MemoryBookFilter,
    firstPage: (count: number) => number,
    signal: { aborted: boolean },
  ): Promise<{ count: number; startPages: number[]; first: string | null; last: string | null }> {
    // The table of contents' length depends on the count, so count first (one cheap read).
    let count = 0;
    for await (const _entry of this.memories(userId, filter)) count++;
    const t = new Typesetter(firstPage(count), { title: "", author: "" }, false);
    t.doc.on("data", () => {});
    t.newPage();
    t.style("regular", 11);
    const startPages: number[] = [];
    let first: string | null = null;
    let last: string | null = null;
    for await (const entry of this.memories(userId, filter)) {
      // Memories added since the count wait for the next book: the contents' length is fixed.
      if (signal.aborted || startPages.length === count) break;
      startPages.push(this.typesetMemory(t, entry, null));
      await yieldToEventLoop();
      first ??= entry.row.recorded_at;
      last = entry.row.recorded_at;
    }
    t.doc.end();
    return { count, startPages, first, last };
  }

  /**
   * The book as a PDF stream, once its share link is found or made (that may fail: 409 at the
   * share links' cap); errors while it streams destroy the stream.
   */
  async stream(
    user: Pick<User, "id" | "username" | "displayName">,
    filter: MemoryBookFilter,
    base: string,
  ): Promise<Readable> {
    const link = (await this.options.shareLinkFor(user.id, base)).replace(/\/+$/, "");
    const linkFor = (memoryId: string) => `${link}/${encodeURIComponent(memoryId)}`;
    const output = new PassThrough();
    const signal = { aborted: false };
    output.on("close", () => {
      signal.aborted = true;
    });
    void this.write(user, filter, linkFor, output, signal).catch((error: unknown) => {
      output.destroy(error as Error);
    });
    return output;
  }

  private async write(
    user: Pick<User, "id" | "username" | "displayName">,
    filter: MemoryBookFilter,
    linkFor: (memoryId: string) => string,
    output: PassThrough,
    signal: { aborted: boolean },
  ): Promise<void> {
    const name = user.displayName?.trim() || user.username;
    const firstMemoryPage = (count: number) => 2 + tocPageCount(count);
    const laidOut = await this.layout(user.id, filter, firstMemoryPage, signal);
    if (signal.aborted) return;
    const { startPages, first, last } = laidOut;
    const count = startPages.length;

    const t = new Typesetter(1, { title: `${MEMORY_BOOK_PDF.title}: ${name}`, author: name });
    const { doc } = t;
    doc.pipe(output);
    const room = roomWaiter(doc, signal);

    // Cover
    t.newPage();
    t.style("bold", 30);
    doc.y = PAGE.height * 0.3;
    t.paragraph(MEMORY_BOOK_PDF.title, { align: "center" });
    doc.y += 20;
    t.style("bold", 22);
    t.paragraph(name, { align: "center" });
    doc.y += 16;
    t.style("regular", 14, "#333333");
    t.paragraph(rangeLabel(filter, first, last), { align: "center" });
    if (filter.tag)
      t.paragraph(`${MEMORY_BOOK_PDF.taggedWith}: ${filter.tag}`, { align: "center" });
    doc.y = PAGE.height * 0.8;
    t.style("regular", 10, "#555555");
    t.paragraph(`${MEMORY_BOOK_PDF.made} ${bookDate(new Date().toISOString())}`, {
      align: "center",
    });

    // Contents: one line per memory, the title cut to fit, its page number at the right.
    t.newPage();
    t.style("bold", 20);
    t.paragraph(MEMORY_BOOK_PDF.contents);
    doc.y = PAGE.margin + 50;
    if (count === 0) {
      t.style("regular", 12);
      t.paragraph(MEMORY_BOOK_PDF.noMemories);
    }
    let index = 0;
    let linesOnPage = 0;
    let linesThisPage = TOC_LINES_FIRST_PAGE;
    for await (const { row } of this.memories(user.id, filter)) {
      if (signal.aborted) return;
      if (index >= count) break;
      if (linesOnPage === linesThisPage) {
        t.newPage();
        linesOnPage = 0;
        linesThisPage = TOC_LINES_PER_PAGE;
      }
      const y = doc.y;
      const pageLabel = String(startPages[index] ?? "");
      t.style("regular", 11);
      const numberWidth = 40;
      const titleWidth = CONTENT_WIDTH - numberWidth - 10;
      t.at(fitToWidth(doc, row.title || "—", titleWidth), PAGE.margin, y);
      t.at(pageLabel, PAGE.width - PAGE.margin, y, "right");
      doc.y = y + TOC_LINE_HEIGHT;
      index++;
      linesOnPage++;
      if (index % 50 === 0) await room();
    }

    // The memories, each at the page the contents promised (same layout as pass one). If some
    // vanished between the count and the layout, blank pages keep the numbering.
    while (t.page < firstMemoryPage(laidOut.count) - 1) t.newPage();
    t.newPage();
    index = 0;
    for await (const entry of this.memories(user.id, filter)) {
      if (signal.aborted) return;
      if (index >= count) break;
      const images: (Buffer | null)[] = [];
      for (const photo of entry.photos) images.push(await this.readPhoto(photo.key));
      this.typesetMemory(t, entry, linkFor, images);
      index++;
      await room();
    }
    doc.end();
  }
}

/** Lets other requests run: typesetting is synchronous work, and SQLite reads are too. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Resolves once the PDF waiting to be read is below the high-water mark (or the reader left).
 * pdfkit pushes its bytes without regard to backpressure, so the writer checks between memories.
 */
function roomWaiter(doc: Doc, signal: { aborted: boolean }): () => Promise<void> {
  return async () => {
    await yieldToEventLoop();
    while (doc.readableLength > HIGH_WATER_BYTES && !signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
}

function fitToWidth(doc: Doc, text: string, width: number): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  if (doc.widthOfString(oneLine) <= width) return oneLine;
  let low = 0;
  let high = oneLine.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (doc.widthOfString(`${oneLine.slice(0, mid)}…`) <= width) low = mid;
    else high = mid - 1;
  }
  return `${oneLine.slice(0, low).trimEnd()}…`;
}

function rangeLabel(filter: MemoryBookFilter, first: string | null, last: string | null): string {
  const from = filter.from ? bookDate(`${filter.from}T00:00:00.000Z`) : first && bookDate(first);
  const to = filter.to ? bookDate(`${filter.to}T00:00:00.000Z`) : last && bookDate(last);
  if (!from || !to) return MEMORY_BOOK_PDF.allMemories;
  return from === to ? from : `${from} – ${to}`;
}
