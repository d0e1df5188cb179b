import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { describeAi } from "./ai/ai-status";
import { buildApp } from "./app";
import { createServices } from "./compose";
import { ConfigError, loadConfig, loadDotEnv, openAddress, startupWarnings } from "./config";
import { openDatabase } from "./db/connection";
import { logSerializers } from "./http/log-serializers";
import { installShutdown } from "./shutdown";
import { createAudioStorage } from "./storage/storage-factory";

/**
 * Composition root: config -> storage -> database -> app -> shutdown handling -> app.listen ->
 * processing worker and the scheduler of background work.
 */
async function main(): Promise<void> {
  // Whatever this process creates (SQLite's temporary files, files of child processes) is for the
  // service's user only; the data folder's own files also get explicit modes where they are made.
  process.umask(0o077);
  loadDotEnv();
  const config = loadConfig();
  // Tokens in URLs (share and reset links) are redacted from every logged request.
  const logger = pino({ level: config.LOG_LEVEL, serializers: logSerializers });

  // A bucket that cannot be reached or written stops start-up with the variable to fix.
  const storage = createAudioStorage(config.storage);
  await storage.checkWritable();

  const database = await openDatabase(config.database, {
    onConnectionError: (error) => console.warn(`Database connection lost: ${error.message}`),
  }).catch((error: Error) => {
    const where = config.database.kind === "postgres" ? "DATABASE_URL" : "the SQLite file";
    throw new Error(`Could not open the database (${where}): ${error.message}`);
  });

  const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../client");
  const services = createServices({ config, database, storage, log: logger });
  const app = await buildApp({ config, services, clientDir, logger });
  const { warnings: aiWarnings, ...ai } = await describeAi(config);

  // A signal or an uncaught error closes in order; a second one, or a hang, ends the process.
  installShutdown({
    graceMs: config.SHUTDOWN_GRACE_MS,
    logger: app.log,
    close: async () => {
      await services.scheduler.stop();
      await app.close();
      await database.close();
    },
  });

  // The first line printed says where to open the app (before Fastify's own "listening" lines).
  app.server.once("listening", () => {
    process.stdout.write(`Open ${openAddress(config, os.networkInterfaces())}\n`);
  });
  await app.listen({ port: config.PORT, host: config.HOST });
  logger.info({ storage: storage.description }, "audio storage");
  app.log.info(ai, "AI provider");
  for (const warning of [...startupWarnings(config), ...aiWarnings]) app.log.warn(warning);
  // Processing starts (or resumes work interrupted by a restart) once the app serves requests.
  app.worker.start();
  // Housekeeping sweeps and reminder checks, at once and then on their intervals.
  services.scheduler.start();
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError || error instanceof Error ? error.message : error;
  console.error(`Start-up failed: ${String(message)}`);
  process.exit(1);
});
