// s3rver ships no types; only what the test server uses.
declare module "s3rver" {
  import type { Server } from "node:http";

  interface S3rverOptions {
    port?: number;
    address?: string;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string }[];
  }
  interface KoaContext {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
    status: number;
    type: string;
    body: unknown;
  }
  type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void> | void;
  /** An object being stored: its request body (or, for a completed multipart upload, its parts). */
  export interface StoredObject {
    bucket: string;
    key: string;
    content: import("node:stream").Readable | Buffer;
    metadata: Record<string, string>;
  }
  export interface FilesystemStore {
    getResourcePath(bucket: string, key: string, resource: string): string;
    putMetadata(
      bucket: string,
      key: string,
      metadata: Record<string, string>,
      md5?: string,
    ): Promise<void>;
    putObject(object: StoredObject): Promise<{ size: number; md5: string }>;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    middleware: Middleware[];
    store: FilesystemStore;
    httpServer: Server;
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
