import { MESSAGES } from "../../shared/messages";
import type { HealthResponse } from "../../shared/schemas";
import type { DatabaseHandle } from "../db/connection";
import type { JobsRepo, QueueStats } from "../jobs/jobs.repo";
import type { AudioStorage } from "../storage/audio-storage";

/** A check that has not answered by then counts as unreachable: a load balancer waits on it. */
export const HEALTH_CHECK_TIMEOUT_MS = 5_000;

export type HealthReport =
  | { healthy: true; body: HealthResponse }
  | {
      healthy: false;
      /** What did not answer, and why (for the log; never sent to the client). */
      unreachable: { part: "database" | "storage"; error: unknown }[];
    };

/**
 * Whether this instance can serve: the database answers, the audio storage answers, and how the
 * job queue stands. Every part is checked at once, each within HEALTH_CHECK_TIMEOUT_MS.
 */
export class HealthService {
  constructor(
    private readonly deps: {
      database: Pick<DatabaseHandle, "kind" | "ping">;
      storage: Pick<AudioStorage, "check">;
      jobs: Pick<JobsRepo, "queueStats">;
      timeoutMs?: number;
      /** Free bytes on the data disk (DATA_DIR: the SQLite file, spooled restores, local audio). */
      freeDiskBytes?: () => Promise<number>;
      /** Below this the report says `degraded` (an upload of the largest size may not fit). */
      minFreeDiskBytes?: number;
    },
  ) {}

  async check(now = new Date()): Promise<HealthReport> {
    const timeoutMs = this.deps.timeoutMs ?? HEALTH_CHECK_TIMEOUT_MS;
    const [database, storage] = await Promise.allSettled([
      // The queue is read from the database: its answer is the database's ping.
      withTimeout(this.deps.jobs.queueStats(now), timeoutMs, "the database"),
      withTimeout(this.deps.storage.check(), timeoutMs, "the storage"),
    ]);
    if (database.status === "rejected" || storage.status === "rejected") {
      const unreachable: Extract<HealthReport, { healthy: false }>["unreachable"] = [];
      if (database.status === "rejected") {
        unreachable.push({ part: "database", error: database.reason });
      }
      if (storage.status === "rejected") {
        unreachable.push({ part: "storage", error: storage.reason });
      }
      return { healthy: false, unreachable };
    }
    const diskFull = await this.diskNearlyFull();
    return {
      healthy: true,
      body: {
        status: diskFull ? "degraded" : "ok",
        ...(diskFull ? { reason: MESSAGES.dataDiskNearlyFull } : {}),
        database: this.deps.database.kind,
        storage: "ok",
        queue: summarize(database.value, now),
      },
    };
  }

  /** A disk that cannot be asked counts as fine: the probe must not fail on the probe itself. */
  private async diskNearlyFull(): Promise<boolean> {
    const { freeDiskBytes, minFreeDiskBytes = 0 } = this.deps;
    if (!freeDiskBytes) return false;
    const free = await freeDiskBytes().catch(() => Number.POSITIVE_INFINITY);
    return free < minFreeDiskBytes;
  }
}

function summarize(stats: QueueStats[], now: Date): HealthResponse["queue"] {
  let oldest: number | null = null;
  for (const row of stats) {
    const since = row.oldestWaitingSince?.getTime();
    if (since !== undefined && (oldest === null || since < oldest)) oldest = since;
  }
  return {
    waiting: stats.reduce((sum, row) => sum + row.waiting, 0),
    running: stats.reduce((sum, row) => sum + row.running, 0),
    scheduled: stats.reduce((sum, row) => sum + row.scheduled, 0),
    oldestWaitingSeconds: oldest === null ? null : Math.max(0, (now.getTime() - oldest) / 1000),
  };
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
