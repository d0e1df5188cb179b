import path from "node:path";
import { fileURLToPath } from "node:url";
import { describeAi } from "./ai/ai-status";
import { buildApp } from "./app";
import { ConfigError, loadConfig, loadDotEnv } from "./config";
import { openDatabase } from "./db/connection";
import { LocalAudioStorage } from "./storage/local-storage";

/** Composition root: config -> database -> storage -> app.listen -> processing worker. */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const logger = { level: config.LOG_LEVEL };

  const storage = new LocalAudioStorage(config.audioDir);
  await storage.checkWritable();

  const target =
    config.database.kind === "sqlite"
      ? config.database
      : { kind: "postgres" as const, url: config.database.url };
  const database = await openDatabase(target, {
    onConnectionError: (error) => console.warn(`Database connection lost: ${error.message}`),
  }).catch((error: Error) => {
    const where = config.database.kind === "postgres" ? "DATABASE_URL" : "the SQLite file";
    throw new Error(`Could not open the database (${where}): ${error.message}`);
  });

  const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../client");
  const app = await buildApp({ config, database, storage, clientDir, logger });
  const { warnings, ...ai } = await describeAi(config);
  app.log.info(ai, "AI provider");
  for (const warning of warnings) app.log.warn(warning);

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, "shutting down");
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: config.PORT, host: config.HOST });
  // Processing starts (or resumes work interrupted by a restart) once the app serves requests.
  app.worker.start();
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError || error instanceof Error ? error.message : error;
  console.error(`Start-up failed: ${String(message)}`);
  process.exit(1);
});
