import { pgAccountsPart } from './pg-accounts.js';
import { pgBlobsPart } from './pg-blobs.js';
import { isConnectionError, openPg, type PgSql } from './pg-client.js';
import { pgCredentialsPart } from './pg-credentials.js';
import { pgEnvelopesPart } from './queue/pg-envelopes.js';
import { pgGroupsPart } from './pg-groups.js';
import { pgModerationPart } from './pg-moderation.js';
import { PG_MIGRATIONS, migratePg } from './pg-migrations.js';
import { pgStakesPart } from './pg-stakes.js';
import { withUnavailable } from './pg-unavailable.js';
import type { RelayStats, RelayStore } from '../store.js';
import type { OnMigrated } from '../../../sqlite/migrations.js';

export interface PgRelayStore extends RelayStore {
  /** The pool, for the cluster's doorbell, rate limit and tests. */
  readonly sql: PgSql;
  /** Delivery batches committed (tests read it to see batching). */
  readonly groupCommits: number;
  /** Statements that answered the acks of several requests at once (tests read it). */
  readonly ackBatches: number;
}

export interface PgStoreOptions {
  /** pool size (default 10) */
  maxConnections?: number;
  /** shown in pg_stat_activity */
  nodeId?: string;
  /** told the schema versions before and after opening (the relay's log) */
  onMigrated?: OnMigrated;
}

/** Below this many rows a table is counted exactly; above it, the planner's estimate is close enough and costs nothing. */
const EXACT_BELOW = 100_000;

/**
 * Opens a relay store on a PostgreSQL database, migrating it first (once, under a lock, whichever
 * node gets there first). Several relay processes may open the same database.
 */
export async function openPgStore(url: string, options: PgStoreOptions = {}): Promise<PgRelayStore> {
  const sql = openPg(url, { max: options.maxConnections, applicationName: `relay ${options.nodeId ?? ''}`.trim() });
  try {
    await migratePg(sql, PG_MIGRATIONS, options.onMigrated);
  } catch (e) {
    await sql.end({ timeout: 1 });
    throw e;
  }
  const envelopes = pgEnvelopesPart(sql);
  let closing: Promise<void> | null = null;
  const store: PgRelayStore = {
    ...pgAccountsPart(sql),
    ...pgCredentialsPart(sql),
    ...pgGroupsPart(sql),
    ...envelopes,
    ...pgStakesPart(sql),
    ...pgBlobsPart(sql),
    ...pgModerationPart(sql),
    sql,
    get groupCommits() {
      return envelopes.batches;
    },
    get ackBatches() {
      return envelopes.ackBatches;
    },
    async stats() {
      const count = (table: string, where = 'true') =>
        `(SELECT CASE WHEN c.reltuples >= ${EXACT_BELOW} THEN c.reltuples::bigint ELSE (SELECT count(*) FROM ${table} WHERE ${where}) END
          FROM pg_class c WHERE c.oid = '${table}'::regclass)`;
      const [r] = await sql.unsafe<RelayStats[]>(`SELECT
          ${count('accounts')} AS accounts,
          ${count('devices', 'revoked_at IS NULL')} AS devices,
          ${count('api_keys', 'revoked_at IS NULL')} AS "apiKeys",
          ${count('chat_groups')} AS groups,
          ${count('envelopes')} AS "queuedEnvelopes",
          (SELECT min(created_at) FROM envelopes) AS "oldestQueuedAt"`);
      return r;
    },
    async healthy() {
      try {
        await sql`SELECT 1`;
        return true;
      } catch {
        return false;
      }
    },
    async readiness() {
      try {
        const [row] = await sql<{ version: number }[]>`SELECT version FROM relay_schema`;
        return row?.version === PG_MIGRATIONS[PG_MIGRATIONS.length - 1].version ? 'ready' : 'not-migrated';
      } catch (e) {
        // a database that answers without the schema table was never migrated (or was wiped)
        return isConnectionError(e) ? 'unreachable' : 'not-migrated';
      }
    },
    async storageBytes() {
      const [r] = await sql<{ database: number; blobs: number }[]>`SELECT
          pg_database_size(current_database())::bigint AS database,
          (SELECT coalesce(sum(size), 0) FROM blobs)::bigint AS blobs`;
      return r;
    },
    close() {
      closing ??= (async () => {
        await envelopes.close();
        await sql.end({ timeout: 5 });
      })();
      return closing;
    },
  };
  return withUnavailable(store);
}
