import http from "node:http";
import type { AddressInfo } from "node:net";
import type { AiProviders } from "../ai/ai";
import { openAiProviders } from "../ai/ai-factory";

/** One request the stub received, with the body parsed (JSON or multipart form). */
export interface StubRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  json?: Record<string, unknown>;
  form?: { fields: Record<string, string>; file?: { name: string; type: string; bytes: number } };
  /** True once the client closed the connection before the answer was sent (an aborted call). */
  aborted?: boolean;
}

export interface StubReply {
  status?: number;
  body?: unknown;
  /** Raw text body, for truncated JSON and the like. */
  raw?: string;
  /** Wait this long before answering (for timeouts). */
  delayMs?: number;
}

export type StubHandler = (request: StubRequest) => StubReply | Promise<StubReply>;

/** A local OpenAI-compatible HTTP server for tests: the real SDK talks to it over real HTTP. */
export interface OpenAiStub {
  baseURL: string;
  requests: StubRequest[];
  /** Replaces how the stub answers. */
  handle(handler: StubHandler): void;
  close(): Promise<void>;
}

/** The real OpenAI providers pointed at the stub: no retries, a 5 s timeout. */
export function stubProviders(
  stub: Pick<OpenAiStub, "baseURL">,
  { timeoutMs = 5_000 }: { timeoutMs?: number } = {},
): AiProviders {
  return openAiProviders({
    apiKey: "sk-test",
    baseURL: stub.baseURL,
    transcriptionModel: "whisper-1",
    textModel: "gpt-4o",
    timeoutMs,
    maxRetries: 0,
  });
}

export function chatReply(content: string | null): StubReply {
  return {
    body: {
      id: "chatcmpl-test",
      object: "chat.completion",
      created: 0,
      model: "test",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    },
  };
}

export const STUB_TRANSCRIPT =
  "Today we went to the beach with Grandpa and you built a sandcastle.";

/**
 * A transcription answer as OpenAI gives it: `{ text }`, or with `response_format=verbose_json`
 * also the duration and one segment per phrase (split at " and "), spread over `seconds`.
 */
export function transcriptionReply(request: StubRequest, text: string, seconds: number): StubReply {
  if (request.form?.fields.response_format !== "verbose_json") return { body: { text } };
  const phrases = text.split(/(?<=\S) (?=and )/);
  const step = seconds / phrases.length;
  return {
    body: {
      task: "transcribe",
      language: "english",
      duration: seconds,
      text,
      segments: phrases.map((phrase, id) => ({
        id,
        seek: 0,
        start: Math.round(id * step * 100) / 100,
        end: Math.round((id + 1) * step * 100) / 100,
        text: ` ${phrase}`,
      })),
    },
  };
}

/** Answers every endpoint with plausible, valid output unless told otherwise. */
export const defaultStubHandler: StubHandler = (request) => {
  if (request.path.endsWith("/audio/transcriptions")) {
    // The app's own estimate of the length (bytes / 16000) is at most the real one for MP3s.
    return transcriptionReply(request, STUB_TRANSCRIPT, (request.form?.file?.bytes ?? 0) / 16000);
  }
  const json = request.json ?? {};
  const format = json.response_format as { type?: string } | undefined;
  const messages = (json.messages as { content: string }[] | undefined) ?? [];
  if (format?.type === "json_object") {
    if (messages[0]?.content.includes('"tags"')) {
      return chatReply(JSON.stringify({ tags: ["beach day", "grandpa", "sandcastle"] }));
    }
    return chatReply(
      JSON.stringify({
        meaningfulness: 8,
        cuteness: 7,
        excitement: 6,
        interest: 7,
        uniqueness: 5,
        overall: 7,
      }),
    );
  }
  return chatReply(
    "I will always remember our day at the beach with Grandpa. You built the best sandcastle, my love.",
  );
};

export async function startOpenAiStub(
  handler: StubHandler = defaultStubHandler,
): Promise<OpenAiStub> {
  let current = handler;
  const requests: StubRequest[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const entry: StubRequest = {
      method: req.method ?? "",
      path: (req.url ?? "").split("?")[0] ?? "",
      headers: req.headers,
    };
    const type = req.headers["content-type"] ?? "";
    if (type.includes("application/json") && body.length) {
      entry.json = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
    } else if (type.includes("multipart/form-data")) {
      const form = await new Request("http://stub/", {
        method: "POST",
        headers: { "content-type": type },
        body,
      }).formData();
      const fields: Record<string, string> = {};
      let file: NonNullable<StubRequest["form"]>["file"];
      for (const [key, value] of form.entries()) {
        if (typeof value === "string") fields[key] = value;
        else file = { name: value.name, type: value.type, bytes: value.size };
      }
      entry.form = { fields, file };
    }
    requests.push(entry);
    res.on("close", () => {
      if (!res.writableFinished) entry.aborted = true;
    });
    let reply: StubReply;
    try {
      reply = await current(entry);
    } catch (error) {
      reply = { status: 500, body: { error: { message: String(error) } } };
    }
    // A delayed reply ends early when the caller hangs up (an aborted or timed-out call).
    if (reply.delayMs) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, reply.delayMs);
        res.on("close", () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (res.destroyed) return;
    res.statusCode = reply.status ?? 200;
    res.setHeader("content-type", "application/json");
    // The SDK honours this, so its retries (real backoff otherwise) keep tests quick.
    if (res.statusCode >= 500) res.setHeader("retry-after-ms", "10");
    res.end(reply.raw ?? JSON.stringify(reply.body ?? {}));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    handle(next) {
      current = next;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
