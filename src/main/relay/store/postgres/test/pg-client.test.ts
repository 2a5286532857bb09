import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrayLiteral, openPg } from '../pg-client.js';
import { pgMissing, startPgCluster, type PgCluster } from '../../../../test-support/pg-cluster.js';

const missing = pgMissing();

describe.skipIf(missing !== null)('PostgreSQL driver setup (pg-client)', () => {
  let cluster: PgCluster;
  let url: string;
  beforeAll(async () => {
    cluster = startPgCluster();
    url = await cluster.createDatabase();
  }, 60_000);
  afterAll(() => cluster?.destroy());

  it('sends text and bigint lists as arrays, with quotes, backslashes, commas, braces, the word NULL and real nulls intact', async () => {
    const sql = openPg(url, { max: 1 });
    try {
      const texts = ['plain', 'a "quoted" word', 'back\\slash', 'a,b', '{braces}', 'NULL', '', 'ünïcødé 🔐', null];
      const rows = await sql<
        { v: string | null }[]
      >`SELECT v FROM unnest(${texts}::text[]) WITH ORDINALITY AS t(v, n) ORDER BY n`;
      expect(rows.map((r) => r.v)).toEqual(texts);
      const numbers = [0, 1, 1_700_000_000_000, 2 ** 53 - 1];
      const ints = await sql<
        { v: number }[]
      >`SELECT v FROM unnest(${numbers}::bigint[]) WITH ORDINALITY AS t(v, n) ORDER BY n`;
      expect(ints.map((r) => r.v)).toEqual(numbers);
      const [{ n }] = await sql<{ n: number }[]>`SELECT cardinality(${[] as string[]}::text[])::int8 AS n`;
      expect(n).toBe(0);
    } finally {
      await sql.end();
    }
  });

  it('hands a query the connection that went idle last, so light traffic stays on one warm backend (patched)', async () => {
    const sql = openPg(url, { max: 4 });
    try {
      // a burst opens all four connections
      const burst = await Promise.all(
        [0, 1, 2, 3].map(() => sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid, pg_sleep(0.05)`),
      );
      expect(new Set(burst.map(([r]) => r.pid)).size).toBe(4);
      // then one query at a time: unpatched, each took the connection idle longest, turning through all four
      const pids: number[] = [];
      for (let i = 0; i < 8; i++) pids.push((await sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`)[0].pid);
      expect(new Set(pids).size).toBe(1);
    } finally {
      await sql.end();
    }
  });

  it('a new connection whose statements are cancelled at once fails only the caller, never as an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const record = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', record);
    // A 1 ms statement timeout from the start-up packet on cancels whatever a fresh connection
    // runs first; the driver's own catalog query, when it ran one, failed unseen (porsager/postgres#1192).
    const sql = openPg(`${url}&statement_timeout=1`, { max: 1 });
    try {
      const outcome = await sql`SELECT pg_sleep(0.2)`.then(
        () => 'ran',
        (e: { code?: string }) => e.code,
      );
      expect(outcome).toBe('57014');
      // Once the pool has ended its connection can reject nothing more, and a rejection left
      // unhandled is reported before the next turn of the event loop.
      await sql.end();
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
      await sql.end();
    }
  });

  it('writes the array literal PostgreSQL reads back', () => {
    expect(arrayLiteral(['a"b', 'c\\d', null])).toBe('{"a\\"b","c\\\\d",NULL}');
    expect(arrayLiteral([])).toBe('{}');
  });
});
