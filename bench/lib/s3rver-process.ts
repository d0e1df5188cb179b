// An S3-compatible server (s3rver) in its own process, so a benchmark's memory figures are the
// app's alone, and a fault test can kill or pause (SIGSTOP) it. Prints one JSON line: the
// environment selecting a new bucket, plus S3RVER_DIRECTORY. Given S3RVER_DIRECTORY, S3RVER_PORT
// and S3RVER_BUCKET (a killed server's), it serves that bucket again. Ends on SIGTERM.
import { startTestS3 } from "../../src/server/test/s3-server";

const { S3RVER_DIRECTORY, S3RVER_PORT, S3RVER_BUCKET } = process.env;
const s3 = await startTestS3(
  S3RVER_DIRECTORY && S3RVER_PORT
    ? { directory: S3RVER_DIRECTORY, port: Number(S3RVER_PORT) }
    : null,
);
const settings = S3RVER_BUCKET
  ? {
      bucket: S3RVER_BUCKET,
      prefix: "audio/",
      endpoint: s3.endpoint,
      region: "us-east-1",
      forcePathStyle: true,
    }
  : await s3.createBucket("audio");
process.stdout.write(
  `${JSON.stringify({ ...s3.env(settings), S3RVER_DIRECTORY: s3.directory })}\n`,
);
process.on("SIGTERM", () => {
  // A restartable server's folder belongs to whoever started it.
  (S3RVER_DIRECTORY ? Promise.resolve() : s3.stop()).finally(() => process.exit(0));
});
