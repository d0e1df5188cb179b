import { readFile } from "node:fs/promises";
import path from "node:path";
import { VISITOR_COOKIE } from "../auth/session.service";
import { newId } from "../ids";
import type { TestApp } from "./harness";

const FIXTURES = path.join(import.meta.dirname, "fixtures");

/** A real audio file from src/server/test/fixtures. */
export const fixture = (name: string) => readFile(path.join(FIXTURES, name));

/** A multipart/form-data body with one file part. */
export function multipart(
  content: Buffer,
  options: { field?: string; filename?: string; type?: string } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----vmj${newId()}`;
  const head =
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="${options.field ?? "audio"}"; filename="${options.filename ?? "recording.mp3"}"\r\n` +
    `Content-Type: ${options.type ?? "audio/mpeg"}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

/** POSTs a file to /api/upload as the given cookie (or as a new visitor). */
export async function upload(
  t: Pick<TestApp, "app">,
  content: Buffer,
  options: {
    cookie?: string;
    field?: string;
    filename?: string;
    type?: string;
    /** Sent as `x-upload-key` (the browser's id for one recording). */
    uploadKey?: string;
  } = {},
) {
  const body = multipart(content, options);
  return t.app.inject({
    method: "POST",
    url: "/api/upload",
    payload: body.payload,
    headers: {
      ...body.headers,
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.uploadKey ? { "x-upload-key": options.uploadKey } : {}),
    },
  });
}

/** The visitor cookie the server set on an anonymous request, as a `cookie` header. */
export function visitorCookie(response: { cookies: { name: string; value: string }[] }): string {
  const cookie = response.cookies.find((c) => c.name === VISITOR_COOKIE);
  if (!cookie) throw new Error("no visitor cookie");
  return `${VISITOR_COOKIE}=${cookie.value}`;
}

/**
 * POSTs `body` to the app over a real socket (the app listens on a free port): a body cut off
 * mid-part reaches the multipart parser in the order a network gives it, which `inject` does not.
 */
export async function postOverSocket(
  t: Pick<TestApp, "app">,
  url: string,
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ statusCode: number; body: string }> {
  const address = t.app.server.listening
    ? `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`
    : await t.app.listen({ port: 0, host: "127.0.0.1" });
  const response = await fetch(`${address}${url}`, {
    method: "POST",
    headers: { origin: address, ...headers },
    body: new Uint8Array(body),
  });
  return { statusCode: response.status, body: await response.text() };
}
