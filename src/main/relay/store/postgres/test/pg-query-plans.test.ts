import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPg, type PgSql } from '../pg-client.js';
import { PG_ENVELOPE_SQL } from '../queue/pg-queue-statements.js';
import { openPgStore, type PgRelayStore } from '../pg-store.js';
import { pgMissing, startPgCluster, type PgCluster } from '../../../../test-support/pg-cluster.js';
import { addr, devKey } from '../../test/temp-store.js';

const missing = pgMissing();

/** A queue skewed the way a small team's relay is: a few busy recipients hold nearly every row. */
const BUSY_ROWS = 100_000;
const BUSY = [1, 2, 3, 4, 5].map((i) => addr(0xb00 + i));
const QUIET = addr(0xc1);
const PAGE = 100;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Every node of a plan that reads the envelopes table or one of its indexes (a DELETE's own node only writes). */
function envelopeScans(node: PlanNode): PlanNode[] {
  const reads =
    (node['Relation Name'] === 'envelopes' && node['Node Type'] !== 'ModifyTable') ||
    node['Index Name']?.startsWith('envelopes');
  const own = reads ? [node] : [];
  return [...own, ...(node.Plans ?? []).flatMap(envelopeScans)];
}
const removed = (n: PlanNode) => (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0);

/**
 * The plans the driver's prepared statements run: the same text PREPAREd on one connection,
 * with the plan cache forced one way or the other. A connection of the relay switches to the
 * generic plan on its own after five executions whenever that plan looks no dearer; forcing it
 * makes the test independent of which pulls came first.
 */
describe.skipIf(missing !== null)(
  'PostgreSQL queue statements on a skewed queue, custom and generic plans alike',
  () => {
    let cluster: PgCluster;
    let store: PgRelayStore;
    let sql: PgSql;
    const quietIds: string[] = [];

    beforeAll(async () => {
      cluster = startPgCluster();
      const url = await cluster.createDatabase();
      store = await openPgStore(url);
      sql = openPg(url, { max: 1 });
      // Nearly every row for five recipients, a third of them sealed to no device; the quiet
      // recipient's few rows come last, as a new message to someone who rarely gets one does.
      await sql.unsafe(
        `INSERT INTO envelopes (id, sender, recipient, device_key, ciphertext, ephemeral_public_key, nonce, created_at, routed)
       SELECT 'busy-' || i, $1, ($2::text[])[1 + i % 5], CASE WHEN i % 3 = 0 THEN NULL ELSE ($3::text[])[1 + i % 7] END, 'c', 'k', 'n', i, 'inbox'
       FROM generate_series(1, ${BUSY_ROWS}) i`,
        [addr(0xa), BUSY, [1, 2, 3, 4, 5, 6, 7].map(devKey)] as never[],
      );
      for (const [i, device] of [devKey(1), null, devKey(2), null].entries()) {
        const id = `quiet-${i}`;
        quietIds.push(id);
        await sql.unsafe(
          `INSERT INTO envelopes (id, sender, recipient, device_key, ciphertext, ephemeral_public_key, nonce, created_at, routed) VALUES ($1, $2, $3, $4, 'c', 'k', 'n', $5, 'inbox')`,
          [id, addr(0xa), QUIET, device, BUSY_ROWS + i] as never[],
        );
      }
      await sql.unsafe('ANALYZE envelopes');
    }, 120_000);
    afterAll(async () => {
      await sql?.end();
      await store?.close();
      cluster?.destroy();
    });

    /** EXPLAIN ANALYZE of one prepared execution, rolled back (an ack deletes). */
    async function plan(
      text: string,
      types: string,
      params: unknown[],
      mode: 'force_generic_plan' | 'force_custom_plan',
    ): Promise<PlanNode> {
      let root: PlanNode | undefined;
      await sql
        .begin(async (tx) => {
          await tx.unsafe(`SET LOCAL plan_cache_mode = ${mode}`);
          // prepared statements outlive transactions: the last call's is still there
          await tx.unsafe('DEALLOCATE ALL');
          await tx.unsafe(`PREPARE under_test(${types}) AS ${text}`);
          const args = params.map((p) =>
            Array.isArray(p)
              ? `ARRAY[${p.map((x) => (x === null ? 'NULL' : `'${String(x)}'`)).join(',')}]::text[]`
              : typeof p === 'number'
                ? String(p)
                : `'${String(p)}'`,
          );
          const [row] = await tx.unsafe(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE under_test(${args.join(', ')})`);
          root = (row['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan;
          throw new Error('rollback');
        })
        .catch((e: unknown) => {
          if (!(e instanceof Error) || e.message !== 'rollback') throw e;
        });
      return root!;
    }

    const pulls = [
      ['pull with an unbound key', PG_ENVELOPE_SQL.pull.any, 'text, bigint', null],
      ['pull with a device-bound key', PG_ENVELOPE_SQL.pull.device, 'text, bigint, text', devKey(1)],
      ['wire pull with an unbound key', PG_ENVELOPE_SQL.pullWire.any, 'text, bigint', null],
      ['wire pull with a device-bound key', PG_ENVELOPE_SQL.pullWire.device, 'text, bigint, text', devKey(1)],
    ] as const;

    for (const mode of ['force_generic_plan', 'force_custom_plan'] as const) {
      for (const [name, text, types, device] of pulls) {
        for (const [who, recipient] of [
          ['a quiet recipient', QUIET],
          ['a busy one', BUSY[2]],
        ] as const) {
          it(`${name}, ${who}, ${mode}: reads no more than its page, from an inbox index`, async () => {
            const root = await plan(text, types, device === null ? [recipient, PAGE] : [recipient, PAGE, device], mode);
            const scans = envelopeScans(root);
            const shown = JSON.stringify(root, null, 1);
            expect(scans.length, shown).toBeGreaterThan(0);
            for (const s of scans) {
              if (s['Index Name'] !== undefined)
                expect(['envelopes_inbox', 'envelopes_device_page', 'envelopes_unbound_page'], shown).toContain(
                  s['Index Name'],
                );
              else expect(s['Node Type'], shown).toBe('Bitmap Heap Scan');
              expect(removed(s), shown).toBe(0);
              expect(s['Actual Rows'], shown).toBeLessThanOrEqual(PAGE);
            }
            // a device's two ranges are merged, not read whole and sorted: a page's rows, and the one each range reads ahead
            const heapRows = scans
              .filter((s) => s['Node Type'] !== 'Bitmap Index Scan')
              .reduce((n, s) => n + s['Actual Rows'], 0);
            expect(heapRows, shown).toBeLessThanOrEqual(PAGE + 2);
          });
        }
      }

      it(`acks of several requests in one statement, ${mode}: find each envelope by its id, reading no one else's`, async () => {
        const ids = [...quietIds.slice(0, 3), 'busy-3', 'busy-8'];
        const recipients = [QUIET, QUIET, QUIET, BUSY[3], BUSY[3]];
        const devices = [null, devKey(1), devKey(1), null, devKey(1)];
        const root = await plan(PG_ENVELOPE_SQL.ackMany, 'text[], text[], text[]', [recipients, ids, devices], mode);
        const scans = envelopeScans(root);
        const shown = JSON.stringify(root, null, 1);
        expect(scans.length, shown).toBeGreaterThan(0);
        for (const s of scans) {
          expect(s['Node Type'], shown).not.toBe('Seq Scan');
          expect(s['Node Type'], shown).not.toBe('Bitmap Heap Scan');
          expect(removed(s) + s['Actual Rows'], shown).toBeLessThanOrEqual(ids.length);
        }
      });

      it(`acks, ${mode}: find their envelopes through an index, reading no one else's`, async () => {
        const busyIds = ['busy-3', 'busy-8', 'busy-13'];
        for (const [text, types, params, n] of [
          [PG_ENVELOPE_SQL.ack.any, 'text, text[]', [QUIET, quietIds], quietIds.length],
          [PG_ENVELOPE_SQL.ack.device, 'text, text[], text', [QUIET, quietIds, devKey(1)], quietIds.length],
          [PG_ENVELOPE_SQL.ack.any, 'text, text[]', [BUSY[3], busyIds], busyIds.length],
          [PG_ENVELOPE_SQL.ack.device, 'text, text[], text', [BUSY[3], busyIds, devKey(1)], busyIds.length],
        ] as const) {
          const root = await plan(text, types, [...params], mode);
          const scans = envelopeScans(root);
          const shown = JSON.stringify(root, null, 1);
          expect(scans.length, shown).toBeGreaterThan(0);
          for (const s of scans) {
            expect(s['Node Type'], shown).not.toBe('Seq Scan');
            expect(removed(s) + s['Actual Rows'], shown).toBeLessThanOrEqual(n);
          }
        }
      });
    }

    it('the quiet recipient pulls its own envelopes in queue order, its device and unbound ones merged', async () => {
      const bound = await store.pull(QUIET, devKey(1), PAGE);
      expect(bound.map((e) => e.id)).toEqual(['quiet-0', 'quiet-1', 'quiet-3']);
      // a key bound to no device: only the unbound ones
      const unbound = await store.pull(QUIET, null, PAGE);
      expect(unbound.map((e) => e.id)).toEqual(['quiet-1', 'quiet-3']);
      const wire = JSON.parse(await store.pullWire(QUIET, devKey(2), PAGE)) as { id: string }[];
      expect(wire.map((e) => e.id)).toEqual(['quiet-1', 'quiet-2', 'quiet-3']);
    });

    it('a busy recipient pulls the oldest page of its device and unbound envelopes, in queue order', async () => {
      const B = BUSY[2];
      const expected = await sql.unsafe<{ id: string }[]>(
        `SELECT id FROM envelopes WHERE recipient = $1 AND (device_key = $2 OR device_key IS NULL) ORDER BY seq LIMIT ${PAGE}`,
        [B, devKey(4)] as never[],
      );
      expect(expected).toHaveLength(PAGE);
      const page = await store.pull(B, devKey(4), PAGE);
      expect(page.map((e) => e.id)).toEqual(expected.map((r) => r.id));
      expect(
        page.some((e) => e.recipientDeviceKey === null) && page.some((e) => e.recipientDeviceKey === devKey(4)),
      ).toBe(true);
    });
  },
);
