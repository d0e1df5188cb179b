// `npm run admin -- <command>`: the operator's tools on this instance (`runAdmin` lists them).
import { loadDotEnv } from "../config";
import { runAdmin } from "./admin";

// What the tools write (a backup's database and files) is for the service's user only.
process.umask(0o077);
loadDotEnv();
runAdmin(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`Failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
