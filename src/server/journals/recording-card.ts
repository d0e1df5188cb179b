import PDFDocument from "pdfkit";
import { formatMessage } from "../../shared/i18n/format";
import type { Language } from "../../shared/i18n/languages";
import { wordsIn } from "../i18n/words";
import { drawQr } from "../pdf/pdf-parts";
import { bidiText, hasRightToLeft, pdfWriting, registerFonts } from "../pdf/pdf-writing";

// A4 in points, with 2 cm margins: one page, the code in the middle, large enough for an old
// phone's camera from across a kitchen.
const PAGE = { width: 595.28, height: 841.89, margin: 56 };
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const QR_SIZE = 340;

/**
 * The fridge card of a storyteller's recording link (ADR 0060): their name, the link as a large QR
 * code and two lines saying what to do, in `language` (the member's, else the journal's). One
 * page, a few kilobytes: made whole in memory.
 */
export function recordingCardPdf(card: {
  name: string;
  journal: string;
  url: string;
  language: Language;
}): Promise<Buffer> {
  const writing = pdfWriting(card.language);
  const words = wordsIn(writing.language).RECORDING_CARD;
  const locale = writing.language;
  const hello = formatMessage(words.hello, { name: card.name }, locale);
  const doc = new PDFDocument({
    size: [PAGE.width, PAGE.height],
    margin: PAGE.margin,
    lang: writing.language,
    info: { Title: hello },
  });
  registerFonts(doc, writing);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  /** A block of text from (x, y), laid out right to left where the card or the text needs it. */
  const write = (text: string, y: number | undefined, align: "center" | "left") => {
    const top = y ?? doc.y;
    if (writing.rtl || hasRightToLeft(text)) {
      bidiText(doc, text, PAGE.margin, top, writing.rtl, { width: CONTENT_WIDTH, align });
    } else {
      doc.text(text, PAGE.margin, top, { width: CONTENT_WIDTH, align });
    }
  };

  doc.font("bold").fontSize(34).fillColor("#1f2937");
  write(hello, PAGE.margin + 10, "center");
  doc.moveDown(0.3);
  doc.font("regular").fontSize(16).fillColor("#4b5563");
  write(formatMessage(words.journal, { journal: card.journal }, locale), undefined, "center");
  const qrTop = doc.y + 30;
  drawQr(doc, card.url, (PAGE.width - QR_SIZE) / 2, qrTop, QR_SIZE);
  doc.font("regular").fontSize(20).fillColor("#111827");
  doc.y = qrTop + QR_SIZE + 36;
  for (const line of words.lines) {
    write(line, undefined, "left");
    doc.moveDown(0.6);
  }
  doc.end();
  return done;
}
