/**
 * The one module that knows which PostgreSQL driver we use (porsager's `postgres`): prepared
 * statements, pipelining and a LISTEN connection that reconnects by itself. Everything else
 * takes a `PgSql` from here, so the driver could be swapped behind these few functions.
 * Connect directly to PostgreSQL: a transaction-pooling proxy breaks LISTEN.
 */
import postgres from 'postgres';
import { StoreUnavailable } from '../store.js';

/** int8 columns (sequences, epoch milliseconds) as JS numbers: every value we keep is below 2^53. */
const INT8 = { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) };

/** A flat list as PostgreSQL's array literal: every element quoted (so commas, braces and the word NULL stay text), null as NULL. */
export function arrayLiteral(xs: readonly (string | number | null)[]): string {
  return `{${xs.map((x) => (x === null ? 'NULL' : `"${String(x).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
}

/**
 * The array parameters we send (`${list}::text[]`, `::bigint[]`), serialised by us. The driver
 * would learn them from a catalog query it runs first on every new connection, but when that
 * query fails (the database stopping while a connection opens) it leaves the failure as an
 * unhandled rejection that no caller can catch (porsager/postgres#1192), so `fetch_types` is off.
 * We never read array columns back, so no parsers are needed.
 */
const TEXT_ARRAY = { to: 1009, from: [] as number[], serialize: arrayLiteral, parse: (x: string) => x };
const INT8_ARRAY = { to: 1016, from: [] as number[], serialize: arrayLiteral, parse: (x: string) => x };

export type PgSql = postgres.Sql<{ int8: number }>;
export type PgTx = postgres.TransactionSql<{ int8: number }>;
/** What a pool and a transaction both take: queries. */
export type PgQueries = postgres.ISql<{ int8: number }>;

export interface PgOptions {
  /** connections in the pool (default 10) */
  max?: number;
  /** shown in pg_stat_activity, so an operator can tell the nodes apart */
  applicationName?: string;
  /** driver options its types leave out: a LISTEN connection's callbacks */
  onnotify?: (channel: string, payload: string) => void;
  onclose?: () => void;
}

/**
 * Opens a pool. Besides the driver's URL forms it takes libpq's unix-socket form,
 * `postgres://user@localhost/db?host=/run/postgresql` (the socket's folder in `host`).
 */
export function openPg(url: string, options: PgOptions = {}): PgSql {
  const parsed = new URL(url);
  const socketDir = parsed.searchParams.get('host');
  let path: string | undefined;
  if (socketDir?.startsWith('/')) {
    parsed.searchParams.delete('host');
    path = `${socketDir}/.s.PGSQL.${parsed.port || 5432}`;
  }
  // Not typed as the driver's Options: those leave out the LISTEN callbacks it takes.
  const driverOptions = {
    path,
    max: options.max ?? 10,
    types: { int8: INT8, textArray: TEXT_ARRAY, int8Array: INT8_ARRAY },
    fetch_types: false,
    // Notices (e.g. "relation already exists, skipping") are not for the operator's log.
    onnotice: () => undefined,
    connect_timeout: 10,
    connection: { application_name: options.applicationName ?? 'relay' },
    ...(options.onnotify ? { onnotify: options.onnotify, max_lifetime: null } : {}),
    ...(options.onclose ? { onclose: options.onclose } : {}),
  };
  return postgres(parsed.toString(), driverOptions);
}

/** SQLSTATE of an error the server sent, or the driver's own code. */
export const errorCode = (e: unknown): string | undefined => (e as { code?: string } | null)?.code;

export const isUniqueViolation = (e: unknown): boolean => errorCode(e) === '23505';
export const isForeignKeyViolation = (e: unknown): boolean => errorCode(e) === '23503';
/** A deadlock or serialisation failure between nodes: the transaction can simply run again. */
export const isRetryable = (e: unknown): boolean => errorCode(e) === '40P01' || errorCode(e) === '40001';
/** Tries of a retryable statement: deadlocks between nodes are rare and cheap to retry. */
export const MAX_ATTEMPTS = 3;

/**
 * The database cannot be reached or went away mid-query: the driver's connection codes, socket
 * errors, and the server's connection-exception (08) and shutdown (57P0x) classes.
 */
export function isConnectionError(e: unknown): boolean {
  const code = errorCode(e);
  if (code === undefined) return false;
  return /^(CONNECT|CONNECTION_)|^E(CONN|PIPE|TIMEDOUT|HOSTUNREACH|NOTFOUND|NOENT|AI_AGAIN)|^08|^57P0[1-3]$/.test(code);
}

/** Turns a lost database into StoreUnavailable (503), leaving every other error as it is. */
export function asUnavailable(e: unknown): unknown {
  return isConnectionError(e) ? new StoreUnavailable('the database is unreachable; retry shortly', { cause: e }) : e;
}

export interface ListenHandlers {
  notify(channel: string, payload: string): void;
  /** LISTEN is in force again (or for the first time); notifications sent before may have been missed. */
  up(): void;
  /** The LISTEN connection is gone; notifications are being missed until `up`. */
  down(): void;
}

export interface PgListener {
  readonly listening: boolean;
  /** Resolves once LISTEN is first in force (or rejects after `timeoutMs`). */
  ready(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** How soon a lost LISTEN connection is tried again. */
const RELISTEN_MS = 100;

/**
 * A dedicated connection that LISTENs on `channels` and says when it is up and when it is down,
 * which the driver's own `listen` does not: a node must know when to fall back to polling.
 */
export function listenOn(url: string, channels: readonly string[], handlers: ListenHandlers): PgListener {
  let listening = false;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let firstUp: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (firstUp = resolve));
  const conn = openPg(url, {
    max: 1,
    applicationName: 'relay listener',
    onnotify: (channel, payload) => handlers.notify(channel, payload),
    onclose: () => {
      if (closed) return;
      if (listening) {
        listening = false;
        handlers.down();
      }
      retry();
    },
  });
  const retry = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void establish();
    }, RELISTEN_MS);
    timer.unref();
  };
  const establish = async () => {
    try {
      for (const c of channels) await conn.unsafe(`LISTEN "${c}"`);
      if (closed || listening) return;
      listening = true;
      handlers.up();
      firstUp();
    } catch {
      retry();
    }
  };
  void establish();
  return {
    get listening() {
      return listening;
    },
    ready(timeoutMs) {
      return Promise.race([
        first,
        new Promise<void>((_, reject) =>
          setTimeout(() => reject(new Error('LISTEN did not start in time')), timeoutMs).unref(),
        ),
      ]);
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await conn.end({ timeout: 1 });
    },
  };
}
