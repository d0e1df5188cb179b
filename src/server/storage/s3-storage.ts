import { Readable, Transform } from "node:stream";
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  type ListMultipartUploadsCommandOutput,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { newId } from "../ids";
import {
  type AudioStorage,
  assertSafeKey,
  type ByteRange,
  isSafeKey,
  StorageUnavailableError,
  type StoredFile,
} from "./audio-storage";
import { TEMPORARY_FILE_GRACE_MS } from "./local-storage";

/** What an S3-compatible bucket needs (from STORAGE_URL and the S3_* variables). */
export interface S3StorageSettings {
  bucket: string;
  /** Keys live under this prefix ("" or "some/path/", always ending in "/"). */
  prefix: string;
  endpoint?: string | undefined;
  region: string;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle: boolean;
  /** S3_CONNECT_TIMEOUT_MS: connecting longer than this fails the call. */
  connectTimeoutMs?: number | undefined;
  /** S3_REQUEST_TIMEOUT_MS: a call with no byte moving for this long fails. */
  requestTimeoutMs?: number | undefined;
}

/** One retry of a failed call (the SDK's backoff): a hung bucket costs two timeouts, not three. */
const MAX_ATTEMPTS = 2;

/** Parts of 8 MB, two at a time: at most about 16 MB of one upload is held in memory. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_AT_ONCE = 2;

export function createS3Client(settings: S3StorageSettings): S3Client {
  return new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey
      ? {
          credentials: {
            accessKeyId: settings.accessKeyId,
            secretAccessKey: settings.secretAccessKey,
          },
        }
      : {}),
    // Checksums only where S3 requires them: several S3-compatible services (and ranged reads)
    // do not return the full-object checksums newer SDKs would otherwise insist on.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: MAX_ATTEMPTS,
    // Without these a stopped (SIGSTOP) bucket hangs every call with no limit.
    // (The SDK's own `requestTimeout` only warns unless told to throw; `socketTimeout` is the
    // idle timer, which ends a hung transfer yet never a slow one that keeps moving.)
    requestHandler: {
      connectionTimeout: settings.connectTimeoutMs ?? 5000,
      socketTimeout: settings.requestTimeoutMs ?? 10_000,
    },
  });
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return (
    error.$metadata.httpStatusCode === 404 ||
    error.name === "NotFound" ||
    error.name === "NoSuchKey"
  );
}

/**
 * The error a caller should see: a missing object or the bucket's own refusal (4xx) as it is, and
 * anything else (no connection, a timeout, a 5xx, a cut stream) as StorageUnavailableError.
 */
function asUnavailable(error: unknown): unknown {
  if (error instanceof StorageUnavailableError) return error;
  if (error instanceof S3ServiceException) {
    const status = error.$metadata?.httpStatusCode ?? 0;
    if (status >= 400 && status < 500 && error.name !== "RequestTimeout") return error;
  }
  if ((error as { name?: string }).name === "AbortError") return error;
  return new StorageUnavailableError(`Audio bucket unreachable: ${describeS3Error(error)}`, {
    cause: error,
  });
}

/**
 * Audio in an S3-compatible bucket (AWS, MinIO, Garage, R2, B2). A put is atomic in S3, so an
 * object appears under its key only once complete; a large upload streams as a multipart upload
 * that is aborted in the bucket when the source fails. The server reads objects and streams them
 * itself: bucket credentials and keys never reach a browser (ADR 0023).
 */
export class S3AudioStorage implements AudioStorage {
  readonly client: S3Client;

  constructor(
    private readonly settings: S3StorageSettings,
    client?: S3Client,
  ) {
    this.client = client ?? createS3Client(settings);
  }

  get description(): string {
    return `s3://${this.settings.bucket}/${this.settings.prefix}`;
  }

  private objectKey(key: string): string {
    return `${this.settings.prefix}${assertSafeKey(key)}`;
  }

