/**
 * What the logged-in home page's main thread does (20 memories, as bench/lighthouse.ts seeds; the
 * first page shows 15): a Chromium trace with a CPU profile, with the CPU slowed down
 * HOME_TRACE_CPU times (default 4, Lighthouse's mobile preset; 1 shows what Lighthouse itself
 * records, as it slows down in its model afterwards). Prints, per page load, the first paint, the
 * CPU time after it, the self time after it by script, and each task of at least HOME_TRACE_MIN_MS
 * (default 30) of CPU time: its start, wall and CPU time, what ran in it (script, style, layout,
 * paint) and its functions with the most self time. Tasks are picked by CPU (thread) time: on a
 * busy machine a task's wall time also holds the time it waited for a core, which is what made
 * Lighthouse's blocking time vary from run to run (ADR 0032).
 *
 * Run after `npm run build`. HOME_TRACE_ENTRY=path/main.js traces another build (e.g. a copy of
 * dist/ built with `vite build --minify false`, whose function and component names are readable);
 * HOME_TRACE_RUNS=n loads the page n times; HOME_TRACE_COMMITS=1 lists React's commits and the
 * components that rendered in each; HOME_TRACE_INVALIDATIONS=1 records why style and layout were
 * invalidated; HOME_TRACE_OUT=file keeps the last trace (for Chromium's Performance panel);
 * HOME_TRACE_PAGE=memory traces the last seeded memory's page as a visitor instead (the page
 * bench/lighthouse.ts measures as "memory page, visitor").
 */
import { writeFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { ApiClient } from "../e2e/api-client";
import { seedMemory } from "../e2e/fixtures";
import { addClientCookies, CHROMIUM_ARGS, CHROMIUM_PATH, startServer } from "../e2e/harness";

const CPU = Number(process.env.HOME_TRACE_CPU ?? 4);
const MIN_MS = Number(process.env.HOME_TRACE_MIN_MS ?? 30);
const RUNS = Number(process.env.HOME_TRACE_RUNS ?? 1);
const ENTRY = process.env.HOME_TRACE_ENTRY ?? "dist/server/main.js";
const MEMORY_PAGE = process.env.HOME_TRACE_PAGE === "memory";
const print = (line: string) => process.stdout.write(`${line}\n`);

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time: what the task cost, whatever else the machine was doing. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown> & { data?: Record<string, unknown> };
}
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  parent?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const server = await startServer({}, undefined, ENTRY);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  const owner = new ApiClient(server.url);
  await owner.register("trace_user");
  let lastMemory: { id: string } | undefined;
  for (let i = 0; i < 20; i++) {
    lastMemory = await seedMemory(owner, {
      title: `Our day at the beach ${i + 1}`,
      transcript: "We built a sandcastle together and watched the sun go down.",
      summary: "Our day at the beach. You built a sandcastle, my love.",
      tags: ["beach", "sandcastle"],
      recordedAt: new Date(Date.UTC(2026, 5, 1 + i)).toISOString(),
    });
  }
  for (let run = 1; run <= RUNS; run++) {
    // Lighthouse's mobile screen, in a fresh context (no cache, no service worker).
    const context = await browser.newContext({
      viewport: { width: 412, height: 823 },
      deviceScaleFactor: 1.75,
      isMobile: true,
    });
    if (!MEMORY_PAGE) await addClientCookies(context, server.url, owner.cookieHeader());
    // React DOM reports each commit to a DevTools hook, when there is one: a stand-in that lists,
    // per commit, the components that rendered in it (readable names need an unminified build).
    // (A string: tsx would wrap named functions in a helper the page does not have.)
    await context.addInitScript(`(() => {
      const commits = [];
      window.__commits = commits;
      const name = (fiber) => {
        const type = fiber.type;
        if (!type || typeof type === "string") return null;
        return type.displayName || type.name || null;
      };
      // A fiber rendered in a commit if it has PerformedWork (1) and is not the very object of the
      // root's previous commit (a subtree React skipped keeps its old fibers and their old flags).
      const seen = new WeakMap();
      const walk = (fiber, rendered, before, now) => {
        for (let f = fiber; f; f = f.sibling) {
          now.add(f);
          const n = name(f);
          if (n && f.flags & 1 && !before.has(f)) rendered.push(n);
          walk(f.child, rendered, before, now);
        }
      };
      window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
        supportsFiber: true,
        renderers: new Map(),
        inject: () => 1,
        checkDCE: () => {},
        onScheduleFiberRoot: () => {},
        onCommitFiberUnmount: () => {},
        onPostCommitFiberRoot: () => {},
        onCommitFiberRoot: (_id, root) => {
          const rendered = [];
          const now = new WeakSet();
          walk(root.current.child, rendered, seen.get(root) ?? new WeakSet(), now);
          seen.set(root, now);
          commits.push({ at: Math.round(performance.now()), rendered });
        },
      };
    })()`);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU });
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    const events: TraceEvent[] = [];
    cdp.on("Tracing.dataCollected", ({ value }) =>
      events.push(...(value as unknown as TraceEvent[])),
    );
    const done = new Promise<void>((resolve) =>
      cdp.once("Tracing.tracingComplete", () => resolve()),
    );
    await cdp.send("Tracing.start", {
      categories: [
        "devtools.timeline",
        "disabled-by-default-devtools.timeline",
        "toplevel",
        "loading",
        "blink.user_timing",
        "v8.execute",
        ...(process.env.HOME_TRACE_INVALIDATIONS
          ? ["disabled-by-default-devtools.timeline.invalidationTracking"]
          : []),
      ].join(","),
      transferMode: "ReportEvents",
    });
    await cdp.send("Profiler.start");
    // No locator polls the page while it is traced (they are tasks of their own): the list is
    // looked for once the trace has ended.
    const route = MEMORY_PAGE ? `/memory/${lastMemory?.id}` : "/";
    await page.goto(`${server.url}${route}`, { waitUntil: "load" });
    await page.waitForTimeout(Number(process.env.HOME_TRACE_WAIT_MS ?? 4000));
    const { profile } = (await cdp.send("Profiler.stop")) as { profile: Profile };
    await cdp.send("Tracing.end");
    await done;
    if (process.env.HOME_TRACE_OUT) {
      writeFileSync(process.env.HOME_TRACE_OUT, JSON.stringify({ traceEvents: events }));
    }
    if (process.env.HOME_TRACE_COMMITS) {
      const commits = (await page.evaluate(
        () => (window as unknown as { __commits: unknown }).__commits,
      )) as Array<{ at: number; rendered: string[] }>;
      for (const commit of commits) {
        const counts = new Map<string, number>();
        for (const n of commit.rendered) counts.set(n, (counts.get(n) ?? 0) + 1);
        print(
          `commit @${commit.at} ms: ${commit.rendered.length} renders: ${[...counts]
            .map(([n, c]) => (c > 1 ? `${n}x${c}` : n))
            .join(" ")}`,
        );
      }
    }
    // What the page shows once loaded: the memory's heading, or the list's first page.
    const [shown, expected] = MEMORY_PAGE
      ? [await page.getByRole("heading", { name: "Our day at the beach 20" }).count(), 1]
      : [await page.getByRole("list", { name: "Memories" }).getByRole("listitem").count(), 15];
    if (shown !== expected) {
      print(`(run ${run}: ${shown} of ${expected} elements shown when the trace ended)`);
    }
    report(run, events, profile);
    await context.close();
  }
} finally {
  await browser.close();
  await server.cleanup();
}

