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
  export default class S3rver {
    constructor(options: S3rverOptions);
    middleware: Middleware[];
    httpServer: Server;
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
