import type Database from 'better-sqlite3';

/**
 * A transaction with a few hundred small writes costs one fsync, the same as a transaction
 * with one; the cap keeps a flush short enough not to stall the event loop.
 */
export const MAX_BATCH = 256;

interface Pending {
  op: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Group commit: writes queued in the same turn of the event loop run together in ONE
 * transaction (one fsync), flushed on setImmediate so that every request parsed in the same
 * I/O phase joins. Each operation runs in its own savepoint: one that throws is rolled back
 * and rejected alone while the others commit. Promises settle only after the COMMIT; if the
 * commit fails, every operation of that flush is rejected.
 */
export class GroupCommit {
  readonly #maxBatch: number;
  readonly #atomic: Database.Transaction<(op: () => unknown) => unknown>;
  readonly #flushTx: Database.Transaction<(batch: Pending[]) => Outcome[]>;
  #queue: Pending[] = [];
  #scheduled = false;
  #closed = false;
  #idle: Array<() => void> = [];
  #commits = 0;
  #operations = 0;

  constructor(db: Database.Database, maxBatch = MAX_BATCH) {
    this.#maxBatch = maxBatch;
    // Called inside the flush transaction, better-sqlite3 turns this into a SAVEPOINT.
    this.#atomic = db.transaction((op: () => unknown) => op());
    this.#flushTx = db.transaction((batch: Pending[]) => {
      const outcomes: Outcome[] = [];
      for (const p of batch) {
        try {
          outcomes.push({ ok: true, value: this.#atomic(p.op) });
        } catch (error) {
          // SQLite itself rolled the whole transaction back (I/O error, disk full): the
          // earlier operations are gone too, so the flush as a whole must fail.
          if (!db.inTransaction) throw error;
          outcomes.push({ ok: false, error });
        }
      }
      return outcomes;
    });
  }

  /** Transactions committed so far (tests read it to see that concurrent writes share one). */
  get commits(): number {
    return this.#commits;
  }

  /** Operations that have been through a flush, committed or not. */
  get operations(): number {
    return this.#operations;
  }

  get pending(): number {
    return this.#queue.length;
  }

  /** Queues a synchronous write; resolves with its result once the shared transaction has committed. */
  run<T>(op: () => T): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('store is closed'));
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ op, resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  /** Resolves once nothing is queued any more. */
  drain(): Promise<void> {
    if (this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Refuses new operations and waits for the queued ones to commit. */
  close(): Promise<void> {
    this.#closed = true;
    return this.drain();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#flush);
  }

  #flush = (): void => {
    this.#scheduled = false;
    const batch = this.#queue.splice(0, this.#maxBatch);
    if (this.#queue.length > 0) this.#schedule();
    if (batch.length === 0) return;
    this.#operations += batch.length;
    let outcomes: Outcome[];
    try {
      outcomes = this.#flushTx.immediate(batch);
      this.#commits += 1;
    } catch (error) {
      for (const p of batch) p.reject(error);
      this.#wakeIdle();
      return;
    }
    batch.forEach((p, i) => {
      const o = outcomes[i];
      if (o.ok) p.resolve(o.value);
      else p.reject(o.error);
    });
    this.#wakeIdle();
  };

  #wakeIdle(): void {
    if (this.#queue.length > 0) return;
    const waiters = this.#idle;
    this.#idle = [];
    for (const w of waiters) w();
  }
}
