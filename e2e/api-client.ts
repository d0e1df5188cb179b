import { readFile } from "node:fs/promises";
import path from "node:path";

/** A tiny HTTP client for tests of the running server: keeps its own cookies, like a browser. */
export class ApiClient {
  private readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async request(
    method: string,
    url: string,
    body?: unknown,
    options: { timeoutMs?: number } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = {};
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie = cookie;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${this.baseUrl}${url}`, {
      method,
      headers,
      body: payload,
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...rest] = (pair ?? "").split("=");
      if (name) this.cookies.set(name.trim(), rest.join("="));
    }
    return res;
  }

  /** The cookies this client holds, as a `cookie` header value ("" when none). */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async json<T>(method: string, url: string, body?: unknown): Promise<{ status: number; data: T }> {
    const res = await this.request(method, url, body);
    const text = await res.text();
    return { status: res.status, data: (text ? JSON.parse(text) : null) as T };
  }

  async register(username: string, password = "a long enough password"): Promise<void> {
    const res = await this.request("POST", "/api/register", { username, password, isPublic: true });
    if (res.status !== 201 && res.status !== 200) {
      throw new Error(`register failed: ${res.status} ${await res.text()}`);
    }
  }

  /** Uploads audio and returns its url. */
  async upload(bytes: Buffer, filename = "recording.mp3", type = "audio/mpeg"): Promise<Response> {
    const form = new FormData();
    form.append("audio", new Blob([new Uint8Array(bytes)], { type }), filename);
    return this.request("POST", "/api/upload", form);
  }
}

export function serverFixture(name: string): Promise<Buffer> {
  return readFile(path.join(import.meta.dirname, "../src/server/test/fixtures", name));
}

/** Peak resident memory of a process in MB, read from /proc (Linux). */
export async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}
