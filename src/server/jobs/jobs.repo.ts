import type { Kysely, Selectable, Transaction, Updateable } from "kysely";
import type { DatabaseKind } from "../db/connection";
import type { Database, JobsTable } from "../db/schema";
import { newId } from "../ids";
import { type JobKind, validateJobTarget } from "./job-kinds";

export type Job = Selectable<JobsTable>;

/** How much work of one kind is in the queue right now (health and metrics). */
export interface QueueStats {
  kind: string;
  /** Queued and due: a free worker would take them now. */
  waiting: number;
  /** Queued for later (a retry's backoff, a scheduled job). */
  scheduled: number;
  /** Held by a worker (or whose worker's lease lapsed, until another takes it). */
  running: number;
  /** When the longest-waiting due job became due; null when none waits. */
  oldestWaitingSince: Date | null;
}

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The durable queue on the `jobs` table. Claiming is one atomic statement on either database
 * (PostgreSQL: FOR UPDATE SKIP LOCKED), and a claim is a lease: a job whose worker died is taken
 * again once `locked_until` passes.
 */
export class JobsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: DatabaseKind,
  ) {}

  /**
   * Queues a job unless one for the same target exists, whatever its state: for work that must
   * happen once per target (a weekly mail's target names its week), however many instances ask.
   * True when this call queued it.
   */
  async enqueueOnce(job: { kind: JobKind; targetId: string }): Promise<boolean> {
    const targetId = validateJobTarget(job.kind, job.targetId);
    const now = new Date().toISOString();
    const result = await this.db
      .insertInto("jobs")
      .values({
        id: newId(),
        kind: job.kind,
        target_id: targetId,
        status: "queued",
        attempts: 0,
        run_after: now,
        locked_by: null,
        locked_until: null,
        last_error: null,
        updated_at: now,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(["kind", "target_id"]).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Queues a job (or re-queues a finished or failed one for the same target). Pass a transaction
   * to queue it together with the row it works on. With `join`, a job of the target still waiting
   * keeps its earlier `run_after` (what happens meanwhile joins it, as news of memories saved
   * together does) instead of being put off.
   */
  async enqueue(
    job: { kind: JobKind; targetId: string; runAfter?: Date; join?: boolean },
    executor: Executor = this.db,
  ): Promise<void> {
    const targetId = validateJobTarget(job.kind, job.targetId);
    const now = new Date().toISOString();
    const queued = {
      status: "queued",
      attempts: 0,
      run_after: (job.runAfter ?? new Date()).toISOString(),
      locked_by: null,
      locked_until: null,
      last_error: null,
      updated_at: now,
    };
    await executor
      .insertInto("jobs")
      .values({ id: newId(), kind: job.kind, target_id: targetId, ...queued, created_at: now })
      .onConflict((oc) =>
        oc.columns(["kind", "target_id"]).doUpdateSet((eb) => ({
          ...queued,
          run_after: job.join
            ? eb
                .case()
                .when(
                  eb.and([
                    eb("jobs.status", "=", "queued"),
                    eb("jobs.run_after", "<", eb.ref("excluded.run_after")),
                  ]),
                )
                .then(eb.ref("jobs.run_after"))
                .else(eb.ref("excluded.run_after"))
                .end()
            : queued.run_after,
        })),
      )
      .execute();
  }

  /**
   * Takes the next due job (queued and due, or running with an expired lease) for `workerId`,
   * atomically: two workers never get the same job while its lease lasts.
   */
  async claim(workerId: string, leaseMs: number, now = new Date()): Promise<Job | null> {
    const nowIso = now.toISOString();
    const until = new Date(now.getTime() + leaseMs).toISOString();
    const row = await this.db
      .updateTable("jobs")
      .set((eb) => ({
        status: "running",
        locked_by: workerId,
        locked_until: until,
        attempts: eb("attempts", "+", 1),
        updated_at: nowIso,
      }))
      .where("id", "=", (eb) => {
        const next = eb
          .selectFrom("jobs")
          .select("id")
          .where((w) =>
            w.or([
              w.and([w("status", "=", "queued"), w("run_after", "<=", nowIso)]),
              w.and([w("status", "=", "running"), w("locked_until", "<", nowIso)]),
            ]),
          )
          .orderBy("run_after")
          .limit(1);
        // In SQLite one UPDATE is atomic by itself (a single writer); PostgreSQL needs the row lock.
        return this.kind === "postgres" ? next.forUpdate().skipLocked() : next;
      })
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }

  /** Extends a lease while work goes on; false when the job is no longer this worker's. */
  async extendLease(id: string, workerId: string, leaseMs: number): Promise<boolean> {
    return this.updateOwnRunning(id, workerId, {
      locked_until: new Date(Date.now() + leaseMs).toISOString(),
      updated_at: new Date().toISOString(),
    });
  }

  /**
   * Marks the job done, if it is still this worker's; with `again`, done for now and queued for
   * then, its attempts counted afresh.
   */
  async complete(id: string, workerId: string, again?: Date): Promise<boolean> {
    return this.updateOwnRunning(id, workerId, {
      ...(again
        ? { status: "queued", run_after: again.toISOString(), attempts: 0 }
        : { status: "done" }),
      locked_by: null,
      locked_until: null,
      last_error: null,
      updated_at: new Date().toISOString(),
    });
  }

  /**
   * Records a failure: queued again at `retryAt` (backoff), or failed for good when null.
   * Only the worker holding the job may do this.
   */
  async fail(id: string, workerId: string, error: string, retryAt: Date | null): Promise<boolean> {
    const now = new Date().toISOString();
    return this.updateOwnRunning(id, workerId, {
      status: retryAt ? "queued" : "failed",
      run_after: retryAt ? retryAt.toISOString() : now,
      locked_by: null,
      locked_until: null,
      last_error: error.slice(0, 2000),
      updated_at: now,
    });
  }

  /** Updates the job only while it is running and held by `workerId`; true when it was. */
  private async updateOwnRunning(
    id: string,
    workerId: string,
    changes: Updateable<JobsTable>,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable("jobs")
      .set(changes)
      .where("id", "=", id)
      .where("locked_by", "=", workerId)
      .where("status", "=", "running")
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Housekeeping: deletes jobs that finished (done) at or before `doneBefore` and jobs that failed
   * for good at or before `failedBefore`; queued and running jobs are never touched. Returns how
   * many. A target queued again later simply gets a new row.
   */
  async deleteFinished(cutoffs: { doneBefore: Date; failedBefore: Date }): Promise<number> {
    const result = await this.db
      .deleteFrom("jobs")
      .where((eb) =>
        eb.or([
          eb.and([
            eb("status", "=", "done"),
            eb("updated_at", "<=", cutoffs.doneBefore.toISOString()),
          ]),
          eb.and([
            eb("status", "=", "failed"),
            eb("updated_at", "<=", cutoffs.failedBefore.toISOString()),
          ]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * The queue per kind, in one statement over the (status, run_after) index; finished jobs are
   * not read. Kinds with nothing queued or running are absent.
   */
  async queueStats(now = new Date()): Promise<QueueStats[]> {
    const nowIso = now.toISOString();
    const rows = await this.db
      .selectFrom("jobs")
      .select((eb) => {
        const due = eb.and([eb("status", "=", "queued"), eb("run_after", "<=", nowIso)]);
        const later = eb.and([eb("status", "=", "queued"), eb("run_after", ">", nowIso)]);
        const count = (condition: typeof due) =>
          eb.fn.sum<number | string>(eb.case().when(condition).then(1).else(0).end());
        return [
          "kind",
          count(due).as("waiting"),
          count(later).as("scheduled"),
          count(eb("status", "=", "running")).as("running"),
          eb.fn
            .min<string | null>(eb.case().when(due).then(eb.ref("run_after")).end())
            .as("oldest_waiting"),
        ];
      })
      .where("status", "in", ["queued", "running"])
      .groupBy("kind")
      .orderBy("kind")
      .execute();
    return rows.map((row) => ({
      kind: row.kind,
      waiting: Number(row.waiting),
      scheduled: Number(row.scheduled),
      running: Number(row.running),
      oldestWaitingSince: row.oldest_waiting ? new Date(row.oldest_waiting) : null,
    }));
  }

  async find(kind: string, targetId: string): Promise<Job | null> {
    const row = await this.db
      .selectFrom("jobs")
      .selectAll()
      .where("kind", "=", kind)
      .where("target_id", "=", targetId)
      .executeTakeFirst();
    return row ?? null;
  }
}
