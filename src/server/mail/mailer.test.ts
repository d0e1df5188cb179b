import { chmod, mkdir, readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { makeTempDir } from "../test/harness";
import { type SmtpSink, startSmtpSink } from "../test/smtp-sink";
import { createMailer, OutboxMailer, outboxDir, SmtpMailer } from "./mailer";

const silent = { info: () => undefined };

describe("mail", () => {
  let smtp: SmtpSink;
  beforeAll(async () => {
    smtp = await startSmtpSink();
  });
  afterAll(async () => smtp.close());

  it("chooses SMTP when SMTP_URL is set and the outbox otherwise", () => {
    const base = { DATA_DIR: "/tmp/x" };
    expect(createMailer(loadConfig({ ...base, SMTP_URL: smtp.url }), silent)).toBeInstanceOf(
      SmtpMailer,
    );
    expect(createMailer(loadConfig(base), silent)).toBeInstanceOf(OutboxMailer);
  });

  it("delivers over SMTP from MAIL_FROM", async () => {
    const config = loadConfig({ SMTP_URL: smtp.url, MAIL_FROM: "Journal <journal@example.com>" });
    await createMailer(config, silent).send({
      to: "reader@example.com",
      subject: "Hello",
      text: `A long line with a link https://journal.example/reset-password?token=${"t".repeat(80)} ü`,
    });
    const mail = await smtp.waitFor((m) => m.to.includes("reader@example.com"));
    expect(mail.from).toBe("journal@example.com");
    expect(mail.raw).toMatch(/^Subject: Hello/m);
    expect(mail.text).toContain(`token=${"t".repeat(80)} ü`);
  });

  it("writes an .eml file under DATA_DIR/outbox and logs it when there is no SMTP", async () => {
    const dataDir = await makeTempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    const logged: unknown[] = [];
    const mailer = createMailer(config, { info: (...args: unknown[]) => logged.push(args) });
    await mailer.send({
      to: "offline@example.com",
      subject: "Reset",
      text: "the link: https://x/y",
    });
    const dir = outboxDir(config);
    expect(dir).toBe(path.join(dataDir, "outbox"));
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = await readFile(path.join(dir, files[0] ?? ""), "utf8");
    expect(eml).toMatch(/^To: offline@example.com$/m);
    expect(eml).toMatch(/^Subject: Reset$/m);
    expect(eml).toContain("the link: https://x/y");
    expect(JSON.stringify(logged)).toContain("https://x/y");
  });

  it("writes a secret mail (a share link) to the outbox without logging its text", async () => {
    const dataDir = await makeTempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    const logged: unknown[] = [];
    const mailer = createMailer(config, { info: (...args: unknown[]) => logged.push(args) });
    await mailer.send({
      to: "grandma@example.com",
      subject: "Shared",
      text: "open https://x/s/secret-share-token",
      secret: true,
    });
    const [file] = await readdir(outboxDir(config));
    const eml = await readFile(path.join(outboxDir(config), file ?? ""), "utf8");
    expect(eml).toContain("secret-share-token");
    expect(eml).not.toMatch(/secret:/i);
    expect(JSON.stringify(logged)).toContain("grandma@example.com");
    expect(JSON.stringify(logged)).not.toContain("secret-share-token");
  });

  it("keeps the outbox (it holds live reset links) for the service's user only", async () => {
    const dataDir = await makeTempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    const dir = outboxDir(config);
    // An outbox an earlier version created world-readable.
    await mkdir(dir);
    await chmod(dir, 0o755);
    await createMailer(config, silent).send({ to: "a@example.com", subject: "S", text: "t" });
    const [file] = await readdir(dir);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(dir, file ?? ""))).mode & 0o777).toBe(0o600);
  });
});
