import type { Profiler } from "node:inspector";
import { markdownTable } from "./load";

/** Where a frame lives, short: the package or the path in this repository, and the line. */
function frameName(frame: Profiler.ProfileNode["callFrame"]): string {
  const where = frame.url
    .replace(/^.*node_modules\//, "")
    .replace(/^file:\/\/.*?\/(src|bench)\//, "$1/");
  return `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`;
}

/**
 * The functions with the most self time in a CPU profile (each function's own samples, callees
 * excluded), as a markdown table of share and name. Idle time counts in the total.
 */
export function topSelfTime(profile: Profiler.Profile, count: number): string {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parents.set(child, node.id);
  // Stopping the profiler from inside the process is sampled too: leave it out.
  const inInspector = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      if (nodes.get(at)?.callFrame.url === "node:inspector") return true;
    }
    return false;
  };
  const byName = new Map<string, number>();
  let total = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((id, index) => {
    const node = nodes.get(id);
    if (!node || inInspector(id)) return;
    const delta = deltas[index] ?? 0;
    total += delta;
    const name = frameName(node.callFrame);
    byName.set(name, (byName.get(name) ?? 0) + delta);
  });
  const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, count);
  return markdownTable(
    ["self %", "function"],
    top.map(([name, time]) => [((100 * time) / total).toFixed(1), name]),
  );
}