function report(run: number, events: TraceEvent[], profile: Profile) {
  // The renderer main thread that ran the app's main script (not about:blank's).
  const mainScript =
    events.find(
      (e) =>
        String(e.args?.data?.url ?? "").includes("/assets/index-") && e.name === "EvaluateScript",
    ) ?? events.find((e) => String(e.args?.data?.url ?? "").includes("/assets/index-"));
  if (!mainScript) throw new Error("the app's main script is not in the trace");
  const { pid, tid } = mainScript;
  const onMain = events.filter((e) => e.pid === pid && e.tid === tid);
  const navStarts = onMain
    .filter(
      (e) =>
        e.name === "navigationStart" &&
        String(e.args?.data?.documentLoaderURL ?? "").startsWith("http"),
    )
    .map((e) => e.ts);
  const nav = navStarts[navStarts.length - 1] ?? 0;
  const fcp = onMain.find((e) => e.name === "firstContentfulPaint" && e.ts >= nav);
  const ms = (us: number) => Math.round(us / 1000);
  const tasks = onMain.filter((e) => e.name === "RunTask" && e.ph === "X" && e.ts >= nav);
  // By CPU time: on a busy machine a task's wall time also holds the time it waited for a core.
  const long = tasks.filter((t) => (t.tdur ?? t.dur ?? 0) / 1000 >= MIN_MS);
  // Lighthouse's blocking time: each task after the first paint, at a fourfold slowdown, counts
  // what it lasts beyond 50 ms.
  const fcpTs = fcp?.ts ?? nav;
  const blocking = tasks
    .filter((t) => t.ts >= fcpTs)
    .reduce((sum, t) => sum + Math.max(0, ((t.dur ?? 0) / 1000) * (4 / CPU) - 50), 0);
  print(
    `\n=== run ${run}: CPU x${CPU}, FCP ${fcp ? ms(fcp.ts - nav) : "?"} ms, ${tasks.length} tasks, ` +
      `${long.length} of >= ${MIN_MS} ms CPU, blocking time (x4) ${Math.round(blocking)} ms, ` +
      `CPU after FCP ${Math.round(tasks.filter((t) => t.ts >= fcpTs).reduce((sum, t) => sum + (t.tdur ?? 0), 0) / 1000)} ms`,
  );

  // Self time per function from the CPU profile, by sample time.
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  // Chromium lists each node's children; the walks below go up to the parents.
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      const c = nodes.get(child);
      if (c) c.parent = node.id;
    }
  }
  const sampleTimes: number[] = [];
  let t = profile.startTime;
  for (const delta of profile.timeDeltas) {
    t += delta;
    sampleTimes.push(t);
  }
  const kinds = [
    "EvaluateScript",
    "v8.compile",
    "v8.compileModule",
    "v8.evaluateModule",
    "FunctionCall",
    "TimerFire",
    "FireAnimationFrame",
    "ParseHTML",
    "UpdateLayoutTree",
    "Layout",
    "Paint",
    "PrePaint",
    "Layerize",
    "HitTest",
    "EventDispatch",
    "V8.GCScavenger",
    "MajorGC",
    "MinorGC",
    "ParseAuthorStyleSheet",
    "XHRReadyStateChange",
    "ResourceReceivedData",
  ];
  // Where the CPU time after the first paint went: the profile's self time by script.
  const byFile = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    if ((sampleTimes[i] ?? 0) < fcpTs) continue;
    const node = nodes.get(profile.samples[i] ?? -1);
    if (!node || node.callFrame.functionName === "(idle)") continue;
    const file =
      node.callFrame.url
        .split("/")
        .pop()
        ?.replace(/-[\w-]{8}\.js$/, "") ||
      node.callFrame.functionName ||
      "(native)";
    byFile.set(file, (byFile.get(file) ?? 0) + (profile.timeDeltas[i + 1] ?? 100));
  }
  // HOME_TRACE_FN=name,name: the time spent in (and under) functions of those names, whole load.
  for (const fn of process.env.HOME_TRACE_FN?.split(",") ?? []) {
    let inclusive = 0;
    let calls = 0;
    for (let i = 0; i < profile.samples.length; i++) {
      for (let n = nodes.get(profile.samples[i] ?? -1); n; n = nodes.get(n.parent ?? -1)) {
        if (n.callFrame.functionName === fn) {
          inclusive += profile.timeDeltas[i + 1] ?? 100;
          calls++;
          break;
        }
      }
    }
    print(`  in ${fn}: ${(inclusive / 1000).toFixed(1)} ms (${calls} samples)`);
  }
  // HOME_TRACE_UNDER=name: which of the app's functions (and which native calls) take the time
  // spent under a function of that name.
  const under = process.env.HOME_TRACE_UNDER;
  if (under) {
    const byFn = new Map<string, number>();
    for (let i = 0; i < profile.samples.length; i++) {
      const leaf = nodes.get(profile.samples[i] ?? -1);
      const stack: ProfileNode[] = [];
      for (let n = leaf; n; n = nodes.get(n.parent ?? -1)) stack.push(n);
      const at = stack.findIndex((n) => n.callFrame.functionName === under);
      if (at < 0) continue;
      // The innermost frame of the app's own chunks (not React's), else the leaf.
      const own = stack
        .slice(0, at)
        .find((n) => n.callFrame.url && !/\/assets\/client-/.test(n.callFrame.url));
      const key = own ? frameName(own) : leaf ? frameName(leaf) : "?";
      byFn.set(key, (byFn.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 100));
    }
    print(
      `  under ${under}: ${[...byFn.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)
        .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`)
        .join(", ")}`,
    );
  }
  print(
    `  self time after FCP by script: ${[...byFile.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`)
      .join(", ")}`,
  );
  for (const task of long) {
    const end = task.ts + (task.dur ?? 0);
    const inside = onMain.filter(
      (e) => e.ts >= task.ts && e.ts < end && e !== task && e.ph === "X",
    );
    const byKind = new Map<string, number>();
    for (const e of inside) {
      if (!kinds.includes(e.name)) continue;
      byKind.set(e.name, (byKind.get(e.name) ?? 0) + (e.dur ?? 0));
    }
    const script = inside.find((e) => e.args?.data?.url || e.args?.data?.functionName);
    const self = new Map<string, number>();
    const stacks = new Map<string, number>();
    for (let i = 0; i < profile.samples.length; i++) {
      const time = sampleTimes[i] ?? 0;
      if (time < task.ts || time >= end) continue;
      const node = nodes.get(profile.samples[i] ?? -1);
      if (!node) continue;
      const key = frameName(node);
      const dt = profile.timeDeltas[i + 1] ?? 100;
      self.set(key, (self.get(key) ?? 0) + dt);
      // The app's own components/functions on the stack (not node_modules).
      let n: ProfileNode | undefined = node;
      const app: string[] = [];
      while (n) {
        const url = n.callFrame.url;
        if (
          n.callFrame.functionName &&
          /\/assets\/(index|own-memories|memory-list|home)/.test(url)
        ) {
          app.push(n.callFrame.functionName);
        }
        n = n.parent !== undefined ? nodes.get(n.parent) : undefined;
      }
      const top = app[0];
      if (top) stacks.set(top, (stacks.get(top) ?? 0) + dt);
    }
    const fmt = (m: Map<string, number>, count: number) =>
      [...m.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, count)
        .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`)
        .join(", ");
    print(
      `task @${ms(task.ts - nav)} ms ${((task.dur ?? 0) / 1000).toFixed(1)} ms (CPU ${((task.tdur ?? 0) / 1000).toFixed(1)}) ${
        script
          ? `[${String(script.args?.data?.url ?? "")
              .split("/")
              .pop()} ${String(script.args?.data?.functionName ?? "")}]`
          : ""
      }`,
    );
    print(`  events: ${fmt(byKind, 8)}`);
    print(`  self:   ${fmt(self, 10)}`);
    if (stacks.size > 0) print(`  app:    ${fmt(stacks, 8)}`);
  }
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file =
    url
      .split("/")
      .pop()
      ?.replace(/-[\w-]{8}\.js$/, "") ?? "";
  return `${functionName || "(anon)"}${file ? `@${file}:${lineNumber + 1}` : ""}`;
}
