/** Upper bounds (seconds) of the request duration histogram's buckets. */
export const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

interface Series {
  /** `method="GET",route="/api/memories/:id",status="200"`, escaped once. */
  labels: string;
  /** Requests per bucket (not cumulative); the last one is +Inf. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * Request counts and durations by method, route pattern and status, rendered as a Prometheus
 * counter (`http_requests_total`) and histogram (`http_request_duration_seconds`). Kept here
 * rather than in prom-client's Counter and Histogram because they hash and validate the label
 * object on every call (about 5 µs per request together, measured by bench/metrics-overhead.ts);
 * this is one Map lookup. Both names come from the same counts, so they always agree.
 */
export class RequestStats {
  /**
   * Route, then method, then status: nested rather than one joined key, so a request allocates
   * nothing (the route and method strings are the same objects each time, their hashes cached).
   */
  private readonly byRoute = new Map<string, Map<string, Map<number, Series>>>();
  /** Every series, in the order first seen. */
  private readonly series: Series[] = [];

  observe(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) {
      byMethod = new Map();
      this.byRoute.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (!byStatus) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let series = byStatus.get(status);
    if (!series) {
      series = {
        labels: `method="${escapeLabelValue(method)}",route="${escapeLabelValue(route)}",status="${status}"`,
        buckets: new Float64Array(REQUEST_BUCKETS.length + 1),
        sum: 0,
        count: 0,
      };
      byStatus.set(status, series);
      this.series.push(series);
    }
    let bucket = 0;
    // `le` is inclusive: a value equal to a bound belongs to that bound's bucket.
    while (bucket < REQUEST_BUCKETS.length && seconds > (REQUEST_BUCKETS[bucket] as number)) {
      bucket++;
    }
    series.buckets[bucket] = (series.buckets[bucket] ?? 0) + 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** The two metrics in the Prometheus text format (0.0.4), without a trailing newline. */
  render(): string {
    const counter = [
      "# HELP http_requests_total HTTP requests answered, by method, route pattern and status code",
      "# TYPE http_requests_total counter",
    ];
    const histogram = [
      "# HELP http_request_duration_seconds Time from receiving a request to sending its response, by method, route pattern and status code",
      "# TYPE http_request_duration_seconds histogram",
    ];
    for (const { labels, buckets, sum, count } of this.series) {
      counter.push(`http_requests_total{${labels}} ${count}`);
      let cumulative = 0;
      REQUEST_BUCKETS.forEach((bound, i) => {
        cumulative += buckets[i] ?? 0;
        histogram.push(
          `http_request_duration_seconds_bucket{le="${bound}",${labels}} ${cumulative}`,
        );
      });
      histogram.push(`http_request_duration_seconds_bucket{le="+Inf",${labels}} ${count}`);
      histogram.push(`http_request_duration_seconds_sum{${labels}} ${sum}`);
      histogram.push(`http_request_duration_seconds_count{${labels}} ${count}`);
    }
    return `${counter.join("\n")}\n\n${histogram.join("\n")}`;
  }
}

/** A label value as the text format wants it: backslash, double quote and newline escaped. */
function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}
