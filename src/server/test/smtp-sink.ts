import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The whole message as sent, headers included. */
  raw: string;
  /** The plain-text body (of a multipart mail, its text/plain part), quoted-printable decoded. */
  text: string;
  /** A multipart mail's text/html part, decoded; null for a plain-text mail. */
  html: string | null;
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:PORT` for SMTP_URL. */
  url: string;
  messages: ReceivedMail[];
  /** Addresses refused for now (451 at RCPT TO), as a server in trouble would. */
  refused: Set<string>;
  /** Resolves with the first message matching, waiting up to `timeoutMs`. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(body: string): string {
  return Buffer.from(
    body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      ),
    "latin1",
  ).toString("utf8");
}

/** The part of a multipart/alternative mail of this content type, decoded. */
function partOf(raw: string, type: string): string | null {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, split);
  const boundary = /content-type:\s*multipart\/[^;]+;[\s\S]*?boundary="?([^"\r\n;]+)"?/i.exec(
    headers,
  )?.[1];
  if (!boundary) return null;
  const part = raw
    .slice(split)
    .split(`--${boundary}`)
    .find((chunk) => new RegExp(`content-type:\\s*${type}`, "i").test(chunk));
  return part ? textBody(part.replace(/^\r?\n/, "").replace(/\r?\n$/, "")) : null;
}

function textBody(raw: string): string {
  const plain = partOf(raw, "text/plain");
  if (plain !== null) return plain;
  const split = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, split);
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  return /content-transfer-encoding:\s*quoted-printable/i.test(headers)
    ? decodeQuotedPrintable(body)
    : body;
}

/** A real SMTP server in this process that keeps every message it receives (no TLS, no auth). */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const refused = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!refused.has(address.address)) return callback();
      callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          text: textBody(raw),
          html: partOf(raw, "text/html"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refused,
    async waitFor(match, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error("No matching mail arrived at the SMTP sink");
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One header of a received mail, unfolded; undefined when it has none. */
export function mailHeader(mail: ReceivedMail, name: string): string | undefined {
  const head = mail.raw.slice(0, mail.raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, " ");
  const line = head
    .split(/\r?\n/)
    .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** A received mail's subject, its encoded words (RFC 2047, as non-ASCII subjects are sent) decoded. */
export function mailSubject(mail: ReceivedMail): string {
  const header = (mailHeader(mail, "subject") ?? "").replace(/\?=\s+=\?/g, "?==?");
  let out = "";
  let bytes: Buffer[] = [];
  let last = 0;
  for (const word of header.matchAll(/=\?[^?]+\?([BbQq])\?([^?]*)\?=/g)) {
    const between = header.slice(last, word.index);
    if (between) {
      out += Buffer.concat(bytes).toString("utf8") + between;
      bytes = [];
    }
    const [, encoding = "", text = ""] = word;
    bytes.push(
      encoding.toUpperCase() === "B"
        ? Buffer.from(text, "base64")
        : Buffer.from(
            text
              .replace(/_/g, " ")
              .replace(/=([0-9A-F]{2})/gi, (_, hex: string) =>
                String.fromCharCode(Number.parseInt(hex, 16)),
              ),
            "latin1",
          ),
    );
    last = word.index + word[0].length;
  }
  return out + Buffer.concat(bytes).toString("utf8") + header.slice(last);
}

/** The reset token from a reset mail's link. */
export function resetTokenFrom(mail: ReceivedMail): string {
  const match = /\/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`No reset link in mail:\n${mail.text}`);
  return decodeURIComponent(match[1]);
}
