import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { PgSql } from './pg-client.js';

/** How often one node forgets keys idle for a whole window. */
const FORGET_EVERY_MS = 60_000;

/**
 * The rolling-minute rate limit of every node at once, kept in the database (the UNLOGGED
 * rate_windows table): each key holds the times of its last `max` counted requests, as the
 * in-process SlidingWindowStore does, so a client gets the same budget whichever node answers and
 * never twice the limit across a window edge. Times come from the database's clock, the one clock
 * every node shares. A row lock per key orders the nodes' requests of one credential.
 */
export function pgRateLimitStore(sql: PgSql): new () => FastifyRateLimitStore {
  return class PgSlidingWindowStore implements FastifyRateLimitStore {
    readonly #forget: NodeJS.Timeout;

    constructor() {
      this.#forget = setInterval(() => {
        sql`DELETE FROM rate_windows WHERE touched_at < (extract(epoch FROM clock_timestamp()) * 1000)::bigint - ${FORGET_EVERY_MS}`.catch(
          () => undefined,
        );
      }, FORGET_EVERY_MS);
      this.#forget.unref();
    }

    incr(
      key: string,
      cb: (err: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ): void {
      // Keeps the last `max` times inside the window and appends this one: `current` is at most max + 1.
      sql<{ n: number; oldest: number; now: number }[]>`
        WITH t AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now)
        INSERT INTO rate_windows AS w (key, hits, touched_at) SELECT ${key}, ARRAY[t.now], t.now FROM t
        ON CONFLICT (key) DO UPDATE SET
          hits = ARRAY(SELECT h FROM (SELECT h FROM unnest(w.hits) AS h WHERE h > excluded.touched_at - ${timeWindow} ORDER BY h DESC LIMIT ${max}) x ORDER BY h)
            || excluded.touched_at,
          touched_at = excluded.touched_at
        RETURNING cardinality(hits) AS n, CASE WHEN cardinality(hits) > ${max} THEN hits[2] ELSE hits[1] END AS oldest, touched_at AS now`.then(
        ([r]) => cb(null, { current: r.n, ttl: Math.max(1, r.oldest + timeWindow - r.now) }),
        (err: Error) => cb(err),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }

    close(): void {
      clearInterval(this.#forget);
    }
  };
}
