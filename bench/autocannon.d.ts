// autocannon ships no types; only the part the benchmarks use.
declare module "autocannon" {
  /** autocannon's summary: p2_5, p50, p97_5, p99 and others, but no p95. */
  export interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    max: number;
  }
  export interface Result {
    latency: Histogram;
    requests: Histogram & { total: number };
    errors: number;
    non2xx: number;
    timeouts: number;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
  }
  /** Without a callback, autocannon returns its event emitter, which is also a promise. */
  export interface Instance extends PromiseLike<Result> {
    /** Every response; responseTime in milliseconds (fractional, from process.hrtime). */
    on(
      event: "response",
      listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void,
    ): Instance;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
