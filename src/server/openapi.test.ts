import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "./auth/session.service";
import { createTestApp, type TestApp } from "./test/harness";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const REDOCLY = path.join(ROOT, "node_modules", ".bin", "redocly");
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer?: string }[];
}

let t: TestApp;
let dir: string;
let doc: {
  openapi: string;
  servers?: unknown[];
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }>;
  };
  paths: Record<string, Record<string, Operation>>;
};
let operations: [string, Operation][];

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), "vmj-openapi-"));
  const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
  expect(res.statusCode).toBe(200);
  doc = res.json();
  operations = Object.entries(doc.paths).flatMap(([url, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${url}`, op]),
  );
});

afterAll(async () => {
  await t?.cleanup();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the OpenAPI document", () => {
  it("passes redocly's recommended rules with no error", async () => {
    const file = path.join(dir, "openapi.json");
    await writeFile(file, JSON.stringify(doc));
    const args = ["lint", "--format=json", "--max-problems=1000", "--config", "redocly.yaml", file];
    const env = {
      ...process.env,
      REDOCLY_TELEMETRY: "off",
      REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
    };
    // redocly exits 1 when it finds an error: its report is the same JSON on stdout.
    const stdout = await run(REDOCLY, args, { cwd: ROOT, env }).then(
      (done) => done.stdout,
      (failed: { stdout?: string }) => failed.stdout ?? "",
    );
    const report = JSON.parse(stdout) as { totals: { errors: number }; problems: Problem[] };
    const errors = report.problems
      .filter((p) => p.severity === "error")
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(", ")}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it("gives every operation a unique camelCase operationId", () => {
    const ids = operations.map(([, op]) => op.operationId);
    for (const [name, op] of operations) {
      expect(op.operationId, name).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths["/api/audio/{id}"]?.head?.operationId).toBe("getAudioHead");
  });

  it("says for every operation whether it needs the session cookie", () => {
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({
      type: "apiKey",
      in: "cookie",
      name: SESSION_COOKIE,
    });
    for (const [name, op] of operations) expect(op.security, name).toBeDefined();
    expect(doc.paths["/api/login"]?.post?.security).toEqual([]);
    expect(doc.paths["/api/memories"]?.get?.security).toEqual([{ sessionCookie: [] }]);
  });

  it("describes every error as { code, message, field? }", () => {
    expect(doc.components.schemas.Error?.required).toEqual(["code", "message"]);
    expect(Object.keys(doc.components.schemas.Error?.properties ?? {})).toEqual([
      "code",
      "message",
      "field",
    ]);
    const unauthorized = doc.paths["/api/user"]?.get?.responses["401"];
    expect(unauthorized?.content?.["application/json"]?.schema).toEqual({
      $ref: "#/components/schemas/Error",
    });
  });

  it("is OpenAPI 3.1 with its servers declared", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([expect.objectContaining({ url: "/" })]);
  });
});
