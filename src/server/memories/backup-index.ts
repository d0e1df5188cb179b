import { formatDate } from "../../shared/dates";
import { formatMessage } from "../../shared/i18n/format";
import { directionOf, intlLocale, type Language } from "../../shared/i18n/languages";
import { escapeHtml } from "../http/html";
import { questionIn } from "../i18n/questions";
import { wordsIn } from "../i18n/words";

/** One memory as the backup's index.html shows it; file names are paths inside the zip. */
export interface IndexMemory {
  title: string;
  recordedAt: string;
  storyteller: { name: string } | null;
  question: string | null;
  summary: string;
  transcript: string;
  recording: string | null;
  recordingMissing: boolean;
  photos: { file: string; width: number; height: number }[];
  comments: { name: string; transcript: string; recording: string | null }[];
}

/** A zip path as a relative URL: each part percent-encoded, so spaces, '#' and '%' stay in the name. */
export function relativeUrl(zipPath: string): string {
  return zipPath.split("/").map(encodeURIComponent).join("/");
}

const STYLE = [
  "body{margin:0;background:#faf7f2;color:#222;font:17px/1.55 system-ui,-apple-system,'Segoe UI',sans-serif}",
  "main{max-width:46rem;margin:0 auto;padding:1.5rem 1rem 4rem}",
  "h1{font-size:1.9rem;margin:0 0 .25rem}",
  "h2{font-size:1.4rem;margin:0 0 .25rem}",
  "h3{font-size:1.05rem;margin:1rem 0 .25rem}",
  "article{background:#fff;border:1px solid #e6dfd3;border-radius:12px;padding:1.25rem;margin:1.25rem 0}",
  ".meta{color:#595959;margin:0 0 .75rem}",
  "audio{width:100%;margin:.5rem 0}",
  "img{display:block;max-width:100%;height:auto;border-radius:8px;margin:.75rem 0}",
  "details summary{cursor:pointer;font-weight:600}",
  ".text{white-space:pre-wrap}",
  "ul{padding-left:1.2rem}",
].join("");

/** A UTC day as the page writes it, in its language. */
const pageDate = (iso: string, language: Language) =>
  formatDate(iso, "date", { timeZone: "UTC", locale: intlLocale(language) });

/**
 * The page up to its first memory, in the journal's `language` (and its direction): no script, no
 * link or font from elsewhere, the style inline.
 */
export function indexStart(count: number, exportedAt: string, language: Language): string {
  const words = wordsIn(language);
  const BACKUP_INDEX = words.BACKUP_INDEX;
  const title = escapeHtml(words.MESSAGES.appTitle);
  // The policy forbids any script and any address outside the unzipped folder.
  const policy =
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' file:; media-src 'self' file:";
  return (
    `<!doctype html>\n<html lang="${language}" dir="${directionOf(language)}"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${policy}">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${title}</title><style>${STYLE}</style></head><body><main>\n` +
    `<h1>${title}</h1><p class="meta">${escapeHtml(formatMessage(BACKUP_INDEX.memoryCount, { count }, language))} · ` +
    `${escapeHtml(BACKUP_INDEX.madeOn)} ${escapeHtml(pageDate(exportedAt, language))}</p>` +
    `<p>${escapeHtml(BACKUP_INDEX.intro)}</p>\n` +
    (count === 0 ? `<p>${escapeHtml(BACKUP_INDEX.noMemories)}</p>\n` : "")
  );
}

function player(file: string, label: string, language: Language): string {
  const url = escapeHtml(relativeUrl(file));
  return (
    `<audio controls preload="none" src="${url}" aria-label="${escapeHtml(label)}">` +
    `<a href="${url}">${escapeHtml(wordsIn(language).BACKUP_INDEX.downloadRecording)}</a></audio>`
  );
}

/** The family's own words: each reads in the direction of its first letter. */
function paragraphs(text: string): string {
  return text.trim() ? `<p class="text" dir="auto">${escapeHtml(text.trim())}</p>` : "";
}

/** One memory: its title, date and storyteller, recording, photos, summary, transcript, comments. */
export function indexMemory(memory: IndexMemory, language: Language): string {
  const { MESSAGES, BACKUP_INDEX, JOURNAL_MESSAGES } = wordsIn(language);
  const title = memory.title.trim() || MESSAGES.untitledMemory;
  const date = pageDate(memory.recordedAt, language);
  const meta = [
    date ? `<time datetime="${escapeHtml(memory.recordedAt)}">${escapeHtml(date)}</time>` : "",
    memory.storyteller?.name
      ? escapeHtml(
          formatMessage(JOURNAL_MESSAGES.toldBy, { name: memory.storyteller.name }, language),
        )
      : "",
  ].filter(Boolean);
  let html = `<article><h2 dir="auto">${escapeHtml(title)}</h2>`;
  if (meta.length > 0) html += `<p class="meta">${meta.join(" · ")}</p>`;
  if (memory.question) {
    const question = questionIn(language, memory.question);
    html += `<p>${escapeHtml(`${MESSAGES.answering} ${question}`)}</p>`;
  }
  if (memory.recording) html += player(memory.recording, title, language);
  else if (memory.recordingMissing) html += `<p>${escapeHtml(BACKUP_INDEX.recordingMissing)}</p>`;
  for (const [index, photo] of memory.photos.entries()) {
    const alt = formatMessage(
      BACKUP_INDEX.photoAlt,
      { position: index + 1, count: memory.photos.length, title },
      language,
    );
    html += `<img src="${escapeHtml(relativeUrl(photo.file))}" alt="${escapeHtml(alt)}" width="${photo.width}" height="${photo.height}" loading="lazy">`;
  }
  html += paragraphs(memory.summary);
  if (memory.transcript.trim()) {
    html += `<details><summary>${escapeHtml(BACKUP_INDEX.transcript)}</summary>${paragraphs(memory.transcript)}</details>`;
  }
  if (memory.comments.length > 0) {
    html += `<h3>${escapeHtml(BACKUP_INDEX.comments)}</h3><ul>`;
    for (const comment of memory.comments) {
      const label = formatMessage(MESSAGES.commentBy, { name: comment.name }, language);
      html += `<li><p>${escapeHtml(label)}</p>`;
      if (comment.recording) html += player(comment.recording, label, language);
      html += `${paragraphs(comment.transcript)}</li>`;
    }
    html += "</ul>";
  }
  return `${html}</article>\n`;
}

export function indexEnd(): string {
  return "</main></body></html>\n";
}
