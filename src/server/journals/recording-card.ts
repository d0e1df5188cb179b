import PDFDocument from "pdfkit";
import { formatMessage } from "../../shared/i18n/format";
import { RECORDING_CARD } from "../../shared/journal-mails";
import { drawQr, loadFonts } from "../pdf/pdf-parts";

// A4 in points, with 2 cm margins: one page, the code in the middle, large enough for an old
// phone's camera from across a kitchen.
const PAGE = { width: 595.28, height: 841.89, margin: 56 };
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const QR_SIZE = 340;

/**
 * The fridge card of a storyteller's recording link (ADR 0060): their name, the link as a large QR
 * code and two lines saying what to do. One page, a few kilobytes: made whole in memory.
 */
export function recordingCardPdf(card: {
  name: string;
  journal: string;
  url: string;
}): Promise<Buffer> {
  const { regular, bold } = loadFonts();
  const doc = new PDFDocument({
    size: [PAGE.width, PAGE.height],
    margin: PAGE.margin,
    info: { Title: formatMessage(RECORDING_CARD.hello, { name: card.name }) },
  });
  doc.registerFont("regular", regular);
  doc.registerFont("bold", bold);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  doc.font("bold").fontSize(34).fillColor("#1f2937");
  doc.text(
    formatMessage(RECORDING_CARD.hello, { name: card.name }),
    PAGE.margin,
    PAGE.margin + 10,
    {
      width: CONTENT_WIDTH,
      align: "center",
    },
  );
  doc.moveDown(0.3);
  doc.font("regular").fontSize(16).fillColor("#4b5563");
  doc.text(formatMessage(RECORDING_CARD.journal, { journal: card.journal }), {
    width: CONTENT_WIDTH,
    align: "center",
  });
  const qrTop = doc.y + 30;
  drawQr(doc, card.url, (PAGE.width - QR_SIZE) / 2, qrTop, QR_SIZE);
  doc.font("regular").fontSize(20).fillColor("#111827");
  doc.text("", PAGE.margin, qrTop + QR_SIZE + 36);
  for (const line of RECORDING_CARD.lines) {
    doc.text(line, { width: CONTENT_WIDTH, align: "left" });
    doc.moveDown(0.6);
  }
  doc.end();
  return done;
}
