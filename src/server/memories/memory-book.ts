import { PassThrough, type Readable } from "node:stream";
import PDFDocument from "pdfkit";
import { formatDate } from "../../shared/dates";
import { formatMessage } from "../../shared/i18n/format";
import { intlLocale, type Language } from "../../shared/i18n/languages";
import { type BookPaperSize, DEFAULT_BOOK_PAPER, type MemoryBookQuery } from "../../shared/schemas";
import { wordsIn } from "../i18n/words";
import { drawQr } from "../pdf/pdf-parts";
import {
  bidiText,
  drawLine,
  hasRightToLeft,
  lineWidth,
  type PdfWriting,
  pdfWriting,
  readsRightToLeft,
  registerFonts,
} from "../pdf/pdf-writing";
import type { BookPhoto } from "../photos/photos.service";
import { StorageUnavailableError } from "../storage/audio-storage";
import type { MemoriesRepo, MemoryRow } from "./memories.repo";
import { toMemoryDto } from "./memory-dto";

/** Memories read from the database per query while the book is made. */
const BATCH_SIZE = 100;
/** Generation pauses while this much PDF is waiting for a slow reader (flat memory). */
const HIGH_WATER_BYTES = 1024 * 1024;

/** The page in points for each paper size, with 2 cm margins on both. */
const PAPER: Record<BookPaperSize, { width: number; height: number }> = {
  a4: { width: 595.28, height: 841.89 },
  letter: { width: 612, height: 792 },
};
const MARGIN = 56;
const QR_SIZE = 82;
const TOC_LINE_HEIGHT = 20;
/** Two photos side by side, each as tall as this at most (about 9 cm), their shapes kept. */
const PHOTO_COLUMNS = 2;
const PHOTO_MAX_HEIGHT = 250;
const PHOTO_GAP = 12;
/** A heading moves to the next page unless this much room is left for it and two lines. */
const HEADING_ROOM = 60;

/** Where things go on the chosen paper. */
interface Page {
  width: number;
  height: number;
  margin: number;
  contentWidth: number;
  contentBottom: number;
  contentHeight: number;
  tocLinesFirstPage: number;
  tocLinesPerPage: number;
}

function pageFor(paper: BookPaperSize): Page {
  const { width, height } = PAPER[paper];
  const contentHeight = height - 2 * MARGIN;
  return {
    width,
    height,
    margin: MARGIN,
    contentWidth: width - 2 * MARGIN,
    contentBottom: height - MARGIN,
    contentHeight,
    tocLinesFirstPage: Math.floor((contentHeight - 50) / TOC_LINE_HEIGHT),
    tocLinesPerPage: Math.floor(contentHeight / TOC_LINE_HEIGHT),
  };
}

/** A photo's size fitted in a box of `width` by `height`, its shape kept. */
function fitPhoto(
  photo: Pick<BookPhoto, "width" | "height">,
  width: number,
  height: number,
): { width: number; height: number } {
  const scale = Math.min(width / photo.width, height / photo.height);
  return { width: photo.width * scale, height: photo.height * scale };
}

/** Which memories go in a book: recorded dates as UTC days (inclusive), one tag, the paper. */
export type MemoryBookFilter = MemoryBookQuery;

/** A recorded day as the book prints it, in its language (recorded dates are UTC days). */
function bookDate(iso: string, language: Language): string {
  return formatDate(iso, "date", { timeZone: "UTC", locale: intlLocale(language) }) || iso;
}

/** The book's words in the language it is written in. */
type BookWords = ReturnType<typeof wordsIn>["MEMORY_BOOK_PDF"];

function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}

/**
 * Where the contents' lines go: one per story, and one per chapter that never ends a page (it
 * moves to the next with its first story). `next(keepWithNext)` is called for each line in order
 * and says whether it starts a new page; `pages` is how many it filled.
 */
class ContentsLines {
  pages = 1;
  private used = 0;
  private capacity: number;

  constructor(private readonly paper: Page) {
    this.capacity = paper.tocLinesFirstPage;
  }