  async write(key: string, source: Readable): Promise<{ bytes: number }> {
    const objectKey = this.objectKey(key);
    let bytes = 0;
    let sourceError: unknown;
    source.once("error", (error) => {
      sourceError = error;
    });
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    source.on("error", (error) => counter.destroy(error));
    source.pipe(counter);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: objectKey, Body: counter },
      partSize: PART_BYTES,
      queueSize: PARTS_AT_ONCE,
      // A failed upload's parts are removed from the bucket (AbortMultipartUpload).
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      source.destroy();
      // The source's own error (413, 400) is what the caller must see, not the abort that followed.
      throw sourceError ?? asUnavailable(error);
    }
    if (sourceError) {
      // Cannot happen with lib-storage (it reads the body to the end), but never keep a cut file.
      await this.delete(key);
      throw sourceError;
    }
    return { bytes };
  }

  read(key: string, range?: ByteRange): Readable {
    const command = new GetObjectCommand({
      Bucket: this.settings.bucket,
      Key: this.objectKey(key),
      ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
    });
    const client = this.client;
    const abort = new AbortController();
    // Lazy: the request starts when the stream is first read, and stops when it is destroyed.
    async function* body(): AsyncGenerator<Buffer> {
      let stream: Readable | undefined;
      try {
        const response = await client.send(command, { abortSignal: abort.signal });
        stream = response.Body as Readable | undefined;
        if (!stream) return;
        for await (const chunk of stream) yield chunk as Buffer;
      } catch (error) {
        throw asUnavailable(error);
      } finally {
        stream?.destroy();
      }
    }
    const readable = Readable.from(body(), { objectMode: false });
    readable.once("close", () => abort.abort());
    return readable;
  }

  async size(key: string): Promise<number | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      );
      return head.ContentLength ?? null;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw asUnavailable(error);
    }
  }

  async delete(key: string): Promise<void> {
    await this.client
      .send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }))
      .catch((error: unknown) => {
        throw asUnavailable(error);
      });
  }

  async *list(): AsyncIterable<StoredFile> {
    let token: string | undefined;
    do {
      const page = await this.client
        .send(
          new ListObjectsV2Command({
            Bucket: this.settings.bucket,
            Prefix: this.settings.prefix,
            ...(token ? { ContinuationToken: token } : {}),
          }),
        )
        .catch((error: unknown) => {
          throw asUnavailable(error);
        });
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(this.settings.prefix.length) ?? "";
        // Only the server's own keys directly under the prefix (not a deeper "folder").
        if (isSafeKey(key)) yield { key, bytes: object.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async check(): Promise<void> {
    await this.client
      .send(new HeadBucketCommand({ Bucket: this.settings.bucket }))
      .catch((error: unknown) => {
        throw asUnavailable(error);
      });
  }

  /** Checks the bucket can be reached and written, naming the variable to fix when it cannot. */
  async checkWritable(): Promise<void> {
    const probe = `${this.settings.prefix}.probe-${newId()}`;
    try {
      await this.check();
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.settings.bucket,
          Key: probe,
          Body: new Uint8Array(0),
          ContentLength: 0,
        }),
      );
      await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: probe }));
    } catch (error) {
      throw new Error(
        `Audio bucket ${this.description} is not reachable or not writable: ${describeS3Error(error)}`,
      );
    }
  }

  /**
   * Aborts multipart uploads under the prefix started more than the grace period before `now` (a
   * process that died mid-upload). A service without ListMultipartUploads sweeps nothing; set a
   * lifecycle rule there (docs/self-hosting.md).
   */
  async sweepTemporaryFiles(now: Date): Promise<number> {
    const cutoff = now.getTime() - TEMPORARY_FILE_GRACE_MS;
    let removed = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      let page: ListMultipartUploadsCommandOutput;
      try {
        page = await this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.settings.bucket,
            Prefix: this.settings.prefix,
            ...(keyMarker ? { KeyMarker: keyMarker } : {}),
            ...(uploadIdMarker ? { UploadIdMarker: uploadIdMarker } : {}),
          }),
        );
      } catch (error) {
        if (error instanceof S3ServiceException && error.name === "NotImplemented") return removed;
        throw error;
      }
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId) continue;
        if ((upload.Initiated?.getTime() ?? 0) > cutoff) continue;
        await this.client.send(
          new AbortMultipartUploadCommand({
            Bucket: this.settings.bucket,
            Key: upload.Key,
            UploadId: upload.UploadId,
          }),
        );
        removed += 1;
      }
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
    return removed;
  }
}

/** An S3 failure in words an operator can act on, naming the variable that is probably wrong. */
export function describeS3Error(failure: unknown): string {
  const error =
    failure instanceof StorageUnavailableError && failure.cause ? failure.cause : failure;
  const name = (error as { name?: string }).name ?? "";
  const code = (error as { code?: string }).code ?? "";
  const status = (error as S3ServiceException).$metadata?.httpStatusCode;
  const message = (error as Error).message ?? String(error);
  if (name === "NoSuchBucket" || (name === "NotFound" && status === 404)) {
    return "the bucket does not exist. Check STORAGE_URL.";
  }
  if (
    ["InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "Forbidden"].includes(name) ||
    status === 403
  ) {
    return `access denied (${name || message}). Check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.`;
  }
  if (name === "AuthorizationHeaderMalformed" || name === "PermanentRedirect" || status === 301) {
    return `the bucket is in another region (${name}). Check S3_REGION.`;
  }
  if (
    ["ECONNREFUSED", "ENOTFOUND", "ECONNRESET", "ETIMEDOUT", "EAI_AGAIN"].includes(code) ||
    name === "TimeoutError"
  ) {
    return `cannot connect (${code || name}). Check S3_ENDPOINT.`;
  }
  return `${name || "error"}: ${message}. Check STORAGE_URL and the S3_* settings.`;
}
