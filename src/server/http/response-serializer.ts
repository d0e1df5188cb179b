import fastJsonStringify from "fast-json-stringify";
import type { FastifySerializerCompiler } from "fastify";
import { ResponseSerializationError } from "fastify-type-provider-zod";
import { type ZodType, z } from "zod";

type JsonSchema = Record<string, unknown>;

const PRIMITIVES = new Set(["string", "number", "integer", "boolean", "null"]);
const isObject = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Whether a response's JSON Schema is one fast-json-stringify writes exactly as JSON.stringify
 * would: objects with closed properties, arrays, primitives, enums and constants, each possibly
 * nullable. Unions of shapes, records, references and anything else are left to JSON.stringify.
 */
export function isPlainTree(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  const { type, anyOf } = schema;
  if (anyOf !== undefined) {
    // Only `X or null`, as zod writes a nullable enum.
    if (!Array.isArray(anyOf) || anyOf.length !== 2 || Object.keys(schema).length !== 1) {
      return false;
    }
    const [first, second] = anyOf;
    return isObject(second) && second.type === "null" && isPlainTree(first);
  }
  if (type === "object") {
    const { properties, additionalProperties } = schema;
    return (
      additionalProperties === false &&
      isObject(properties) &&
      Object.values(properties).every(isPlainTree)
    );
  }
  if (type === "array") return isPlainTree(schema.items);
  const types = Array.isArray(type) ? type : [type];
  return types.length > 0 && types.every((each) => PRIMITIVES.has(each as string));
}

/**
 * The writer compiled from a plain tree's JSON Schema, or undefined where the schema is not one
 * (or zod cannot express it as JSON Schema: a transform, a date).
 */
function compilePlainTree(schema: ZodType): ((data: unknown) => string) | undefined {
  try {
    const json = z.toJSONSchema(schema, {
      io: "output",
      target: "draft-7",
      unrepresentable: "throw",
    }) as JsonSchema;
    if (isPlainTree(json)) return fastJsonStringify(json as never) as (data: unknown) => string;
  } catch {
    // Not expressible as JSON Schema: zod and JSON.stringify below.
  }
  return undefined;
}

/**
 * Serializes every response that has a schema; no field the schema does not declare is ever
 * written (a private column never reaches a response). A plain tree's response is written by
 * fast-json-stringify compiled from the schema, which writes only the declared fields and fails
 * on a missing one, without zod's copy of the whole response first (the handlers' return types
 * are the schema's, checked when compiling). Any other schema is checked by zod, which drops the
 * undeclared fields, then written by JSON.stringify, as fastify-type-provider-zod's serializer.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<ZodType> = ({
  schema,
  method,
  url,
}) => {
  const writePlainTree = compilePlainTree(schema);
  // Its error (a missing field) reaches the error handler as any other: a 500, nothing sent.
  if (writePlainTree) return writePlainTree;
  return (data) => {
    const result = z.safeEncode(schema, data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