  next(keepWithNext: boolean): boolean {
    const turn = this.used >= this.capacity - (keepWithNext ? 1 : 0);
    if (turn) {
      this.pages += 1;
      this.used = 0;
      this.capacity = this.paper.tocLinesPerPage;
    }
    this.used += 1;
    return turn;
  }
}

/** How many pages the contents take for these sections (the stories start after them). */
function tocPageCount(paper: Page, sections: readonly Section[]): number {
  const lines = new ContentsLines(paper);
  for (const section of sections) {
    if (section.heading) lines.next(true);
    for (let story = 0; story < section.count; story++) lines.next(false);
  }
  return lines.pages;
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
    readonly paper: Page,
    firstPage: number,
    info: { title: string; author: string },
    /** The book's language: its fonts and its direction. */
    readonly writing: PdfWriting,
    /** False for the layout pass, whose bytes are thrown away. */
    compress = true,
  ) {
    this.doc = new PDFDocument({
      size: [paper.width, paper.height],
      margin: paper.margin,
      autoFirstPage: false,
      bufferPages: false,
      compress,
      lang: writing.language,
      info: { Title: info.title, Author: info.author, Creator: "Voice Memory Journal" },
    });
    registerFonts(this.doc, writing);
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
    const { doc, paper } = this;
    const { x, y } = doc;
    doc.font("regular").fontSize(9).fillColor("#555555");
    // No `width`: with one, pdfkit wraps, and text below the margin would add a page from here.
    this.at(`${this.page}`, paper.width / 2, paper.height - paper.margin / 2 - 6, "center");
    doc.font(this.face).fontSize(this.size).fillColor(this.color);
    doc.x = x;
    doc.y = y;
  }

  get rtl(): boolean {
    return this.writing.rtl;
  }

  /** Whether a text is laid out right to left (the book's direction, or letters of its own). */
  private bidi(text: string): boolean {
    return this.writing.rtl || hasRightToLeft(text);
  }

  /**
   * One unwrapped line placed at x (its left, centre or right edge), never breaking the page;
   * `ownWords`, the family's, read in the direction of their first letter (see bidiText).
   */
  at(
    text: string,
    x: number,
    y: number,
    align: "left" | "center" | "right" = "left",
    ownWords = false,
  ): void {
    const bidi = this.bidi(text);
    const width = bidi ? lineWidth(this.doc, text) : this.doc.widthOfString(text);
    const left = align === "left" ? x : align === "center" ? x - width / 2 : x - width;
    const rtl = ownWords ? readsRightToLeft(text, this.rtl) : this.rtl;
    if (bidi) drawLine(this.doc, text, left, y, rtl);
    else this.doc.text(text, left, y, { lineBreak: false });
  }

  /** Wrapped text from (x, y) in `width`, flowing onto new pages; right to left where it must. */
  text(
    text: string,
    x: number,
    y: number,
    { ownWords, ...options }: PDFKit.Mixins.TextOptions & { width: number; ownWords?: boolean },
  ) {
    if (this.bidi(text)) {
      bidiText(this.doc, text, x, y, this.rtl, {
        width: options.width,
        align: options.align as "left" | "center" | "right" | undefined,
        lineGap: options.lineGap,
        paragraphGap: options.paragraphGap,
        ownWords,
      });
    } else this.doc.text(text, x, y, options);
  }

  newPage(): void {
    this.doc.addPage();
  }

  get spaceLeft(): number {
    return this.paper.contentBottom - this.doc.y;
  }

  /** Wrapped text at the left margin that flows onto new pages as needed. */
  paragraph(text: string, options: PDFKit.Mixins.TextOptions & { ownWords?: boolean } = {}): void {
    const { margin, contentWidth } = this.paper;
    this.text(text, margin, this.doc.y, { width: contentWidth, ...options });
  }
}

/** What the book asks of the photos feature. */
export interface MemoryBookPhotos {
  /** Each memory's photos, cover first. */
  forBook(memoryIds: readonly string[]): Promise<Map<string, BookPhoto[]>>;
  readFile(key: string): Promise<Buffer>;
}

