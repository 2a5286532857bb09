/**
 * Owns what app.ts leaves out: the data folder, the store file, TLS material, `listen` and
 * the graceful close. The same function serves the headless CLI and an embedding process.
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createRelay } from './app.js';
import type { ServeOptions } from './cli-args.js';
import { DEFAULT_CONFIG, type RelayConfig } from './config.js';
import { DB_FILE } from './admin.js';
import { lanIPv4Addresses, loadOrCreateLanCertificate, type LanCertificate } from './lan-certificate.js';
import { openSqliteStore } from './store/sqlite/sqlite-store.js';
import { openClusterNode } from './cluster-node.js';
import type { RelayStore } from './store/store.js';

export interface RunningRelay {
  /** loopback URL for tools on this machine (or the bound address when that is not a wildcard) */
  url: string;
  port: number;
  config: RelayConfig;
  /** present with --lan */
  lan?: { certificate: LanCertificate; urls: string[] };
  /** Pulls held open right now (long-poll waiters), for tests and tools. */
  heldPulls(): number;
  /** Stops taking requests, finishes those in flight, closes the store (WAL checkpointed). */
  close(): Promise<void>;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

export async function startRelayServer(opts: ServeOptions): Promise<RunningRelay> {
  // On a cluster the folder holds nothing but --lan's TLS files and, without --blob-dir, the
  // blobs (whose folder the relay makes when it starts).
  if (!opts.database || opts.lan) mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const blobDir = opts.blobDir ?? join(opts.dataDir, 'blobs');
  const scheme = opts.lan ? 'https' : 'http';
  // LAN addresses matter only when the relay is reachable on them
  const lanIps = opts.lan && WILDCARDS.has(opts.host) ? lanIPv4Addresses() : [];
  const localHost = WILDCARDS.has(opts.host) ? '127.0.0.1' : urlHost(opts.host);
  // LAN clients are the ones who read the sign-in message's URI, so it names the first LAN IP
  const derivedBaseUrl = (port: number) => `${scheme}://${lanIps.length > 0 ? lanIps[0] : localHost}:${port}`;
  const certificate = opts.lan ? await loadOrCreateLanCertificate(opts.dataDir) : undefined;

  const node = opts.database ? await openClusterNode(opts.database, { nodeId: opts.nodeId ?? undefined }) : null;
  const store: RelayStore = node ? node.store : openSqliteStore(join(opts.dataDir, DB_FILE));
  const clustered = node
    ? { doorbell: node.doorbell, revocations: node.revocations, rateLimitStore: node.rateLimitStore }
    : { dataDir: opts.dataDir };
  const closeStore = () => (node ? node.close() : store.close());
  try {
    // The app bakes its base URL (sign-in URI, OpenAPI servers) in when it is built, so a
    // derived URL needs the real port first: pick a free one, and pick again in the unlikely
    // case that another process takes it in between.
    const pickPort = opts.port === 0 && opts.baseUrl === null;
    for (let attempt = 1; ; attempt++) {
      const wantedPort = pickPort ? await freePort(opts.host) : opts.port;
      const config: RelayConfig = {
        baseUrl: opts.baseUrl ?? derivedBaseUrl(wantedPort),
        baseUrlGiven: opts.baseUrl !== null,
        rateLimit: opts.rateLimit,
        retentionDays: opts.retentionDays,
        stakeCurrency: opts.stakeCurrency,
        stake: opts.stake ?? null,
        chainId: opts.chainId,
        allowedHosts: [...new Set([...opts.allowedHosts, ...lanIps])],
        trustProxy: opts.trustProxy,
        maxHeldPulls: opts.maxHeldPulls ?? DEFAULT_CONFIG.maxHeldPulls,
        maxQueued: opts.maxQueued ?? DEFAULT_CONFIG.maxQueued,
        maxQueuedMib: opts.maxQueuedMib ?? DEFAULT_CONFIG.maxQueuedMib,
        maxRequestsPerPair: opts.maxRequestsPerPair ?? DEFAULT_CONFIG.maxRequestsPerPair,
        minFreeDiskMib: opts.minFreeDiskMib ?? DEFAULT_CONFIG.minFreeDiskMib,
        maxGroupsPerWallet: opts.maxGroupsPerWallet ?? DEFAULT_CONFIG.maxGroupsPerWallet,
        maxKeysPerWallet: opts.maxKeysPerWallet ?? DEFAULT_CONFIG.maxKeysPerWallet,
        maxBlobMib: opts.maxBlobMib ?? DEFAULT_CONFIG.maxBlobMib,
        maxBlobStorageMib: opts.maxBlobStorageMib ?? DEFAULT_CONFIG.maxBlobStorageMib,
      };
      const app: FastifyInstance = await createRelay({
        store,
        config,
        ...clustered,
        blobDir,
        https: certificate ? { key: certificate.key, cert: certificate.cert } : undefined,
      });
      try {
        await app.listen({ host: opts.host, port: wantedPort });
      } catch (err) {
        await app.close().catch(() => undefined);
        if (pickPort && (err as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue;
        throw err;
      }
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : wantedPort;
      const url = `${scheme}://${localHost}:${port}`;
      let closing: Promise<void> | undefined;
      return {
        url,
        port,
        config,
        lan: certificate ? { certificate, urls: [url, ...lanIps.map((ip) => `${scheme}://${ip}:${port}`)] } : undefined,
        heldPulls: () => app.heldPulls,
        close: () =>
          (closing ??= (async () => {
            try {
              // stops accepting, lets requests in flight finish, drops idle keep-alive sockets
              await app.close();
            } finally {
              await closeStore();
            }
          })()),
      };
    }
  } catch (err) {
    await closeStore().catch(() => undefined);
    throw err;
  }
}

/** A port that is free on `host` right now. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ host, port: 0, exclusive: true }, () => {
      const a = probe.address();
      probe.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port assigned'))));
    });
  });
}

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
