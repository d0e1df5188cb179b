import type { ResetTokensRepo } from "../auth/reset-tokens.repo";
import type { SessionsRepo } from "../auth/sessions.repo";
import { type Config, ConfigError } from "../config";
import type { JobsRepo } from "../jobs/jobs.repo";
import type { RateLimitCounters } from "../rate-limit-store";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * One kind of clean-up: deletes what is past its retention at `now` and returns how many items it
 * removed (an upkeep task that writes instead returns how many items it did). Must be idempotent:
 * several instances may run the same task at the same moment.
 */
export interface SweepTask {
  name: string;
  sweep(now: Date): Promise<number>;
}

/** The two log calls housekeeping makes; a Fastify (pino) logger fits. */
export interface HousekeepingLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Runs every sweep task, one after another (SQLite has one writer); a failing task is logged and
 * the others still run. The scheduler runs it at start and every HOUSEKEEPING_INTERVAL_MINUTES.
 * No lock between instances: each task's deletes are idempotent, so running twice is harmless.
 */
export class Housekeeping {
  constructor(
    private readonly tasks: readonly SweepTask[],
    private readonly logger: HousekeepingLogger,
  ) {}

  /** Runs every task once; returns each task's count, or null for a task that failed. */
  async runOnce(now = new Date()): Promise<Record<string, number | null>> {
    const removed: Record<string, number | null> = {};
    for (const task of this.tasks) {
      try {
        removed[task.name] = await task.sweep(now);
      } catch (error) {
        removed[task.name] = null;
        this.logger.error({ err: error, task: task.name }, "housekeeping task failed");
      }
    }
    this.logger.info({ removed }, "housekeeping done");
    return removed;
  }
}

export type HousekeepingConfig = Pick<
  Config,
  | "SESSION_IDLE_DAYS"
  | "FINISHED_JOB_RETENTION_DAYS"
  | "FAILED_JOB_RETENTION_DAYS"
  | "UNATTACHED_UPLOAD_RETENTION_HOURS"
  | "CLAIM_WINDOW_HOURS"
>;

/**
 * The product's sweeps, each done by the repository that owns the table, plus `extraTasks` (the
 * local storage's partial uploads; unattached uploads from the audio feature).
 */
export function createHousekeeping(deps: {
  sessions: SessionsRepo;
  resetTokens: ResetTokensRepo;
  jobs: JobsRepo;
  counters: RateLimitCounters;
  config: HousekeepingConfig;
  logger: HousekeepingLogger;
  extraTasks?: readonly SweepTask[];
}): Housekeeping {
  const { sessions, resetTokens, jobs, counters, config } = deps;
  if (config.UNATTACHED_UPLOAD_RETENTION_HOURS <= config.CLAIM_WINDOW_HOURS) {
    // An upload still inside its claim window (or being retried by the recorder) must survive.
    throw new ConfigError(
      `Invalid configuration:\n  UNATTACHED_UPLOAD_RETENTION_HOURS: must be more than CLAIM_WINDOW_HOURS (${config.CLAIM_WINDOW_HOURS})`,
    );
  }
  const before = (now: Date, ms: number) => new Date(now.getTime() - ms);
  const tasks: SweepTask[] = [
    {
      name: "expired sessions",
      sweep: (now) => sessions.deleteExpired(now, before(now, config.SESSION_IDLE_DAYS * DAY_MS)),
    },
    { name: "expired reset tokens", sweep: (now) => resetTokens.sweepExpired(now) },
    {
      name: "finished jobs",
      sweep: (now) =>
        jobs.deleteFinished({
          doneBefore: before(now, config.FINISHED_JOB_RETENTION_DAYS * DAY_MS),
          failedBefore: before(now, config.FAILED_JOB_RETENTION_DAYS * DAY_MS),
        }),
    },
    { name: "ended rate-limit windows", sweep: (now) => counters.deleteExpired(now) },
    ...(deps.extraTasks ?? []),
  ];
  return new Housekeeping(tasks, deps.logger);
}
