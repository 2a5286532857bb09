import { asUnavailable, isRetryable, MAX_ATTEMPTS, type PgSql } from '../pg-client.js';
import { AckBatcher } from './pg-acks.js';
import { deliverBatch, type BatchResult, type Pending } from './pg-delivery-batch.js';
import { PULL, PULL_WIRE } from './pg-queue-statements.js';
import type { DeliveryOutcome, EnvelopeRow } from '../../store.js';
import type { EnvelopesPart } from '../../store-parts.js';

/** Deliveries answered by one transaction at most; a few hundred cost one fsync, like one. */
const MAX_BATCH = 256;
/** Rows a sweep deletes per transaction. */
const SWEEP_CHUNK = 5000;
/** The advisory lock held by the node that sweeps; the others skip the hour's sweep. */
const SWEEP_LOCK = 0x7377656570; // "sweep"

export interface PgEnvelopesPart extends EnvelopesPart {
  /** Transactions committed by the delivery batcher (tests read it to see batching). */
  readonly batches: number;
  /** Statements that answered the acks of more than one request (tests read it). */
  readonly ackBatches: number;
  /** Refuses new deliveries and waits for the queued ones. */
  close(): Promise<void>;
}

/**
 * Routing, queueing, pulling and acknowledging envelopes on PostgreSQL. Deliveries that arrive
 * in the same turn of the event loop share one transaction: one facts query over every item,
 * one multi-row insert, one commit; each is answered only after that commit. A delivery that is
 * refused is left out alone; a failed commit fails the whole batch, and nothing of it is queued.
 */
export function pgEnvelopesPart(sql: PgSql): PgEnvelopesPart {
  const queue: Pending[] = [];
  let running: Promise<void> | null = null;
  let scheduled = false;
  let closed = false;
  let batches = 0;
  const acks = new AckBatcher(sql);

  const inboxParams = (address: string, deviceKey: string | null, limit: number): (string | number)[] =>
    deviceKey === null ? [address.toLowerCase(), limit] : [address.toLowerCase(), limit, deviceKey.toLowerCase()];

  /**
   * One transaction for a batch in three round trips instead of four: the insert is not waited
   * for inside the transaction, so the driver sends COMMIT right behind it. PostgreSQL runs a
   * connection's statements in order, and a COMMIT after a failed insert only rolls back, so the
   * insert is checked once the transaction has ended: a batch is answered only if both held.
   */
  const runBatch = async (batch: Pending[]): Promise<BatchResult[]> => {
    const { results, insert } = await sql.begin((tx) => deliverBatch(tx, batch));
    await insert;
    return results;
  };

  const flush = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH);
      let results: BatchResult[] | null = null;
      let failure: unknown = null;
      for (let attempt = 1; results === null; attempt++) {
        try {
          results = await runBatch(batch);
        } catch (e) {
          if (attempt < MAX_ATTEMPTS && isRetryable(e)) continue;
          failure = asUnavailable(e);
          break;
        }
      }
      if (results === null) {
        for (const p of batch) p.reject(failure);
        continue;
      }
      batches += 1;
      batch.forEach((p, i) => {
        const r = results[i];
        if ('ok' in r) p.resolve(r.ok);
        else p.reject(r.refused);
      });
    }
  };

  // One batch in flight per node: what arrives meanwhile waits for the next, bigger batch.
  const schedule = () => {
    if (scheduled || running) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      running = flush().finally(() => {
        running = null;
        if (queue.length > 0) schedule();
      });
    });
  };

  return {
    get batches() {
      return batches;
    },
    get ackBatches() {
      return acks.batches;
    },
    deliver(d) {
      if (closed) return Promise.reject(new Error('store is closed'));
      return new Promise<DeliveryOutcome[]>((resolve, reject) => {
        queue.push({ d, resolve, reject });
        schedule();
      });
    },
    async pull(address, deviceKey, limit) {
      const rows = await sql.unsafe<EnvelopeRow[]>(
        deviceKey === null ? PULL.any : PULL.device,
        inboxParams(address, deviceKey, limit),
        { prepare: true },
      );
      // `stake` only on staked requests, as on the wire
      for (const r of rows) if (r.stake === null) delete r.stake;
      return [...rows];
    },
    async pullWire(address, deviceKey, limit) {
      // As raw bytes, decoded here: no row object per pull, and the brackets added by the query
      // rather than by a second string, which shortened the cluster bench's pull p99. (Sent on as a
      // Buffer without decoding it, the p99 was as long again: each page is then external memory,
      // which V8 counts towards its next full collection. docs/benchmarks.md, cluster.)
      const rows: Buffer[][] = await sql
        .unsafe(deviceKey === null ? PULL_WIRE.any : PULL_WIRE.device, inboxParams(address, deviceKey, limit), {
          prepare: true,
        })
        .raw();
      const page = rows[0][0].toString('utf8');
      // Emptied before we let go of it: the driver's result object outlives its query until V8's
      // next full collection, and with it the ~100 KB socket buffer the page's bytes point into.
      // Those pile up as external memory and trigger full collections every ~150 pulls.
      rows.length = 0;
      return page;
    },
    ack(address, deviceKey, ids) {
      if (closed) return Promise.reject(new Error('store is closed'));
      const unique = [...new Set(ids.map((id) => String(id).toLowerCase()))];
      return acks.ack(address.toLowerCase(), deviceKey === null ? null : deviceKey.toLowerCase(), unique);
    },
    async sweep(cutoff) {
      let total = 0;
      for (;;) {
        // Whichever node holds the lock sweeps; the others find it taken and leave it to that one.
        const n = await sql.begin(async (tx) => {
          const [{ got }] = await tx<{ got: boolean }[]>`SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK}) AS got`;
          if (!got) return -1;
          return (
            await tx`DELETE FROM envelopes WHERE seq IN (SELECT seq FROM envelopes WHERE created_at < ${cutoff} ORDER BY created_at LIMIT ${SWEEP_CHUNK})`
          ).count;
        });
        if (n < 0) return total;
        total += n;
        if (n < SWEEP_CHUNK) return total;
      }
    },
    close() {
      closed = true;
      return (async () => {
        while (running || queue.length > 0 || scheduled) await (running ?? new Promise((r) => setImmediate(r)));
        await acks.drain();
      })();
    },
  };
}
