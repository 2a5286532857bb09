/**
 * Watches the main thread's event loop while an operation runs: Node's own histogram
 * (perf_hooks.monitorEventLoopDelay, 5 ms resolution) and a 5 ms interval probe that records how
 * late each tick fires. Either one alone can miss a stall: the histogram samples on its own
 * timer, the probe sees only stalls that fall between its ticks.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { percentile } from './report.js';

export interface LoopStalls {
  /** longest delay the histogram saw, ms */
  max_ms: number;
  p99_ms: number;
  /** longest a 5 ms probe tick fired late, ms */
  probe_max_ms: number;
  probe_p99_ms: number;
  wall_ms: number;
}

const PROBE_MS = 5;

export async function watchStalls<T>(run: () => Promise<T>): Promise<{ result: T; stalls: LoopStalls }> {
  const h = monitorEventLoopDelay({ resolution: PROBE_MS });
  const late: number[] = [];
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    late.push(Math.max(0, now - last - PROBE_MS));
    last = now;
  }, PROBE_MS);
  h.enable();
  const t = performance.now();
  try {
    const result = await run();
    const wall = performance.now() - t;
    h.disable();
    clearInterval(probe);
    // the tick owed at the end, if the last stretch stalled
    late.push(Math.max(0, performance.now() - last - PROBE_MS));
    late.sort((a, b) => a - b);
    const round = (ns: number) => Math.round(ns / 1e5) / 10;
    return {
      result,
      stalls: {
        // the histogram's values include its own resolution
        max_ms: Math.max(0, round(h.max) - PROBE_MS),
        p99_ms: Math.max(0, round(h.percentile(99)) - PROBE_MS),
        probe_max_ms: Math.round(late[late.length - 1] * 10) / 10,
        probe_p99_ms: Math.round(percentile(late, 0.99) * 10) / 10,
        wall_ms: Math.round(wall),
      },
    };
  } finally {
    h.disable();
    clearInterval(probe);
  }
}
