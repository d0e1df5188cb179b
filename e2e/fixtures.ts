import yauzl from "yauzl";
import type { Memory, MemoryCreateBody } from "../src/shared/schemas";
import { type ApiClient, serverFixture } from "./api-client";

/** Uploads the test tone as a memory's audio and creates the memory with POST /api/memories. */
export async function seedMemory(
  owner: ApiClient,
  memory: Omit<MemoryCreateBody, "audioUrl" | "recordedAt"> & { recordedAt?: string },
): Promise<Memory> {
  const upload = await owner.upload(await serverFixture("tone.mp3"));
  if (upload.status !== 201) throw new Error(`upload failed: ${upload.status}`);
  const { url } = (await upload.json()) as { url: string };
  const created = await owner.json<Memory>("POST", "/api/memories", {
    recordedAt: new Date().toISOString(),
    ...memory,
    audioUrl: url,
  });
  if (created.status !== 201) {
    throw new Error(`creating a memory failed: ${created.status} ${JSON.stringify(created.data)}`);
  }
  return created.data;
}

/** Every entry of a zip by name; yauzl checks each entry's CRC and sizes as it reads. */
export async function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, file) =>
      error ? reject(error) : resolve(file),
    ),
  );
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on("error", reject);
    zip.on("end", () => resolve());
    zip.on("entry", (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("error", reject);
        stream.on("end", () => {
          files.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return files;
}

/**
 * Whether `bytes` start like an MP3 file: an optional ID3v2 tag, then an MPEG audio frame header
 * (11 sync bits, a valid version, layer, bitrate and sample rate).
 */
export function looksLikeMp3(bytes: Buffer): boolean {
  let offset = 0;
  if (bytes.subarray(0, 3).toString("latin1") === "ID3" && bytes.length >= 10) {
    // The tag size is 4 "syncsafe" bytes of 7 bits each, after the 10-byte header.
    const size =
      ((bytes[6] ?? 0) << 21) | ((bytes[7] ?? 0) << 14) | ((bytes[8] ?? 0) << 7) | (bytes[9] ?? 0);
    offset = 10 + size;
  }
  const [b0, b1, b2] = [bytes[offset], bytes[offset + 1], bytes[offset + 2]];
  if (b0 === undefined || b1 === undefined || b2 === undefined) return false;
  const sync = b0 === 0xff && (b1 & 0xe0) === 0xe0;
  const version = (b1 >> 3) & 0b11; // 01 is reserved
  const layer = (b1 >> 1) & 0b11; // 00 is reserved
  const bitrate = b2 >> 4; // 1111 is invalid
  const sampleRate = (b2 >> 2) & 0b11; // 11 is reserved
  return sync && version !== 1 && layer !== 0 && bitrate !== 0b1111 && sampleRate !== 0b11;
}
