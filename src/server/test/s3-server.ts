import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import S3rver, { type FilesystemStore, type StoredObject } from "s3rver";
import { newId } from "../ids";
import { createS3Client, type S3StorageSettings } from "../storage/s3-storage";

/** s3rver keeps a bucket's unfinished multipart uploads in this folder, one folder per upload. */
const UPLOADS_FOLDER = "._S3rver_uploads";

/** An object held in the middle of being written: part of its body has reached the server. */
export interface HeldWrite {
  key: string;
  /** Lets the rest of the body through; the write then completes. */
  release(): void;
}

export interface TestS3 {
  endpoint: string;
  /** Where it keeps its buckets. */
  directory: string;
  /** A new, empty bucket (named uniquely) and the settings to reach it. */
  createBucket(prefix?: string): Promise<S3StorageSettings>;
  /** The environment selecting that bucket, for `loadConfig`. */
  env(settings: S3StorageSettings): Record<string, string>;
  /**
   * Holds the next object written to `bucket` once half of its first chunk is stored, until
   * released; resolves then. A write in progress, ordered by events rather than timing.
   */
  holdNextWrite(bucket: string): Promise<HeldWrite>;
  /** How many multipart uploads of `bucket` are started and neither completed nor aborted. */
  unfinishedUploads(bucket: string): Promise<number>;
  stop(): Promise<void>;
}

/**
 * `source` with its first chunk cut in two: the first half passes, then nothing more until
 * released. `onHeld` is called once the first half has been passed on.
 */
function holdingAfterFirstBytes(source: Readable, onHeld: (release: () => void) => void): Readable {
  let held = false;
  const gate = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (held) return done(null, chunk);
      held = true;
      const half = Math.max(1, Math.floor(chunk.length / 2));
      this.push(chunk.subarray(0, half));
      onHeld(() => done(null, chunk.subarray(half)));
    },
  });
  source.on("error", (error) => gate.destroy(error));
  return source.pipe(gate);
}

/**
 * Stores an object as S3 does, atomically: s3rver writes the body straight into the object's file,
 * so a listing during the write shows the object under its key with part of its bytes (and a read
 * returns them). Here the body goes to a temporary name (never listed: objects end in
 * `._S3rver_object`), its checksum and metadata are written, and only then is it renamed into place.
 */
async function putObjectAtomically(store: FilesystemStore, object: StoredObject) {
  const objectPath = store.getResourcePath(object.bucket, object.key, "object");
  const temporary = `${objectPath}.writing-${newId()}`;
  await mkdir(path.dirname(objectPath), { recursive: true });
  const md5 = createHash("md5");
  let size = 0;
  const content = Buffer.isBuffer(object.content)
    ? Readable.from([object.content])
    : object.content;
  try {
    await pipeline(
      content,
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          md5.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      }),
      createWriteStream(temporary),
    );
    const digest = md5.digest("hex");
    await store.putMetadata(object.bucket, object.key, object.metadata, digest);
    await rename(temporary, objectPath);
    return { size, md5: digest };
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

const xmlEscape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * An S3-compatible server in this process (s3rver, on a free port, in a temp folder), so the
 * storage tests need no external service. Its puts are made atomic, as S3's are (an object appears
 * under its key only once complete: the storage interface relies on it). s3rver lacks AbortMultipartUpload and
 * ListMultipartUploads; a small middleware adds both as S3 specifies them (the parts are removed),
 * so tests can see that an aborted upload leaves nothing in the bucket.
 */
export async function startTestS3(
  /** An earlier server's folder and port, to start it again after it was killed. */
  reuse: { directory: string; port: number } | null = null,
): Promise<TestS3> {
  const directory = reuse?.directory ?? (await mkdtemp(path.join(os.tmpdir(), "vmj-s3-")));
  const server = new S3rver({
    port: reuse?.port ?? 0,
    address: "127.0.0.1",
    silent: true,
    directory,
  });
  const holds = new Map<string, (held: HeldWrite) => void>();
  const store = server.store;
  store.putObject = (object) => {
    const onHeld = holds.get(object.bucket);
    if (onHeld) {
      holds.delete(object.bucket);
      const content = Buffer.isBuffer(object.content)
        ? Readable.from([object.content])
        : object.content;
      object.content = holdingAfterFirstBytes(content, (release) =>
        onHeld({ key: object.key, release }),
      );
    }
    return putObjectAtomically(store, object);
  };
  const uploadsDir = (bucket: string) => path.join(directory, bucket, UPLOADS_FOLDER);
  server.middleware.unshift(async (ctx, next) => {
    const [, bucket, ...rest] = ctx.path.split("/");
    const keyParts = rest.filter(Boolean);
    if (!bucket) return next();
    const uploadId = ctx.query.uploadId;
    if (ctx.method === "DELETE" && typeof uploadId === "string" && keyParts.length > 0) {
      await rm(path.join(uploadsDir(bucket), path.basename(uploadId)), {
        recursive: true,
        force: true,
      });
      ctx.status = 204;
      return;
    }
    if (ctx.method === "GET" && keyParts.length === 0 && ctx.query.uploads !== undefined) {
      const prefix = typeof ctx.query.prefix === "string" ? ctx.query.prefix : "";
      const entries: string[] = [];
      for (const id of await readdir(uploadsDir(bucket)).catch(() => [] as string[])) {
        const folder = path.join(uploadsDir(bucket), id);
        const key = await readFile(path.join(folder, "key"), "utf8").catch(() => null);
        if (key === null || !key.startsWith(prefix)) continue;
        const initiated = (await stat(folder)).mtime.toISOString();
        entries.push(
          `<Upload><Key>${xmlEscape(key)}</Key><UploadId>${xmlEscape(id)}</UploadId><Initiated>${initiated}</Initiated></Upload>`,
        );
      }
      ctx.type = "application/xml";
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult><Bucket>${bucket}</Bucket><IsTruncated>false</IsTruncated>${entries.join("")}</ListMultipartUploadsResult>`;
      return;
    }
    return next();
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const base = {
    endpoint,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
  };
  const admin = createS3Client({ ...base, bucket: "admin", prefix: "" });
  return {
    endpoint,
    directory,
    async createBucket(prefix = "") {
      const bucket = `vmj-${newId()
        .replace(/[^A-Za-z0-9]/g, "")
        .toLowerCase()
        .slice(0, 20)}`;
      await admin.send(new CreateBucketCommand({ Bucket: bucket }));
      return { ...base, bucket, prefix: prefix ? `${prefix.replace(/\/+$/, "")}/` : "" };
    },
    env(settings) {
      return {
        STORAGE_URL: `s3://${settings.bucket}/${settings.prefix}`,
        S3_ENDPOINT: endpoint,
        S3_REGION: settings.region,
        S3_ACCESS_KEY_ID: "S3RVER",
        S3_SECRET_ACCESS_KEY: "S3RVER",
        S3_FORCE_PATH_STYLE: "true",
      };
    },
    holdNextWrite(bucket) {
      return new Promise((resolve) => holds.set(bucket, resolve));
    },
    async unfinishedUploads(bucket) {
      return (await readdir(uploadsDir(bucket)).catch(() => [])).length;
    },
    async stop() {
      admin.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
