import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Doorbell } from './live/doorbell.js';
import type { RevocationBus } from './store/credential-cache.js';
import { defaultNodeId, joinClusterBus } from './store/postgres/pg-cluster-bus.js';
import { pgRateLimitStore } from './store/postgres/pg-rate-limit.js';
import { openPgStore, type PgRelayStore } from './store/postgres/pg-store.js';
import type { OnMigrated } from '../sqlite/migrations.js';

/** What createRelay needs to run as one node of a cluster on a PostgreSQL database. */
export interface ClusterNodeDeps {
  store: PgRelayStore;
  doorbell: Doorbell;
  revocations: RevocationBus;
  rateLimitStore: new () => FastifyRateLimitStore;
  nodeId: string;
  /** Stops listening and closes the store (after the app has closed). */
  close(): Promise<void>;
}

/**
 * Opens (and migrates, once for the whole cluster) the database and joins the cluster's
 * notifications: the doorbell, the revocations and the shared rate limit.
 */
export async function openClusterNode(
  url: string,
  options: { nodeId?: string; maxConnections?: number; onMigrated?: OnMigrated } = {},
): Promise<ClusterNodeDeps> {
  const nodeId = options.nodeId ?? defaultNodeId();
  const store = await openPgStore(url, {
    nodeId,
    maxConnections: options.maxConnections,
    onMigrated: options.onMigrated,
  });
  try {
    const bus = await joinClusterBus(store.sql, url, nodeId);
    return {
      store,
      doorbell: bus,
      revocations: bus,
      rateLimitStore: pgRateLimitStore(store.sql),
      nodeId,
      async close() {
        await bus.close();
        await store.close();
      },
    };
  } catch (e) {
    await store.close();
    throw e;
  }
}
