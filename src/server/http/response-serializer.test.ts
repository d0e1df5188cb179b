import Fastify from "fastify";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type Memory, memoryPageSchema } from "../../shared/schemas";
import { isPlainTree, responseSerializerCompiler } from "./response-serializer";

const memory = (n: number, overrides: Partial<Memory> = {}): Memory => ({
  id: `memory-${n}`,
  user_id: n % 2 ? "user-1" : null,
  title: `A "quoted" title \\ with \u2028 a line separator, é and 🌧 (${n})`,
  audioUrl: `/api/audio/memory-${n}`,
  transcript: "line one\nline two\t</script>",
  summary: "",
  scores: {
    meaningfulness: 5,
    cuteness: 0,
    excitement: 7.25,
    interest: 1e-7,
    uniqueness: -1,
    overall: 6,
  },
  duration: 42.5,
  recordedAt: "2026-11-01T10:00:00.000Z",
  tags: n % 2 ? ["garden", "rain"] : [],
  status: "saved",
  stage: n % 2 ? null : "summarize",
  error: null,
  createdAt: "2026-11-01T10:00:00.000Z",
  question: n % 2 ? "What did you hear?" : null,
  language: "en",
  photos: [],
  ...overrides,
});

async function serve(body: unknown) {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.get("/page", { schema: { response: { 200: memoryPageSchema } } }, async () => body as never);
  try {
    return await app.inject("/page");
  } finally {
    await app.close();
  }
}

describe("the response serializer", () => {
  it("writes a page as JSON.stringify writes what zod returns", async () => {
    const page = { items: [memory(1), memory(2)], total: 2, page: 1, pageSize: 15 as const };
    const response = await serve(page);
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual(
      JSON.parse(JSON.stringify(z.encode(memoryPageSchema, page))),
    );
    expect(JSON.parse(response.body)).toEqual(page);
  });

  it("never writes a field the schema does not declare", async () => {
    const leaky = {
      items: [{ ...memory(1), password_hash: "$argon2id$secret", search_vector: "x" }],
      total: 1,
      page: 1,
      pageSize: 15,
      owner_email: "someone@example.com",
    };
    const response = await serve(leaky);
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toMatch(/password_hash|argon2id|search_vector|owner_email|example/);
    expect(Object.keys(JSON.parse(response.body).items[0]).sort()).toEqual(
      Object.keys(memory(1)).sort(),
    );
  });

  it("refuses a response missing a field its schema requires (500, nothing of it sent)", async () => {
    const { transcript: _, ...withoutTranscript } = memory(1);
    for (const body of [
      { items: [memory(1)], total: 1, page: 1 },
      { items: [withoutTranscript], total: 1, page: 1, pageSize: 15 },
    ]) {
      const response = await serve(body);
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toContain("memory-1");
    }
  });

  it("compiles only plain trees; unions of shapes and records go to JSON.stringify", () => {
    const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "output", target: "draft-7" });
    expect(isPlainTree(json(memoryPageSchema))).toBe(true);
    expect(isPlainTree(json(z.object({ a: z.string() }).or(z.object({ b: z.number() }))))).toBe(
      false,
    );
    expect(isPlainTree(json(z.object({ counts: z.record(z.string(), z.number()) })))).toBe(false);
    expect(isPlainTree(json(z.object({ a: z.string() }).passthrough()))).toBe(false);
    expect(isPlainTree(json(z.object({ anything: z.unknown() })))).toBe(false);
  });
});
