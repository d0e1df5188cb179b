import { expect } from "vitest";
import type { TestApp } from "./harness";
import { multipart } from "./upload-helpers";
import { unzip } from "./zip";

/** Downloads a user's backup (GET /api/backup-memories must answer 200): the zip and its entries. */
export async function downloadBackup(
  t: Pick<TestApp, "app">,
  cookie: string,
): Promise<{ zip: Buffer; files: Map<string, Buffer> }> {
  const response = await t.app.inject({
    method: "GET",
    url: "/api/backup-memories",
    headers: { cookie },
  });
  expect(response.statusCode).toBe(200);
  return { zip: response.rawPayload, files: await unzip(response.rawPayload) };
}

/** Uploads a backup zip to POST /api/restore as the account page does; the caller checks the answer. */
export function restoreBackup(t: Pick<TestApp, "app">, cookie: string, zip: Buffer) {
  const body = multipart(zip, { field: "backup", filename: "backup.zip", type: "application/zip" });
  return t.app.inject({
    method: "POST",
    url: "/api/restore",
    payload: body.payload,
    headers: { ...body.headers, cookie },
  });
}
