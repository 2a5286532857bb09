import { afterAll, afterEach, beforeEach, inject } from 'vitest';
import { openPg } from '../postgres/pg-client.js';
import { openPgStore } from '../postgres/pg-store.js';
import type { RelayStore } from '../store.js';
import { openTempStore } from './temp-store.js';
import { pgMissing, runPgCluster, startPgCluster, type PgCluster } from '../../../test-support/pg-cluster.js';

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
let own: PgCluster | null = null;
/**
 * The run's PostgreSQL server (fsync off; started by the first file that asks, see
 * pg-cluster.ts), or outside `vitest run` with the project's config, a cluster of the file's
 * own. The file's databases are dropped after it.
 */
export function sharedCluster(): PgCluster {
  if (!cluster) {
    const runDir = inject('pgRunDir');
    cluster = runDir ? runPgCluster(runDir) : startPgCluster({ durable: false });
  }
  return cluster;
}

/** A cluster of the file's own, fsync on: for the tests that stop the server or crash on it. */
export function privateCluster(): PgCluster {
  own ??= startPgCluster();
  return own;
}

/** Drops the file's databases on the shared server and removes its own cluster, if it made them. */
export async function destroySharedCluster(): Promise<void> {
  const [shared, mine] = [cluster, own];
  cluster = own = null;
  database = null;
  await shared?.destroy();
  await mine?.destroy();
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
  'api_keys',
  'devices',
  'bot_tokens',
  'group_invitations',
  'group_members',
  'chat_groups',
  'envelopes',
  'queue_usage',
  'pending_requests',
  'sent_before',
  'contacts',
  'entitlements',
  'challenges',
  'stakes',
  'stake_quotes',
  'rate_windows',
  'accounts',
];

let database: string | null = null;
/**
 * A database per file, emptied before each test: creating one per test cost most of a second
 * (CREATE DATABASE checkpoints) when every file had its own cluster with fsync on.
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
        return [
          ...(await raw.unsafe(
            text.replace(/\?/g, () => `$${++n}`),
            params as never[],
          )),
        ];
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
