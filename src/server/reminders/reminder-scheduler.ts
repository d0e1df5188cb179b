import { Periodic } from "../periodic";

/** The log call the scheduler makes; a Fastify (pino) logger fits. */
export interface SchedulerLogger {
  error(obj: object, msg: string): void;
}

/**
 * Checks for due reminders at start (so an hour that passed while the server was down is caught
 * up) and every `intervalMs` (0 turns it off). Holds no state of its own: what was sent lives in
 * the database (docs/adr/0020), so a restart neither loses nor repeats a reminder. `stop` waits for
 * a check in progress, so a mail being sent is finished and marked sent.
 */
export function reminderScheduler(
  sendDue: (now: Date) => Promise<number>,
  intervalMs: number,
  logger: SchedulerLogger,
): Periodic {
  return new Periodic(
    () =>
      sendDue(new Date()).catch((error: unknown) =>
        logger.error({ err: error }, "reminder check failed"),
      ),
    intervalMs,
  );
}
