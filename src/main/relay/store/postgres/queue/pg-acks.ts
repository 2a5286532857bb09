/**
 * Acknowledging envelopes on PostgreSQL: one statement for a lone ack, one for the acks of
 * several requests that arrived together.
 */
import { isRetryable, MAX_ATTEMPTS, type PgSql } from '../pg-client.js';

/** Requests' acks answered by one statement at most. */
const MAX_BATCH = 256;

/**
 * One request's ack ($1 recipient, $2 ids, $3 device): a device acks its own and unbound ones, a
 * key bound to no device only unbound ones, never a device's copy (docs/protocol.md §10).
 */
export const ACK = {
  any: `DELETE FROM envelopes WHERE recipient = $1 AND id = ANY($2::text[]) AND device_key IS NULL`,
  device: `DELETE FROM envelopes WHERE recipient = $1 AND id = ANY($2::text[]) AND (device_key = $3 OR device_key IS NULL)`,
};

/**
 * The acks of several requests in one statement (one commit): row by row the request's
 * recipient, an id and its device (NULL for an unbound key), with the same rule as ACK's.
 * Returns, for each envelope it deleted, the first row that matched it: the requests are
 * answered as if they had run one after the other, in the order they came.
 */
export const ACK_MANY = `WITH a AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS a(recipient, id, device_key, n)),
  hit AS (SELECT e.seq, min(a.n) AS n FROM envelopes e JOIN a ON e.id = a.id AND e.recipient = a.recipient
    AND (e.device_key = a.device_key OR e.device_key IS NULL) GROUP BY e.seq)
  DELETE FROM envelopes e USING hit WHERE e.seq = hit.seq RETURNING hit.n`;

interface PendingAck {
  to: string;
  deviceKey: string | null;
  ids: string[];
  resolve: (acked: number) => void;
  reject: (e: unknown) => void;
}

/**
 * Acks that arrive while one is at the database go together in the next statement, as
 * deliveries do: each ack is a commit (a WAL flush), and at a thousand sends a second every
 * receiver's ack was one, holding a pooled connection through its flush. A lone ack runs the
 * single statement (ACK) at once; each request is answered with the count of its own ids.
 */
export class AckBatcher {
  readonly #sql: PgSql;
  #queue: PendingAck[] = [];
  #running: Promise<void> | null = null;
  #batches = 0;

  constructor(sql: PgSql) {
    this.#sql = sql;
  }

  /** Statements that answered several requests' acks (tests read it). */
  get batches(): number {
    return this.#batches;
  }

  ack(to: string, deviceKey: string | null, ids: string[]): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ to, deviceKey, ids, resolve, reject });
      this.#running ??= this.#flush().finally(() => (this.#running = null));
    });
  }

  async drain(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #flush(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, MAX_BATCH);
      try {
        const counts = await this.#retrying(() => (batch.length === 1 ? this.#one(batch[0]) : this.#many(batch)));
        batch.forEach((a, i) => a.resolve(counts[i]));
      } catch (e) {
        for (const a of batch) a.reject(e);
      }
    }
  }

  async #retrying(run: () => Promise<number[]>): Promise<number[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (e) {
        // deadlocks between nodes acking at once are rare and cheap to retry
        if (attempt < MAX_ATTEMPTS && isRetryable(e)) continue;
        throw e;
      }
    }
  }

  async #one(a: PendingAck): Promise<number[]> {
    const done = await (a.deviceKey === null
      ? this.#sql.unsafe(ACK.any, [a.to, a.ids], { prepare: true })
      : this.#sql.unsafe(ACK.device, [a.to, a.ids, a.deviceKey], { prepare: true }));
    return [done.count];
  }

  async #many(batch: PendingAck[]): Promise<number[]> {
    const recipients: string[] = [];
    const ids: string[] = [];
    const devices: (string | null)[] = [];
    /** the request of each row, by the row's place (ORDINALITY counts from 1) */
    const owner: number[] = [];
    batch.forEach((a, i) => {
      for (const id of a.ids) {
        recipients.push(a.to);
        ids.push(id);
        devices.push(a.deviceKey);
        owner.push(i);
      }
    });
    const rows = await this.#sql.unsafe<{ n: string }[]>(ACK_MANY, [recipients, ids, devices], {
      prepare: true,
    });
    this.#batches += 1;
    // an envelope two requests named (a retry beside its first try) counts for the first
    const counts = batch.map(() => 0);
    for (const r of rows) counts[owner[Number(r.n) - 1]] += 1;
    return counts;
  }
}
