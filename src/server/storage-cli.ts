// `npm run storage -- copy <from> <to>`: moves an install's audio between a folder and a bucket.
import { loadDotEnv } from "./config";
import { copyAudio, storageFromArgument } from "./storage/storage-copy";

const print = (line: string) => process.stdout.write(`${line}\n`);

const USAGE = `Usage: npm run storage -- copy <from> <to>
  <from>, <to>: file: (DATA_DIR/audio), file:/some/folder, or s3://bucket/optional/prefix
  (S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE apply).
Copies every recording, verifies each by size and SHA-256, and can be run again to resume.`;

async function main(argv: string[]): Promise<number> {
  const [command, from, to] = argv;
  if (command !== "copy" || !from || !to || from === to) {
    console.error(USAGE);
    return 2;
  }
  loadDotEnv();
  const source = storageFromArgument(from, process.env);
  const target = storageFromArgument(to, process.env);
  await source.check();
  await target.checkWritable();
  print(`Copying audio from ${source.description} to ${target.description}`);
  let seen = 0;
  const report = await copyAudio(source, target, (key, outcome) => {
    seen += 1;
    if (outcome === "failed" || seen % 100 === 0) print(`${seen} files (${key}: ${outcome})`);
  });
  print(
    `Done: ${report.copied} copied (${report.bytesCopied} bytes), ${report.alreadyThere} already there, ${report.failed.length} failed.`,
  );
  for (const failure of report.failed) console.error(`  ${failure.key}: ${failure.reason}`);
  if (report.failed.length > 0) {
    console.error("Run the same command again to retry the failed files.");
    return 1;
  }
  print(`Every recording is in ${target.description}.`);
  if (to === "file:" || to.startsWith("s3://")) print(`Set STORAGE_URL=${to} and restart.`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Storage copy failed: ${(error as Error).message ?? String(error)}`);
    process.exit(1);
  },
);
