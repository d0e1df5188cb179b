import path from "node:path";
import { describe, expect, it } from "vitest";
import { linkBaseOf, loadConfig, openAddress, publicAppUrl, startupWarnings } from "./config";

describe("loadConfig", () => {
  it("uses the embedded defaults", () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(5000);
    expect(config.dataDir).toBe(path.resolve("./data"));
    expect(config.database).toEqual({ kind: "sqlite", file: path.resolve("./data/journal.db") });
    expect(config.aiProvider).toBe("local");
  });
  it("chooses PostgreSQL for a postgres URL", () => {
    const config = loadConfig({ DATABASE_URL: "postgres://u@h:5432/db" });
    expect(config.database).toEqual({ kind: "postgres", url: "postgres://u@h:5432/db" });
  });
  it("chooses openai when a key is configured", () => {
    expect(loadConfig({ OPENAI_API_KEY: "sk-test" }).aiProvider).toBe("openai");
  });
  it.each([
    ["PORT", "not-a-port"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://x"],
    ["UPLOAD_MAX_BYTES", "-5"],
    ["AI_PROVIDER", "gemini"],
    ["APP_URL", "not a url"],
    ["METRICS_TOKEN", "short"],
  ])("names the variable in the error for %s=%s", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe("the public address", () => {
  it("is APP_URL when set, and no start-up warning is needed", () => {
    const config = loadConfig({ APP_URL: "https://journal.example" });
    expect(publicAppUrl(config)).toBe("https://journal.example");
    expect(startupWarnings(config)).toEqual([]);
  });
  it("falls back to localhost on PORT, and start-up says once to set APP_URL", () => {
    const config = loadConfig({ PORT: "5123" });
    expect(publicAppUrl(config)).toBe("http://localhost:5123");
    const warnings = startupWarnings(config);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/APP_URL/);
    expect(warnings[0]).toContain("http://localhost:5123");
  });
  it("builds links on the address in use without APP_URL, never on a malformed Host", () => {
    const unset = loadConfig({ PORT: "5202" });
    expect(linkBaseOf(unset, { protocol: "http", host: "192.168.1.20:5202" })).toBe(
      "http://192.168.1.20:5202",
    );
    expect(linkBaseOf(unset, { protocol: "https", host: "[fd00::2]:5202" })).toBe(
      "https://[fd00::2]:5202",
    );
    expect(linkBaseOf(unset, { protocol: "http", host: "evil.example/x?" })).toBe(
      "http://localhost:5202",
    );
    const set = loadConfig({ APP_URL: "https://journal.example/" });
    expect(linkBaseOf(set, { protocol: "http", host: "192.168.1.20:5202" })).toBe(
      "https://journal.example",
    );
  });
});

describe("where start-up says to open the app", () => {
  const lan = {
    lo: [{ address: "127.0.0.1", family: "IPv4", internal: true }],
    eth0: [
      { address: "fe80::1", family: "IPv6", internal: false },
      { address: "192.168.1.20", family: "IPv4", internal: false },
    ],
  };
  it("is APP_URL when set", () => {
    expect(openAddress(loadConfig({ APP_URL: "https://journal.example" }), lan)).toBe(
      "https://journal.example",
    );
  });
  it("is the machine's network address on every interface, else localhost", () => {
    expect(openAddress(loadConfig({ PORT: "5202" }), lan)).toBe("http://192.168.1.20:5202");
    expect(openAddress(loadConfig({ PORT: "5202" }), { lo: lan.lo })).toBe("http://localhost:5202");
  });
  it("is HOST when it names one address", () => {
    expect(openAddress(loadConfig({ PORT: "5202", HOST: "127.0.0.1" }), lan)).toBe(
      "http://127.0.0.1:5202",
    );
  });
});

describe("housekeeping and shutdown settings", () => {
  it("default to an hourly sweep with documented retention and an 8 s shutdown grace", () => {
    expect(loadConfig({})).toMatchObject({
      HOUSEKEEPING_INTERVAL_MINUTES: 60,
      FINISHED_JOB_RETENTION_DAYS: 7,
      FAILED_JOB_RETENTION_DAYS: 30,
      UNATTACHED_UPLOAD_RETENTION_HOURS: 192,
      SHUTDOWN_GRACE_MS: 8000,
    });
    // A recording made without an account can be saved to one for a week.
    expect(loadConfig({}).CLAIM_WINDOW_HOURS).toBe(168);
  });
  it("accept 0 to turn the sweep off and refuse negative values", () => {
    expect(loadConfig({ HOUSEKEEPING_INTERVAL_MINUTES: "0" }).HOUSEKEEPING_INTERVAL_MINUTES).toBe(
      0,
    );
    expect(() => loadConfig({ HOUSEKEEPING_INTERVAL_MINUTES: "-1" })).toThrow(
      "HOUSEKEEPING_INTERVAL_MINUTES",
    );
    expect(() => loadConfig({ FINISHED_JOB_RETENTION_DAYS: "0" })).toThrow(
      "FINISHED_JOB_RETENTION_DAYS",
    );
  });
});

describe("audio storage settings", () => {
  it("keep audio under DATA_DIR/audio by default (file:)", () => {
    expect(loadConfig({ DATA_DIR: "/srv/journal" }).storage).toEqual({
      kind: "local",
      dir: path.resolve("/srv/journal/audio"),
    });
  });

  it("read a bucket, an optional prefix and the S3 connection from the environment", () => {
    const config = loadConfig({
      STORAGE_URL: "s3://family-audio/journal/prod/",
      S3_ENDPOINT: "http://minio:9000",
      S3_REGION: "eu-central-1",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_FORCE_PATH_STYLE: "true",
      S3_CONNECT_TIMEOUT_MS: "2000",
      S3_REQUEST_TIMEOUT_MS: "30000",
    });
    expect(config.storage).toEqual({
      kind: "s3",
      bucket: "family-audio",
      prefix: "journal/prod/",
      endpoint: "http://minio:9000",
      region: "eu-central-1",
      accessKeyId: "id",
      secretAccessKey: "secret",
      forcePathStyle: true,
      connectTimeoutMs: 2000,
      requestTimeoutMs: 30_000,
    });
    expect(loadConfig({ STORAGE_URL: "s3://family-audio" }).storage).toMatchObject({
      bucket: "family-audio",
      prefix: "",
      region: "us-east-1",
      forcePathStyle: false,
      connectTimeoutMs: 5000,
      requestTimeoutMs: 10_000,
    });
  });

  it.each([
    [{ STORAGE_URL: "/var/audio" }, /STORAGE_URL: must be 'file:'/],
    [{ STORAGE_URL: "s3://ab" }, /STORAGE_URL/],
    [{ STORAGE_URL: "s3://Bad_Bucket" }, /STORAGE_URL/],
    [{ S3_ENDPOINT: "minio:9000" }, /S3_ENDPOINT/],
    [{ S3_FORCE_PATH_STYLE: "maybe" }, /S3_FORCE_PATH_STYLE/],
    [{ STORAGE_URL: "s3://family-audio", S3_ACCESS_KEY_ID: "id" }, /S3_SECRET_ACCESS_KEY/],
    [{ STORAGE_URL: "s3://family-audio", S3_SECRET_ACCESS_KEY: "s" }, /S3_ACCESS_KEY_ID: set both/],
  ])("refuse %o naming the variable", (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
