// An S3-compatible server (s3rver) in its own process, so a benchmark's memory figures are the
// app's alone. Prints one JSON line: the environment selecting a new bucket. Ends on SIGTERM.
import { startTestS3 } from "../../src/server/test/s3-server";

const s3 = await startTestS3();
const settings = await s3.createBucket("audio");
process.stdout.write(`${JSON.stringify(s3.env(settings))}\n`);
process.on("SIGTERM", () => {
  s3.stop().finally(() => process.exit(0));
});
