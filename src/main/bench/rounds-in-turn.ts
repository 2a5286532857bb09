/**
 * Two measurements compared over rounds, taking turns (A B, then B A, …) so that the machine's
 * drift over a run weighs on both alike, and measured again when the hypervisor took the CPU
 * during either of them (cpu-steal.ts). Whether a round is kept depends on the stolen share alone,
 * never on what was measured, and both sides of a round go or stay together.
 */
import { readCpuTimes, stealShare, type CpuTimes } from './cpu-steal.js';

export interface RoundsOptions {
  rounds: number;
  /** a round in which either side had more than this share (0–1) of the CPU time stolen is measured again */
  stealLimit: number;
  /** how many rounds may be measured again in all; past that, rounds are kept whatever was stolen */
  retries: number;
  /** the CPU counters; /proc/stat by default, a fake in tests */
  meter?: () => CpuTimes | null;
  /** told of every round measured: the larger stolen share of its two sides, and whether it was kept */
  onRound?: (steal: number, kept: boolean) => void;
}

export interface RoundsResult<A, B> {
  /** the kept rounds' results, in the order measured */
  a: A[];
  b: B[];
  /** rounds measured and dropped for stolen CPU time */
  remeasured: number;
  /** the largest stolen share among the dropped rounds' sides, 0 if none */
  droppedSteal: number;
  /** the largest stolen share among the kept rounds' sides */
  keptSteal: number;
  /** kept rounds over the limit because the retries ran out */
  keptOverLimit: number;
}

export async function roundsInTurn<A, B>(
  opts: RoundsOptions,
  measureA: () => Promise<A>,
  measureB: () => Promise<B>,
): Promise<RoundsResult<A, B>> {
  const meter = opts.meter ?? readCpuTimes;
  const result: RoundsResult<A, B> = { a: [], b: [], remeasured: 0, droppedSteal: 0, keptSteal: 0, keptOverLimit: 0 };
  const timed = async <T>(measure: () => Promise<T>): Promise<{ value: T; steal: number }> => {
    const before = meter();
    const value = await measure();
    return { value, steal: stealShare(before, meter()) };
  };
  for (let attempt = 0; result.a.length < opts.rounds; attempt++) {
    let a: { value: A; steal: number };
    let b: { value: B; steal: number };
    if (attempt % 2 === 0) {
      a = await timed(measureA);
      b = await timed(measureB);
    } else {
      b = await timed(measureB);
      a = await timed(measureA);
    }
    const steal = Math.max(a.steal, b.steal);
    const dropped = steal > opts.stealLimit && result.remeasured < opts.retries;
    opts.onRound?.(steal, !dropped);
    if (dropped) {
      result.remeasured++;
      result.droppedSteal = Math.max(result.droppedSteal, steal);
      continue;
    }
    if (steal > opts.stealLimit) result.keptOverLimit++;
    result.keptSteal = Math.max(result.keptSteal, steal);
    result.a.push(a.value);
    result.b.push(b.value);
  }
  return result;
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

/** What a figure's reader should know of how its rounds went, e.g. for its `detail`. */
export function describeRounds(r: RoundsResult<unknown, unknown>, limit: number): string {
  const parts = [`${r.a.length} rounds a side, CPU stolen ≤ ${percent(r.keptSteal)}`];
  if (r.remeasured > 0)
    parts.push(`${r.remeasured} measured again (stolen up to ${percent(r.droppedSteal)}, limit ${percent(limit)})`);
  if (r.keptOverLimit > 0) parts.push(`${r.keptOverLimit} kept over the limit: retries ran out`);
  return parts.join('; ');
}
