import { describe, expect, it } from "vitest";
import { REQUEST_BUCKETS, RequestStats } from "./request-stats";

describe("RequestStats", () => {
  it("renders a counter and a cumulative histogram from the same counts", () => {
    const stats = new RequestStats();
    stats.observe("GET", "/api/memories/:id", 200, 0.004);
    stats.observe("GET", "/api/memories/:id", 200, 0.01); // on a bound: counted in that bucket
    stats.observe("GET", "/api/memories/:id", 200, 45); // beyond the last bound: +Inf only
    stats.observe("POST", "/api/upload", 413, 0.3);
    const lines = stats.render().split("\n");
    const labels = 'method="GET",route="/api/memories/:id",status="200"';

    expect(lines).toContain("# TYPE http_requests_total counter");
    expect(lines).toContain("# TYPE http_request_duration_seconds histogram");
    expect(lines).toContain(`http_requests_total{${labels}} 3`);
    expect(lines).toContain(
      'http_requests_total{method="POST",route="/api/upload",status="413"} 1',
    );
    expect(lines).toContain(`http_request_duration_seconds_bucket{le="0.005",${labels}} 1`);
    expect(lines).toContain(`http_request_duration_seconds_bucket{le="0.01",${labels}} 2`);
    expect(lines).toContain(`http_request_duration_seconds_bucket{le="30",${labels}} 2`);
    expect(lines).toContain(`http_request_duration_seconds_bucket{le="+Inf",${labels}} 3`);
    expect(lines).toContain(`http_request_duration_seconds_sum{${labels}} 45.014`);
    expect(lines).toContain(`http_request_duration_seconds_count{${labels}} 3`);
    // One bucket line per bound and +Inf, per series.
    const bucketLines = lines.filter((l) => l.startsWith("http_request_duration_seconds_bucket"));
    expect(bucketLines).toHaveLength(2 * (REQUEST_BUCKETS.length + 1));
  });

  it("escapes label values as the text format requires", () => {
    const stats = new RequestStats();
    stats.observe("GET", 'a"b\\c\nd', 404, 0.001);
    expect(stats.render()).toContain('route="a\\"b\\\\c\\nd"');
  });
});
