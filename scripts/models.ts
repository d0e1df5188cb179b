// `npm run models -- download base|tiny`: fetches a Whisper model from the whisper.cpp model host
// into DATA_DIR/models, checked against the SHA-256 pinned in src/server/ai/whisper/whisper-models.ts.
// `npm run models -- list` shows which models are there and which one WHISPER_MODEL selects.
import {
  DEFAULT_WHISPER_MODEL,
  downloadModel,
  fileExists,
  inspectModel,
  isModelName,
  modelPath,
  WHISPER_MODELS,
} from "../src/server/ai/whisper/whisper-models";
import { loadConfig, loadDotEnv } from "../src/server/config";

const say = (line: string) => process.stdout.write(`${line}\n`);
const complain = (line: string) => process.stderr.write(`${line}\n`);

const USAGE = `Usage: npm run models -- download <${Object.keys(WHISPER_MODELS).join("|")}>
       npm run models -- list`;

async function main(): Promise<number> {
  loadDotEnv();
  const config = loadConfig();
  const [command, name = DEFAULT_WHISPER_MODEL] = process.argv.slice(2);
  if (command === "list") {
    for (const [model, entry] of Object.entries(WHISPER_MODELS)) {
      const file = modelPath(model, config.dataDir);
      const present = await fileExists(file);
      const selected = config.WHISPER_MODEL === model ? " (selected by WHISPER_MODEL)" : "";
      say(
        `${model}: ${present ? file : "not downloaded"}, ${(entry.bytes / 1e6).toFixed(0)} MB${selected}`,
      );
    }
    return 0;
  }
  if (command !== "download" || !isModelName(name)) {
    complain(USAGE);
    return 2;
  }
  const entry = WHISPER_MODELS[name];
  say(
    `Downloading ${entry.file} (${(entry.bytes / 1e6).toFixed(0)} MB) from ${config.WHISPER_MODEL_HOST}`,
  );
  let shown = -1;
  const file = await downloadModel({
    name,
    dataDir: config.dataDir,
    host: config.WHISPER_MODEL_HOST,
    onProgress: (received, total) => {
      const percent = Math.floor((received / total) * 10) * 10;
      if (percent !== shown && process.stdout.isTTY) {
        shown = percent;
        process.stdout.write(`  ${percent}%\r`);
      }
    },
  });
  await inspectModel(file);
  say(`Saved and verified (SHA-256 ${entry.sha256}): ${file}`);
  if (config.WHISPER_MODEL !== name) {
    say(`Select it with WHISPER_MODEL=${name} (now ${config.WHISPER_MODEL}), then restart.`);
  } else {
    say("A running server uses it from the next recording.");
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    complain(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
