import swagger, { type SwaggerTransformObject } from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyPluginAsync } from "fastify";
import fp from "fastify-plugin";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { errorResponseSchema } from "../../shared/schemas";
import { SESSION_SCHEME, sessionSecurityScheme } from "../http/api-security";

const ERROR_REF = "#/components/schemas/Error";

/** Every error answer's body, as the error handler writes it (`errorBody`). */
const errorSchema = {
  type: "object",
  description: "Every error the API answers, whatever its status.",
  properties: {
    code: {
      type: "string",
      description:
        "A stable name of the error (`invalid_value`, `auth.invalid_credentials`, `photo.too_many`), for programs to tell errors apart; the client picks the words it shows by it.",
    },
    message: {
      type: "string",
      description: "What went wrong, in words to show a person; they may change, the code stays.",
    },
    field: {
      type: "string",
      description:
        "The request's field the error is about, when there is one: `body.title`, `query.page`, or an upload's multipart field (`audio`, `photo`, `backup`).",
    },
  },
  required: ["code", "message"],
  additionalProperties: false,
} as const;

/** What each error status means, the same on every operation (docs/api.md). */
const ERROR_DESCRIPTIONS: Record<string, string> = {
  400: "The request is not valid; `code` says why and `field` names the field.",
  401: "Not logged in.",
  403: "You may see this but not change it.",
  404: "Not there, or not yours to see (the two look the same).",
  409: "A conflict its code names.",
  413: "Too large.",
  429: "Too many requests; try again after `Retry-After` seconds.",
  503: "The database or the storage does not answer; try again later.",
  507: "The data disk is full; nothing was kept; try again later.",
};

type Transform = typeof jsonSchemaTransform;

/**
 * The zod provider's transform, with every error answer (a route's `errorResponseSchema`) as a
 * reference to the one Error schema.
 */
const transform: Transform = (document) => {
  const response = document.schema?.response as Record<string, unknown> | undefined;
  if (!response) return jsonSchemaTransform(document);
  const errorStatuses = Object.keys(response).filter((s) => response[s] === errorResponseSchema);
  const rest = Object.fromEntries(
    Object.entries(response).filter(([s]) => !errorStatuses.includes(s)),
  );
  const result = jsonSchemaTransform({
    ...document,
    schema: { ...document.schema, response: rest },
  });
  const transformed = (result.schema.response ?? {}) as Record<string, unknown>;
  for (const status of errorStatuses) {
    transformed[status] = { $ref: ERROR_REF };
  }
  return { ...result, schema: { ...result.schema, response: transformed } };
};

type Operation = { operationId?: string } & Record<string, unknown>;

/** Names what an error status means on each of its answers (@fastify/swagger says "Default"). */
function describeErrors(operation: Operation): void {
  const responses = (operation.responses ?? {}) as Record<string, { description?: string }>;
  for (const [status, response] of Object.entries(responses)) {
    const description = ERROR_DESCRIPTIONS[status];
    if (description && JSON.stringify(response).includes(ERROR_REF)) {
      response.description = description;
    }
  }
}

/**
 * The document's last touches: the Error schema, what each error status means, and a route serving several methods (GET and
 * HEAD in one handler) gives each its own operation, the first method's id suffixed with the
 * method's name for the others (`getAudio`, `getAudioHead`), so every operation id stays unique.
 */
const finish: SwaggerTransformObject = (documentObject) => {
  if (!("openapiObject" in documentObject)) return documentObject.swaggerObject;
  const doc = documentObject.openapiObject as {
    components?: { schemas?: Record<string, unknown> };
    paths?: Record<string, Record<string, unknown>>;
  };
  doc.components = {
    ...doc.components,
    schemas: { ...doc.components?.schemas, Error: errorSchema },
  };
  for (const pathItem of Object.values(doc.paths ?? {})) {
    const seen = new Set<unknown>();
    for (const [method, operation] of Object.entries(pathItem)) {
      if (typeof operation !== "object" || operation === null) continue;
      if (!seen.has(operation)) {
        seen.add(operation);
        describeErrors(operation as Operation);
        continue;
      }
      const { operationId } = operation as Operation;
      pathItem[method] = {
        ...operation,
        ...(operationId
          ? { operationId: `${operationId}${method[0]?.toUpperCase()}${method.slice(1)}` }
          : {}),
      };
    }
  }
  return documentObject.openapiObject;
};

/** The OpenAPI document, generated from the routes' zod schemas, and its viewer at /api/docs. */
export const apiDocs: FastifyPluginAsync = fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        // 3.1: JSON Schema itself, so a nullable field is `type: ["string", "null"]` or an
        // `anyOf` with `null` rather than 3.0's `nullable`, which needs a `type` beside it.
        openapi: "3.1.0",
        info: {
          title: "Voice Memory Journal API",
          description:
            "Every route the web app uses. Errors are `{ code, message }`, with `field` when one field is at fault (the Error schema). Log in with POST /api/login and send the session cookie it sets; each operation says whether it needs it.",
          version: "1.0.0",
        },
        // Relative: the server that serves this document, wherever it is installed.
        servers: [{ url: "/", description: "This journal's server" }],
        components: { securitySchemes: { [SESSION_SCHEME]: sessionSecurityScheme } },
      },
      transform,
      transformObject: finish,
    });
    await app.register(swaggerUi, { routePrefix: "/api/docs", staticCSP: true });
    app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  },
  { name: "api-docs" },
);
