/**
 * The bench's comparisons: sides take turns, and a round during which the hypervisor took the CPU
 * is measured again, judged by the stolen share alone and within a budget.
 */
import { describe, expect, it } from 'vitest';
import { busyShare, parseProcStat, stealShare, type CpuTimes } from '../cpu-steal.js';
import { describeRounds, roundsInTurn } from '../rounds-in-turn.js';

describe('parseProcStat', () => {
  it('reads the machine-wide line, steal the eighth field, guest time left out of the total', () => {
    const text = ['cpu  100 5 20 800 10 0 3 12 40 0', 'cpu0 50 2 10 400 5 0 1 6 20 0', 'intr 12345'].join('\n');
    expect(parseProcStat(text)).toEqual({ steal: 12, idle: 800 + 10, total: 100 + 5 + 20 + 800 + 10 + 0 + 3 + 12 });
  });

  it('gives null for text without it or with a short line', () => {
    expect(parseProcStat('cpu0 1 2 3 4 5 6 7 8\n')).toBeNull();
    expect(parseProcStat('cpu  1 2 3\n')).toBeNull();
    expect(parseProcStat('')).toBeNull();
  });
});

describe('busyShare', () => {
  it('is the time neither idle nor stolen, over all the time between two readings', () => {
    expect(busyShare({ steal: 10, idle: 500, total: 1000 }, { steal: 30, idle: 700, total: 1400 })).toBeCloseTo(
      180 / 400,
    );
    expect(busyShare(null, { steal: 5, idle: 1, total: 10 })).toBe(0);
    expect(busyShare({ steal: 5, idle: 1, total: 10 }, { steal: 5, idle: 1, total: 10 })).toBe(0);
  });
});

describe('stealShare', () => {
  it('is the stolen part of all the time between two readings', () => {
    expect(stealShare({ steal: 10, idle: 0, total: 1000 }, { steal: 30, idle: 0, total: 1400 })).toBeCloseTo(0.05);
  });

  it('is 0 when either reading is missing or no time passed', () => {
    expect(stealShare(null, { steal: 5, idle: 0, total: 10 })).toBe(0);
    expect(stealShare({ steal: 5, idle: 0, total: 10 }, null)).toBe(0);
    expect(stealShare({ steal: 5, idle: 0, total: 10 }, { steal: 5, idle: 0, total: 10 })).toBe(0);
  });
});

/** A meter whose counters advance by 1,000 ticks a reading pair, `steal[i]` of them stolen in the i-th measurement. */
function fakeMeter(stolenPerMeasurement: number[]) {
  let t: CpuTimes = { steal: 0, idle: 0, total: 0 };
  let reads = 0;
  return () => {
    // readings come in pairs (before, after): advance on each "after"
    if (reads++ % 2 === 1) {
      const i = (reads - 2) / 2;
      t = { steal: t.steal + (stolenPerMeasurement[i] ?? 0), idle: 0, total: t.total + 1000 };
    }
    return t;
  };
}

describe('roundsInTurn', () => {
  it('takes turns: A B, then B A', async () => {
    const order: string[] = [];
    const r = await roundsInTurn(
      { rounds: 3, stealLimit: 0.02, retries: 3, meter: fakeMeter([]) },
      async () => (order.push('a'), 'a'),
      async () => (order.push('b'), 'b'),
    );
    expect(order).toEqual(['a', 'b', 'b', 'a', 'a', 'b']);
    expect(r.a).toEqual(['a', 'a', 'a']);
    expect(r.remeasured).toBe(0);
  });

  it('measures a round again when either side had more than the limit stolen, and keeps both sides together', async () => {
    let n = 0;
    // measurements: the first round a=0, b=50 (5 %, dropped); the second (b first) b=0, a=0; the third a=0, b=10
    const r = await roundsInTurn(
      { rounds: 2, stealLimit: 0.02, retries: 2, meter: fakeMeter([0, 50, 0, 0, 0, 10]) },
      async () => `a${n++}`,
      async () => `b${n++}`,
    );
    expect(r.a).toEqual(['a3', 'a4']);
    expect(r.b).toEqual(['b2', 'b5']);
    expect(r.remeasured).toBe(1);
    expect(r.droppedSteal).toBeCloseTo(0.05);
    expect(r.keptSteal).toBeCloseTo(0.01);
    expect(r.keptOverLimit).toBe(0);
  });

  it('tells onRound of every round measured, dropped or kept, with its larger stolen share', async () => {
    const heard: Array<[number, boolean]> = [];
    await roundsInTurn(
      {
        rounds: 2,
        stealLimit: 0.02,
        retries: 1,
        meter: fakeMeter([0, 50, 30, 0, 0, 5]),
        onRound: (steal, kept) => heard.push([steal, kept]),
      },
      async () => 1,
      async () => 2,
    );
    expect(heard.map(([, kept]) => kept)).toEqual([false, true, true]);
    expect(heard.map(([steal]) => steal)).toEqual([0.05, 0.03, 0.005].map((x) => expect.closeTo(x, 6)));
  });

  it('keeps rounds over the limit once its retries are spent, and says so', async () => {
    const r = await roundsInTurn(
      { rounds: 2, stealLimit: 0.02, retries: 1, meter: fakeMeter([90, 0, 90, 0, 90, 0]) },
      async () => 1,
      async () => 2,
    );
    expect(r.a).toHaveLength(2);
    expect(r.remeasured).toBe(1);
    expect(r.keptOverLimit).toBe(2);
    expect(describeRounds(r, 0.02)).toBe(
      '2 rounds a side, CPU stolen ≤ 9.0 %; 1 measured again (stolen up to 9.0 %, limit 2.0 %); 2 kept over the limit: retries ran out',
    );
  });

  it('never drops a round where nothing can be read (no /proc/stat)', async () => {
    const r = await roundsInTurn(
      { rounds: 2, stealLimit: 0.02, retries: 5, meter: () => null },
      async () => 1,
      async () => 2,
    );
    expect(r.a).toEqual([1, 1]);
    expect(r.remeasured).toBe(0);
    expect(describeRounds(r, 0.02)).toBe('2 rounds a side, CPU stolen ≤ 0.0 %');
  });
});
