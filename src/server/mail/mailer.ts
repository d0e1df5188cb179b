import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import nodemailer, { type Transporter } from "nodemailer";
import type { Config } from "../config";
import { newId } from "../ids";

/** One mail: plain text, and an HTML alternative when it has a button to press. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same words as `text`, laid out with a large button (the weekly question). */
  html?: string;
  /** Extra headers (reminders' List-Unsubscribe, RFC 8058). */
  headers?: Record<string, string>;
  /**
   * The text holds a credential that must not reach the log (a share link): the outbox then logs
   * only that a mail was written. Reset links are logged on purpose (see OutboxMailer).
   */
  secret?: boolean;
}

/** Sends mail: over SMTP when configured, otherwise into a local outbox folder. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Delivers through an SMTP server (`SMTP_URL`, for example `smtps://user:pass@smtp.example.com`). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send({ secret: _secret, ...mail }: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...mail });
  }
}

/**
 * Without SMTP, each mail becomes an .eml file in `DATA_DIR/outbox` and a log line, so a
 * self-hoster without mail can still hand a reset link to a family member. The folder is 0700 and
 * the files 0600: they hold live reset links.
 */
export class OutboxMailer implements Mailer {
  private readonly builder = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "unix",
  });

  constructor(
    private readonly dir: string,
    private readonly from: string,
    private readonly log: Pick<FastifyBaseLogger, "info">,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const { secret, ...mail } = message;
    const info = await this.builder.sendMail({ from: this.from, ...mail });
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    // Tightens a folder an earlier version created 0755 (cheap, and mail is rare).
    await chmod(this.dir, 0o700);
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    const file = path.join(this.dir, `${stamp}-${newId()}.eml`);
    await writeFile(file, info.message as Buffer, { mode: 0o600 });
    this.log.info(
      {
        mail: { to: mail.to, subject: mail.subject, file },
        ...(secret ? {} : { text: mail.text }),
      },
      "mail written to the outbox (SMTP_URL is not set)",
    );
  }
}

export function outboxDir(config: Pick<Config, "dataDir">): string {
  return path.join(config.dataDir, "outbox");
}

/** SMTP when `SMTP_URL` is set, the outbox otherwise. */
export function createMailer(
  config: Pick<Config, "SMTP_URL" | "MAIL_FROM" | "dataDir">,
  log: Pick<FastifyBaseLogger, "info">,
): Mailer {
  if (config.SMTP_URL) return new SmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  return new OutboxMailer(outboxDir(config), config.MAIL_FROM, log);
}
