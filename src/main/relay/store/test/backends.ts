import { afterAll, afterEach, beforeEach } from 'vitest';
import { openPg } from '../pg-client.js';
import { openPgStore } from '../pg-store.js';
import type { RelayStore } from '../store.js';
import { openTempStore } from './temp-store.js';
import { pgMissing, startPgCluster, type PgCluster } from '../../../test-support/pg-cluster.js';

/** A store under test, fresh for each test, on one backend or the other. */
export interface TestStore {
  store: RelayStore;
  /** A statement on a second connection, in the SQL both backends speak; `?` placeholders. */
  rows(text: string, ...params: unknown[]): Promise<Record<string, unknown>[]>;
  cleanup(): Promise<void>;
}

export interface StoreBackend {
  name: 'sqlite' | 'postgres';
  /** why this backend cannot run here; null when it can */
  missing: string | null;
  open(): Promise<TestStore>;
}

let cluster: PgCluster | null = null;
/** One throw-away PostgreSQL cluster per test file (removed after the file, or when its process exits). */
export function sharedCluster(): PgCluster {
  cluster ??= startPgCluster();
  return cluster;
}

/** Stops and removes the file's cluster, if it made one. */
export function destroySharedCluster(): void {
  cluster?.destroy();
  cluster = null;
  database = null;
}

const sqlite: StoreBackend = {
  name: 'sqlite',
  missing: null,
  async open() {
    const t = openTempStore();
    return {
      store: t.store,
      async rows(text, ...params) {
        const s = t.raw().prepare(text);
        if (s.reader) return s.all(...params) as Record<string, unknown>[];
        s.run(...params);
        return [];
      },
      cleanup: t.cleanup,
    };
  },
};

/** Every table of the relay's schema, children before parents. */
const TABLES = [
  'api_keys', 'devices', 'bot_tokens', 'group_invitations', 'group_members', 'chat_groups', 'envelopes', 'queue_usage', 'pending_requests',
  'sent_before', 'contacts', 'entitlements', 'challenges', 'stakes', 'stake_quotes', 'rate_windows', 'accounts',
];

let database: string | null = null;
/**
 * A database per file, emptied before each test: creating one per test cost most of a second
 * (CREATE DATABASE checkpoints, and fsync is on).
 */
async function emptyDatabase(): Promise<string> {
  if (database === null) {
    database = await sharedCluster().createDatabase();
    return database;
  }
  const sql = openPg(database, { max: 1 });
  try {
    await sql.begin(async (tx) => {
      await tx`SET LOCAL synchronous_commit = off`;
      for (const table of TABLES) await tx.unsafe(`DELETE FROM ${table}`);
    });
  } finally {
    await sql.end();
  }
  return database;
}

const postgres: StoreBackend = {
  name: 'postgres',
  missing: pgMissing(),
  async open() {
    const url = await emptyDatabase();
    const store = await openPgStore(url, { maxConnections: 4 });
    const raw = openPg(url, { max: 1 });
    return {
      store,
      async rows(text, ...params) {
        let n = 0;
        return [...(await raw.unsafe(text.replace(/\?/g, () => `$${++n}`), params as never[]))];
      },
      async cleanup() {
        await raw.end();
        await store.close();
      },
    };
  },
};

export const STORE_BACKENDS: readonly StoreBackend[] = [sqlite, postgres];

/** Registers a fresh store per test on the backend; `t.store` is the current one. */
export function useTestStore(backend: StoreBackend): TestStore {
  let current: TestStore | null = null;
  afterAll(destroySharedCluster);
  beforeEach(async (ctx) => {
    if (backend.missing) return ctx.skip(backend.missing);
    current = await backend.open();
  });
  afterEach(async () => {
    await current?.cleanup();
    current = null;
  });
  const now = () => {
    if (!current) throw new Error('no store is open outside a test');
    return current;
  };
  return {
    get store() {
      return now().store;
    },
    rows: (text, ...params) => now().rows(text, ...params),
    cleanup: () => now().cleanup(),
  };
}

