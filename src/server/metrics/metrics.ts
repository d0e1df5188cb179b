import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { PipelineStage } from "../../shared/schemas";
import type { QueueStats } from "../jobs/jobs.repo";
import type { JobObserver, JobOutcome } from "../jobs/worker";
import type { StageOutcome } from "../memories/memory-pipeline";

/** Upper bounds (seconds) of the request duration histogram's buckets. */
export const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Work that runs minutes, not milliseconds: AI calls, jobs, pipeline stages. */
const LONG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/** The route label of a request no route matched: never the raw URL (unbounded, and private). */
export const UNMATCHED_ROUTE = "unmatched";

export type AiOperation = "transcribe" | "summarize" | "score" | "tags";
export type AiOutcome = "ok" | "error" | "aborted";
export type StorageOperation =
  | "write"
  | "read"
  | "size"
  | "delete"
  | "list"
  | "check"
  | "checkWritable"
  | "sweep";

export interface MetricsOptions {
  /** The queue right now, read at each scrape. */
  queueStats: () => Promise<QueueStats[]>;
  /** Node's process metrics (CPU, memory, event loop lag, GC): only when someone can read them. */
  nodeDefaults: boolean;
}

/**
 * The operator's metrics of one app instance, in a registry of its own (never prom-client's
 * global one, so several apps in one process, as in the tests, keep separate counts). Features
 * report through small interfaces (JobObserver, the pipeline's onStage, the storage and AI
 * decorators) and never import prom-client.
 */
export class Metrics implements JobObserver {
  readonly registry = new Registry();

  private readonly requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status code",
    labelNames: ["method", "route", "status"] as const,
    registers: [this.registry],
  });
  private readonly requestDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from receiving a request to sending its response, by method, route pattern and status code",
    labelNames: ["method", "route", "status"] as const,
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });
  private readonly jobsFinished = new Counter({
    name: "jobs_finished_total",
    help: "Jobs taken by this instance's worker, by kind and outcome (done, retried, failed, abandoned, dropped)",
    labelNames: ["kind", "outcome"] as const,
    registers: [this.registry],
  });
  private readonly jobDuration = new Histogram({
    name: "job_duration_seconds",
    help: "Time a job ran on this instance's worker, by kind and outcome",
    labelNames: ["kind", "outcome"] as const,
    buckets: LONG_BUCKETS,
    registers: [this.registry],
  });
  private readonly stageDuration = new Histogram({
    name: "pipeline_stage_duration_seconds",
    help: "Time a memory's processing stage ran, by stage and outcome (done, failed, error, aborted)",
    labelNames: ["stage", "outcome"] as const,
    buckets: LONG_BUCKETS,
    registers: [this.registry],
  });
  private readonly stageFailures = new Counter({
    name: "pipeline_stage_failures_total",
    help: "Processing stages that failed, by stage and outcome (failed: shown on the memory; error: retried by the queue)",
    labelNames: ["stage", "outcome"] as const,
    registers: [this.registry],
  });
  private readonly aiDuration = new Histogram({
    name: "ai_call_duration_seconds",
    help: "AI provider calls, by provider, operation and outcome",
    labelNames: ["provider", "operation", "outcome"] as const,
    buckets: LONG_BUCKETS,
    registers: [this.registry],
  });
  private readonly aiErrors = new Counter({
    name: "ai_call_errors_total",
    help: "AI provider calls that failed (not counting calls the worker aborted), by provider and operation",
    labelNames: ["provider", "operation"] as const,
    registers: [this.registry],
  });
  private readonly storageErrors = new Counter({
    name: "storage_errors_total",
    help: "Audio storage operations that failed, by operation",
    labelNames: ["operation"] as const,
    registers: [this.registry],
  });

  /** One query per scrape feeds every queue gauge (their collects run concurrently). */
  private queueRead: Promise<QueueStats[] | null> | null = null;

  constructor(private readonly options: MetricsOptions) {
    const queueGauge = (
      name: string,
      help: string,
      value: (stats: QueueStats) => number | null,
    ) => {
      const gauge: Gauge<"kind"> = new Gauge({
        name,
        help,
        labelNames: ["kind"] as const,
        registers: [this.registry],
        collect: async () => {
          const stats = await this.readQueue();
          // Cleared first, so a kind whose jobs all finished shows no stale value.
          gauge.reset();
          for (const row of stats ?? []) {
            const measured = value(row);
            if (measured !== null) gauge.set({ kind: row.kind }, measured);
          }
        },
      });
    };
    queueGauge("job_queue_waiting", "Jobs queued and due, by kind", (s) => s.waiting);
    queueGauge(
      "job_queue_scheduled",
      "Jobs queued for later (a retry's backoff, a scheduled job), by kind",
      (s) => s.scheduled,
    );
    queueGauge("job_queue_running", "Jobs held by a worker, by kind", (s) => s.running);
    queueGauge(
      "job_queue_oldest_waiting_seconds",
      "How long the longest-waiting due job has waited, by kind (absent when none waits)",
      (s) => (s.oldestWaitingSince ? secondsSince(s.oldestWaitingSince) : null),
    );
    if (options.nodeDefaults) collectDefaultMetrics({ register: this.registry });
  }

  /** The Prometheus text exposition of the registry. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** Called on every response. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status };
    this.requests.inc(labels);
    this.requestDuration.observe(labels, seconds);
  }

  jobFinished(kind: string, outcome: JobOutcome, seconds: number): void {
    this.jobsFinished.inc({ kind, outcome });
    this.jobDuration.observe({ kind, outcome }, seconds);
  }

  stageFinished(stage: PipelineStage, outcome: StageOutcome, seconds: number): void {
    this.stageDuration.observe({ stage, outcome }, seconds);
    if (outcome === "failed" || outcome === "error") this.stageFailures.inc({ stage, outcome });
  }

  aiCall(provider: string, operation: AiOperation, outcome: AiOutcome, seconds: number): void {
    this.aiDuration.observe({ provider, operation, outcome }, seconds);
    if (outcome === "error") this.aiErrors.inc({ provider, operation });
  }

  storageError(operation: StorageOperation): void {
    this.storageErrors.inc({ operation });
  }

  /**
   * The queue for the scrape in progress. A database that cannot answer leaves the queue gauges
   * empty rather than failing the whole scrape (the request and Node metrics still matter then).
   */
  private readQueue(): Promise<QueueStats[] | null> {
    if (!this.queueRead) {
      this.queueRead = this.options
        .queueStats()
        .catch(() => null)
        .finally(() => {
          this.queueRead = null;
        });
    }
    return this.queueRead;
  }
}

function secondsSince(date: Date): number {
  return Math.max(0, (Date.now() - date.getTime()) / 1000);
}