/** Who told each of these memories: the storyteller's name by memory id (absent when unknown). */
export type MemoryBookStorytellers = (
  rows: readonly MemoryRow[],
) => ReadonlyMap<string, string> | Promise<ReadonlyMap<string, string>>;

/** A place in the book's order of reading (recorded date, then seq), as `batchForBook` pages. */
interface Cursor {
  recordedAt: string;
  seq: number;
}

function isAfter(a: Cursor, b: Cursor): boolean {
  return a.recordedAt > b.recordedAt || (a.recordedAt === b.recordedAt && a.seq > b.seq);
}

/** A memory the book holds, read in order: its row, who told it, and the place just before it. */
interface Candidate {
  row: MemoryRow;
  storyteller: string | null;
  before: Cursor | null;
  at: Cursor;
}

/** A memory as the book places it: its row and its photos (with their bytes once drawn). */
interface BookEntry {
  row: MemoryRow;
  photos: BookPhoto[];
}

/**
 * A run of stories in the book: one storyteller's chapter, or the whole book when it has no
 * chapters. Its memories are read again from `after` (exclusive) up to `last` on each pass.
 */
interface Section {
  /** The chapter's title; null in a book without chapters (every memory belongs). */
  heading: string | null;
  /** The storyteller its memories carry (a name, or null for none known) when a chapter. */
  storyteller: string | null;
  /** How many stories it holds (the contents' page numbers count on it). */
  count: number;
  after: Cursor | null;
  last: Cursor | null;
}

/** What the first read of the memories learns: the book's sections and its cover photo. */
interface Survey {
  sections: Section[];
  count: number;
  cover: BookPhoto | null;
}

/** Whose book: a journal, the organizer who asks for it, and the name on its cover. */
export interface BookOf {
  journalId: string;
  organizerId: string;
  name: string;
  /** The journal's language: the book's words, dates, fonts and direction. */
  language: Language;
}

export interface MemoryBookOptions {
  /**
   * The address of the share link the owner's book opens its memories through
   * (`<base>/s/<token>`, ADR 0042, `base` being APP_URL or the address the owner is using); a
   * memory's QR code is that address and `/<memory id>`.
   */
  shareLinkFor: (of: { userId: string; journalId: string }, base: string) => Promise<string>;
  /** The memories' photos; a book without them when absent. */
  photos?: MemoryBookPhotos;
  /**
   * Who told each memory, asked once per batch of rows read; a book with more than one
   * storyteller is grouped into a chapter per storyteller. Without it, a book has no chapters.
   */
  storytellers?: MemoryBookStorytellers;
}

/**
 * The printable memory book: a PDF made while streaming, over the memories read in batches. A
 * first read counts them, finds the storytellers' chapters and the cover photo; a layout pass
 * typesets the book into a discarded document only to learn the page each story starts on; the
 * last pass writes the cover, the contents with those page numbers, and the stories. Nothing is
 * kept but one page number per story and a few numbers per chapter (docs/adr/0017-memory-book.md,
 * docs/adr/0058-a-book-of-stories.md).
 */
export class MemoryBook {
  constructor(
    private readonly repo: Pick<MemoriesRepo, "batchForBook">,
    private readonly options: MemoryBookOptions,
  ) {}

  /**
   * The saved memories the book may hold after `after`, oldest recorded first, a batch at a time
   * (the tag applied), each with its storyteller.
   */
  private async *candidates(
    journalId: string,
    filter: MemoryBookFilter,
    from: Cursor | null,
  ): AsyncGenerator<Candidate[]> {
    const range = {
      from: filter.from ? `${filter.from}T00:00:00.000Z` : null,
      to: filter.to ? nextDay(filter.to) : null,
    };
    const tag = filter.tag?.trim().toLowerCase();
    let after = from;
    for (;;) {
      const rows = await this.repo.batchForBook(journalId, range, after, BATCH_SIZE);
      const names = this.options.storytellers ? await this.options.storytellers(rows) : null;
      const batch: Candidate[] = [];
      for (const row of rows) {
        const at = { recordedAt: row.recorded_at, seq: row.seq };
        if (!tag || toMemoryDto(row).tags.some((t) => t.trim().toLowerCase() === tag)) {
          batch.push({ row, storyteller: names?.get(row.id)?.trim() || null, before: after, at });
        }
        after = at;
      }
      yield batch;
      if (rows.length < BATCH_SIZE) return;
    }
  }

