import closeWithGrace from "close-with-grace";

/** The two log calls shutdown makes; a Fastify (pino) logger fits. */
export interface ShutdownLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ShutdownOptions {
  /** Stops the work and closes what is open (housekeeping, the app, the database), in order. */
  close(): Promise<void>;
  /** How long `close` may take before the process ends anyway. */
  graceMs: number;
  logger: ShutdownLogger;
}

/**
 * Ends the process cleanly on a termination signal (SIGTERM, SIGINT and the others), an uncaught
 * exception or an unhandled rejection: the cause is logged and `close` runs once. A second signal or
 * error, or `close` outlasting `graceMs`, ends the process at once. Exit code 0 after a signal whose
 * close finished, 1 otherwise. Built on close-with-grace, which owns the process listeners.
 */
export function installShutdown(options: ShutdownOptions): { uninstall(): void } {
  const { logger } = options;
  const { uninstall } = closeWithGrace(
    {
      delay: options.graceMs,
      // Only called with the error `close` threw: every other case has its own callback below.
      logger: { error: (err: unknown) => logger.error({ err }, "shutdown failed") },
      onSecondSignal: (signal) =>
        logger.error({ signal }, "second signal while shutting down: exiting now"),
      onSecondError: (err) =>
        logger.error({ err }, "another uncaught error while shutting down: exiting now"),
      onTimeout: (graceMs) =>
        logger.error({ graceMs }, "shutdown outlasted its grace period: exiting now"),
    },
    async ({ signal, err }) => {
      if (err) logger.error({ err }, "uncaught error: shutting down");
      else logger.info({ signal }, "shutting down");
      await options.close();
    },
  );
  return { uninstall };
}
