/**
 * The PostgreSQL driver's internal queue, as patched by patches/postgres+3.4.9.patch. A pool
 * keeps its connections in such queues (idle, busy, full…): a query takes one (shift; an idle one
 * is now taken with pop, the newest), the pool takes it off its list (remove) and gives it back
 * when the query ends (push). Unpatched, a list that never empties (a pool whose connections were
 * all opened by a burst, then used one at a time) kept a spent slot per query for good and
 * remove() scanned them all: a relay node's every query got slower the longer it ran (the
 * figures are in docs/benchmarks.md, cluster).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

interface DriverQueue<T> {
  readonly length: number;
  push(x: T): T;
  shift(): T | undefined;
  pop(): T | undefined;
  remove(x: T): T | null;
}
type QueueFactory = <T>(initial?: T[]) => DriverQueue<T>;

const require = createRequire(import.meta.url);
// cjs/src/index.js: the copy `require` loads; the relay itself imports src/ (the ESM copy).
const cjsDir = dirname(require.resolve('postgres'));
const copies: Array<[string, () => Promise<QueueFactory>]> = [
  [
    'ESM (what the relay loads)',
    async () =>
      ((await import(pathToFileURL(join(cjsDir, '..', '..', 'src', 'queue.js')).href)) as { default: QueueFactory })
        .default,
  ],
  ['CommonJS', async () => require(join(cjsDir, 'queue.js')) as QueueFactory],
];

const realIndexOf = Array.prototype.indexOf;
afterEach(() => {
  Array.prototype.indexOf = realIndexOf;
});

describe.each(copies)("the driver's connection queue, %s copy", (_name, load) => {
  it('stays as long as what it holds when it never empties, so taking a connection costs the same after 20,000 queries as after one', async () => {
    const Queue = await load();
    const connections = Array.from({ length: 10 }, (_, i) => ({ id: i }));
    const open = Queue(connections);
    const busy = Queue<{ id: number }>();
    // What remove() scans: the longest array indexOf is asked to search from where it starts.
    let longestScan = 0;
    Array.prototype.indexOf = function (this: unknown[], x: unknown, from?: number) {
      longestScan = Math.max(longestScan, this.length - (from ?? 0));
      return realIndexOf.call(this, x, from);
    };
    for (let query = 0; query < 20_000; query++) {
      // index.js go() and move(): take the oldest idle connection, move it to busy, and back
      const c = open.shift()!;
      expect(open.remove(c)).toBeNull();
      busy.push(c);
      expect(busy.remove(c)).toBe(c);
      open.push(c);
    }
    Array.prototype.indexOf = realIndexOf;
    expect(open.length).toBe(10);
    expect(longestScan).toBeLessThan(200);
    // still first in, first out, and remove() still finds what is queued
    const order = Array.from({ length: 10 }, () => open.shift()!.id);
    expect(new Set(order).size).toBe(10);
    for (const c of connections) open.push(c);
    expect(open.remove(connections[3])).toBe(connections[3]);
    expect(open.length).toBe(9);
    expect(Array.from({ length: 9 }, () => open.shift()!.id)).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9]);
    expect(open.length).toBe(0);
  });

  it('gives its newest entry with pop, also after its head was taken, and empties cleanly', async () => {
    const Queue = await load();
    const q = Queue(['a', 'b', 'c', 'd']);
    expect(q.shift()).toBe('a');
    expect(q.pop()).toBe('d');
    q.push('e');
    expect(q.pop()).toBe('e');
    expect(q.length).toBe(2);
    expect(q.pop()).toBe('c');
    expect(q.pop()).toBe('b');
    expect(q.length).toBe(0);
    q.push('f');
    q.push('g');
    expect(q.shift()).toBe('f');
    expect(q.length).toBe(1);
    expect(q.pop()).toBe('g');
    expect(q.length).toBe(0);
  });
});