  /** These memories' photos (none without the photos feature). */
  private async photosOf(rows: readonly MemoryRow[]): Promise<Map<string, BookPhoto[]>> {
    if (!this.options.photos || rows.length === 0) return new Map();
    return this.options.photos.forBook(rows.map((row) => row.id));
  }

  /**
   * The first read: how many stories, who told them (a chapter each when more than one name),
   * and the cover photo, the first photo of the book's first story that has one.
   */
  private async survey(
    journalId: string,
    filter: MemoryBookFilter,
    words: BookWords,
  ): Promise<Survey> {
    const byTeller = new Map<string | null, Section & { cover: BookPhoto | null }>();
    let count = 0;
    let firstCover: BookPhoto | null = null;
    for await (const batch of this.candidates(journalId, filter, null)) {
      for (const { storyteller, before, at } of batch) {
        count += 1;
        const section = byTeller.get(storyteller);
        if (section) {
          section.count += 1;
          section.last = at;
        } else {
          byTeller.set(storyteller, {
            heading: storyteller ?? words.otherStories,
            storyteller,
            count: 1,
            after: before,
            last: at,
            cover: null,
          });
        }
      }
      // Photos are looked up only for the chapters still without a cover.
      const seeking = batch.filter((c) => !byTeller.get(c.storyteller)?.cover);
      const photos = await this.photosOf(seeking.map((c) => c.row));
      for (const { row, storyteller } of seeking) {
        const section = byTeller.get(storyteller);
        const first = photos.get(row.id)?.[0];
        if (section && !section.cover && first) {
          section.cover = first;
          firstCover ??= first;
        }
      }
    }
    const chapters = [...byTeller.values()];
    const named = chapters.filter((section) => section.storyteller !== null).length;
    if (named > 1) {
      return {
        sections: chapters,
        count,
        cover: chapters.find((section) => section.cover)?.cover ?? null,
      };
    }
    // One storyteller or none: one run of stories, as a person alone makes.
    const whole = { heading: null, storyteller: null, count, after: null, last: null };
    return { sections: [whole], count, cover: firstCover };
  }

  /**
   * The book's stories in its order (chapter by chapter), each section read from where it
   * starts; at most the number of stories the survey counted, so the page numbers hold.
   */
  private async *stories(
    journalId: string,
    filter: MemoryBookFilter,
    sections: readonly Section[],
    withPhotos: boolean,
  ): AsyncGenerator<{ section: number; entry: BookEntry }> {
    for (const [index, section] of sections.entries()) {
      let left = section.count;
      for await (const batch of this.candidates(journalId, filter, section.after)) {
        const past = section.last;
        const end = past ? batch.findIndex((c) => isAfter(c.at, past)) : -1;
        const mine = (end < 0 ? batch : batch.slice(0, end))
          .filter((c) => section.heading === null || c.storyteller === section.storyteller)
          .slice(0, left)
          .map((c) => c.row);
        const photos = withPhotos ? await this.photosOf(mine) : new Map<string, BookPhoto[]>();
        for (const row of mine)
          yield { section: index, entry: { row, photos: photos.get(row.id) ?? [] } };
        left -= mine.length;
        if (left === 0 || end >= 0) break;
      }
    }
  }

  /** A chapter's opening page: the storyteller's name. Returns its page number. */
  private typesetChapter(t: Typesetter, heading: string): number {
    const { doc, paper } = t;
    t.newPage();
    doc.y = paper.height * 0.36;
    t.style("bold", 28);
    t.paragraph(heading, { align: "center", ownWords: true });
    const y = doc.y + 14;
    doc
      .moveTo(paper.width / 2 - 40, y)
      .lineTo(paper.width / 2 + 40, y)
      .lineWidth(0.75)
      .strokeColor("#999999")
      .stroke();
    return t.page;
  }

