/**
 * Samples this process's resident memory every 20 ms from now (after a GC where `--expose-gc`
 * allows one) until `stop()`, which returns the peak growth over the baseline, in bytes.
 */
export function sampleRss(): { baseline: number; stop(): number } {
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const sampler = setInterval(sample, 20);
  return {
    baseline,
    stop() {
      clearInterval(sampler);
      sample();
      return peak - baseline;
    },
  };
}