  /**
   * One story from the top of a new page: title, date and tags beside its QR code, its letter and
   * its transcript, then its photos two by two, each row whole on one page. `images` holds the
   * photos' bytes when they are drawn; without them (the layout pass) only their room is taken,
   * and no QR code is drawn. Returns the page it starts on.
   */
  private typesetMemory(
    t: Typesetter,
    { row, photos }: BookEntry,
    linkFor: ((memoryId: string) => string) | null,
    images: (Buffer | null)[] = [],
  ): number {
    const memory = toMemoryDto(row);
    const { doc, paper } = t;
    const { margin, contentWidth } = paper;
    const words = wordsIn(t.writing.language).MEMORY_BOOK_PDF;
    t.newPage();
    const startPage = t.page;
    const top = margin;
    const hasQr = memory.audioUrl !== "";
    const textWidth = hasQr ? contentWidth - QR_SIZE - 18 : contentWidth;
    // Right to left, the code stands at the left and the words start at the right.
    const textX = hasQr && t.rtl ? margin + QR_SIZE + 18 : margin;
    t.style("bold", 20);
    t.text(memory.title || "—", textX, top, { width: textWidth, ownWords: true });
    t.style("regular", 11, "#444444");
    t.text(bookDate(memory.recordedAt, t.writing.language), textX, doc.y + 4, {
      width: textWidth,
    });
    if (memory.tags.length > 0) {
      t.text(
        formatMessage(words.tags, { tags: memory.tags.join(", ") }, t.writing.language),
        textX,
        doc.y + 2,
        { width: textWidth },
      );
    }
    let bottom = doc.y;
    if (hasQr) {
      const qrX = t.rtl ? margin : paper.width - margin - QR_SIZE;
      if (linkFor) drawQr(doc, linkFor(memory.id), qrX, top, QR_SIZE);
      t.style("regular", 8, "#444444");
      t.at(words.scanToListen, qrX + QR_SIZE / 2, top + QR_SIZE + 3, "center");
      bottom = Math.max(bottom, top + QR_SIZE + 14);
    }
    doc.y = bottom + 10;
    doc
      .moveTo(margin, doc.y)
      .lineTo(paper.width - margin, doc.y)
      .lineWidth(0.5)
      .strokeColor("#999999")
      .stroke();
    doc.y += 12;
    for (const [heading, body] of [
      [words.letter, memory.summary],
      [words.transcript, memory.transcript],
    ] as const) {
      if (!body.trim()) continue;
      // A heading never sits alone at the foot of a page.
      if (t.spaceLeft < HEADING_ROOM) t.newPage();
      t.style("bold", 12);
      t.paragraph(heading);
      doc.y += 3;
      t.style("regular", 11);
      t.paragraph(body.trim(), { align: "left", lineGap: 2, paragraphGap: 6, ownWords: true });
      doc.y += 8;
    }
    const cellWidth = (contentWidth - (PHOTO_COLUMNS - 1) * PHOTO_GAP) / PHOTO_COLUMNS;
    if (photos.length > 0) doc.y += 4;
    for (let first = 0; first < photos.length; first += PHOTO_COLUMNS) {
      const rowPhotos = photos.slice(first, first + PHOTO_COLUMNS);
      const boxes = rowPhotos.map((photo) => fitPhoto(photo, cellWidth, PHOTO_MAX_HEIGHT));
      const rowHeight = Math.max(...boxes.map((box) => box.height));
      // A row of photos never splits: it goes whole onto the next page when it does not fit.
      if (t.spaceLeft < rowHeight) t.newPage();
      const y = doc.y;
      // A photo alone on its row stands in the middle; the others in their column's middle.
      const rowWidth = rowPhotos.length * cellWidth + (rowPhotos.length - 1) * PHOTO_GAP;
      const left = margin + (contentWidth - rowWidth) / 2;
      for (const [column, box] of boxes.entries()) {
        const x = left + column * (cellWidth + PHOTO_GAP) + (cellWidth - box.width) / 2;
        const boxY = y + (rowHeight - box.height) / 2;
        const image = images[first + column];
        if (image) doc.image(image, x, boxY, { width: box.width, height: box.height });
        else if (image === null)
          doc.save().rect(x, boxY, box.width, box.height).fill("#eeeeee").restore();
      }
      doc.y = y + rowHeight + PHOTO_GAP;
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

  /** The layout pass: where each chapter and story starts, typeset into a discarded document. */
  private async layout(
    journalId: string,
    filter: MemoryBookFilter,
    paper: Page,
    survey: Survey,
    firstPage: number,
    writing: PdfWriting,
    signal: { aborted: boolean },
  ): Promise<{
    startPages: number[];
    chapterPages: number[];
    first: string | null;
    last: string | null;
  }> {
    const t = new Typesetter(paper, firstPage, { title: "", author: "" }, writing, false);
    t.doc.on("data", () => {});
    const startPages: number[] = [];
    const chapterPages: number[] = [];
    let first: string | null = null;
    let last: string | null = null;
    for await (const { section, entry } of this.stories(journalId, filter, survey.sections, true)) {
      if (signal.aborted) break;
      const heading = survey.sections[section]?.heading;
      if (heading && chapterPages[section] === undefined) {
        chapterPages[section] = this.typesetChapter(t, heading);
      }
      startPages.push(this.typesetMemory(t, entry, null));
      await yieldToEventLoop();
      // The cover's dates: the oldest and newest recorded, whatever the chapters' order.
      if (!first || entry.row.recorded_at < first) first = entry.row.recorded_at;
      if (!last || entry.row.recorded_at > last) last = entry.row.recorded_at;
    }
    t.doc.end();
    return { startPages, chapterPages, first, last };
  }

  /**
   * The book as a PDF stream, once its share link is found or made (that may fail: 409 at the
   * share links' cap); errors while it streams destroy the stream.
   */
  async stream(of: BookOf, filter: MemoryBookFilter, base: string): Promise<Readable> {
    const organizer = { userId: of.organizerId, journalId: of.journalId };
    const link = (await this.options.shareLinkFor(organizer, base)).replace(/\/+$/, "");
    const linkFor = (memoryId: string) => `${link}/${encodeURIComponent(memoryId)}`;
    const output = new PassThrough();
    const signal = { aborted: false };
    output.on("close", () => {
      signal.aborted = true;
    });
    void this.write(of, filter, linkFor, output, signal).catch((error: unknown) => {
      output.destroy(error as Error);
    });
    return output;
  }

  private async write(
    { journalId, name, language }: BookOf,
    filter: MemoryBookFilter,
    linkFor: (memoryId: string) => string,
    output: PassThrough,
    signal: { aborted: boolean },
  ): Promise<void> {
    const paper = pageFor(filter.paper ?? DEFAULT_BOOK_PAPER);
    const writing = pdfWriting(language);
    const words = wordsIn(writing.language).MEMORY_BOOK_PDF;
    // The contents' length depends on the count, and where the stories start on that.
    const survey = await this.survey(journalId, filter, words);
    if (signal.aborted) return;
    const firstStoryPage = 2 + tocPageCount(paper, survey.sections);
    const laidOut = await this.layout(
      journalId,
      filter,
      paper,
      survey,
      firstStoryPage,
      writing,
      signal,
    );
    if (signal.aborted) return;
    const { startPages, chapterPages, first, last } = laidOut;
    const count = startPages.length;

    const t = new Typesetter(
      paper,
      1,
      {
        title: formatMessage(words.documentTitle, { title: words.title, name }, writing.language),
        author: name,
      },
      writing,
    );
    const { doc } = t;
    doc.pipe(output);
    const room = roomWaiter(doc, signal);

    const range = rangeLabel(filter, first, last, writing.language);
    await this.typesetCover(t, name, filter, range, survey.cover);

    // Contents: one line per chapter and per story, the title cut to fit, its page at the right.
    t.newPage();
    t.style("bold", 20);
    t.paragraph(words.contents);
    doc.y = paper.margin + 50;
    if (count === 0) {
      t.style("regular", 12);
      t.paragraph(words.noMemories);
    }
    let index = 0;
    const lines = new ContentsLines(paper);
    const line = (face: Face, title: string, page: number | undefined, indent: number) => {
      if (lines.next(face === "bold")) t.newPage();
      const y = doc.y;
      t.style(face, 11);
      const numberWidth = 40;
      const titleWidth = paper.contentWidth - numberWidth - 10 - indent;
      const fitted = fitToWidth(doc, title, titleWidth);
      // Right to left, the titles start at the right and the page numbers stand at the left.
      if (t.rtl) {
        t.at(fitted, paper.width - paper.margin - indent, y, "right", true);
        t.at(String(page ?? ""), paper.margin, y);
      } else {
        t.at(fitted, paper.margin + indent, y, "left", true);
        t.at(String(page ?? ""), paper.width - paper.margin, y, "right");
      }
      doc.y = y + TOC_LINE_HEIGHT;
    };
    let section = -1;
    for await (const story of this.stories(journalId, filter, survey.sections, false)) {
      if (signal.aborted) return;
      if (index >= count) break;
      const heading = survey.sections[story.section]?.heading;
      if (story.section !== section && heading) {
        line("bold", heading, chapterPages[story.section], 0);
      }
      section = story.section;
      line("regular", story.entry.row.title || "—", startPages[index], heading ? 14 : 0);
      index++;
      if (index % 50 === 0) await room();
    }

    // The stories, each at the page the contents promised (same layout as the layout pass). If
    // some vanished since the count, blank pages keep the numbering.
    while (t.page < firstStoryPage - 1) t.newPage();
    index = 0;
    section = -1;
    for await (const story of this.stories(journalId, filter, survey.sections, true)) {
      if (signal.aborted) return;
      if (index >= count) break;
      const heading = survey.sections[story.section]?.heading;
      if (story.section !== section && heading) this.typesetChapter(t, heading);
      section = story.section;
      const images: (Buffer | null)[] = [];
      for (const photo of story.entry.photos) images.push(await this.readPhoto(photo.key));
      this.typesetMemory(t, story.entry, linkFor, images);
      index++;
      await room();
    }
    doc.end();
  }

  /** The cover: the book's title and whose it is, the cover photo when there is one, the dates. */
  private async typesetCover(
    t: Typesetter,
    name: string,
    filter: MemoryBookFilter,
    range: string,
    cover: BookPhoto | null,
  ): Promise<void> {
    const { doc, paper } = t;
    const language = t.writing.language;
    const words = wordsIn(language).MEMORY_BOOK_PDF;
    const image = cover ? await this.readPhoto(cover.key) : null;
    t.newPage();
    t.style("bold", 30);
    doc.y = image ? paper.margin + 24 : paper.height * 0.3;
    t.paragraph(words.title, { align: "center" });
    doc.y += image ? 12 : 20;
    t.style("bold", 22);
    t.paragraph(name, { align: "center", ownWords: true });
    doc.y += 16;
    if (image && cover) {
      const box = fitPhoto(cover, paper.contentWidth, paper.height * 0.45);
      doc.image(image, paper.margin + (paper.contentWidth - box.width) / 2, doc.y, box);
      doc.y += box.height + 18;
    }
    t.style("regular", 14, "#333333");
    t.paragraph(range, { align: "center" });
    if (filter.tag)
      t.paragraph(formatMessage(words.taggedWith, { tag: filter.tag }, language), {
        align: "center",
      });
    doc.y = Math.max(doc.y + 12, paper.height * 0.8);
    t.style("regular", 10, "#555555");
    t.paragraph(
      formatMessage(words.made, { date: bookDate(new Date().toISOString(), language) }, language),
      {
        align: "center",
      },
    );
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

function rangeLabel(
  filter: MemoryBookFilter,
  first: string | null,
  last: string | null,
  language: Language,
): string {
  const day = (iso: string) => bookDate(iso, language);
  const from = filter.from ? day(`${filter.from}T00:00:00.000Z`) : first && day(first);
  const to = filter.to ? day(`${filter.to}T00:00:00.000Z`) : last && day(last);
  if (!from || !to) return wordsIn(language).MEMORY_BOOK_PDF.allMemories;
  return from === to ? from : `${from} – ${to}`;
}
