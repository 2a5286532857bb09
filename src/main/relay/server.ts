/**
 * Owns what app.ts leaves out: the data folder, the store file, TLS material, `listen` and
 * the graceful close. The same function serves the headless CLI and an embedding process.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { Server as HttpsServer } from 'node:https';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { createRelay } from './app.js';
import type { ServeOptions } from './cli-args.js';
import type { RelayConfig } from './config.js';
import { reloadConfig, type ReloadOutcome } from './ops/config-reload.js';
import { limitsOf } from './ops/live-config.js';
import type { MetricsListener } from './ops/metrics-server.js';
import type { OnMigrated } from '../sqlite/migrations.js';
import { DB_FILE } from './admin.js';
import { lanIPv4Addresses, type LanCertificate } from './tls/lan-certificate.js';
import { openTlsIdentity } from './tls/relay-tls.js';
import { openSqliteStore } from './store/sqlite/sqlite-store.js';
import { openClusterNode } from './cluster-node.js';
import type { RelayStore } from './store/store.js';
import { startAdminSocket, type AdminSocket } from './moderation/admin-socket.js';
import { pinHex } from './moderation/invite-codes.js';
import { BlobFiles } from './blobs/blob-files.js';

export interface RunningRelay {
  /** loopback URL for tools on this machine (or the bound address when that is not a wildcard) */
  url: string;
  port: number;
  config: RelayConfig;
  /** present when it serves HTTPS (--lan, or --tls-cert and --tls-key); `certificate` follows a rotation */
  lan?: { certificate: LanCertificate; urls: string[] };
  /** Pulls held open right now (long-poll waiters), for tests and tools. */
  heldPulls(): number;
  /** the Prometheus listener's URL (`--metrics-port`), else null */
  metricsUrl: string | null;
  /** Reads the settings again with `read` and puts their limits in force (SIGHUP); logs what it did. */
  reload(read: () => ServeOptions): ReloadOutcome;
  /** Stops taking requests, finishes those in flight, closes the store (WAL checkpointed). */
  close(): Promise<void>;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/** `logger`: where the relay logs (ops/logger.ts); without it nothing is logged. */
export async function startRelayServer(opts: ServeOptions, runtime: { logger?: Logger } = {}): Promise<RunningRelay> {
  const log = runtime.logger;
  // On a cluster the folder holds nothing but --lan's TLS files and, without --blob-dir, the
  // blobs (whose folder the relay makes when it starts).
  if (!opts.database || opts.lan) mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const blobDir = opts.blobDir ?? join(opts.dataDir, 'blobs');
  const tls = await openTlsIdentity(opts, log);
  const scheme = tls ? 'https' : 'http';
  // LAN addresses matter only when the relay is reachable on them
  const lanIps = opts.lan && WILDCARDS.has(opts.host) ? lanIPv4Addresses() : [];
  const localHost = WILDCARDS.has(opts.host) ? '127.0.0.1' : urlHost(opts.host);
  // LAN clients are the ones who read the sign-in message's URI, so it names the first LAN IP
  const derivedBaseUrl = (port: number) => `${scheme}://${lanIps.length > 0 ? lanIps[0] : localHost}:${port}`;

  const onMigrated: OnMigrated = ({ from, to }) =>
    from === to
      ? log?.info({ version: to }, 'database schema is up to date')
      : log?.info({ from, to }, 'database migrated');
  const node = opts.database
    ? await openClusterNode(opts.database, { nodeId: opts.nodeId ?? undefined, onMigrated })
    : null;
  const store: RelayStore = node
    ? node.store
    : openSqliteStore(join(opts.dataDir, DB_FILE), {
        onMigrated,
        snapshotBeforeMigrating: (snapshot) => log?.info(snapshot, 'database snapshot taken before migrating'),
      });
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
        stakeCurrency: opts.stakeCurrency,
        stake: opts.stake ?? null,
        chainId: opts.chainId,
        allowedHosts: [...new Set([...opts.allowedHosts, ...lanIps])],
        trustProxy: opts.trustProxy,
        ...limitsOf(opts),
      };
      // prom-client is loaded only for a relay that serves metrics; a registry per app
      const metrics = opts.metrics ? new (await import('./ops/metrics.js')).RelayMetrics() : undefined;
      const app: FastifyInstance = await createRelay({
        store,
        config,
        ...clustered,
        blobDir,
        https: tls ? { key: tls.current.key, cert: tls.current.cert } : undefined,
        logger: log,
        metrics,
      });
      try {
        await app.listen({ host: opts.host, port: wantedPort, listenTextResolver: (a) => `listening on ${a}` });
      } catch (err) {
        await app.close().catch(() => undefined);
        if (pickPort && (err as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue;
        throw err;
      }
      let metricsListener: MetricsListener | null = null;
      if (metrics && opts.metrics) {
        const { startMetricsListener } = await import('./ops/metrics-server.js');
        metricsListener = await startMetricsListener(metrics, opts.metrics.host, opts.metrics.port).catch(
          async (err: NodeJS.ErrnoException) => {
            await app.close().catch(() => undefined);
            throw new Error(
              `the metrics listener could not start on ${opts.metrics!.host}:${opts.metrics!.port}: ${err.code ?? err.message}`,
            );
          },
        );
      }
      const stopFollowingTls = tls?.follow(app.server as HttpsServer);
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : wantedPort;
      const url = `${scheme}://${localHost}:${port}`;
      // A cluster node without --lan has no data folder; its operator acts through --database.
      let adminSocket: AdminSocket | null = null;
      if (existsSync(opts.dataDir)) {
        adminSocket = await startAdminSocket(
          opts.dataDir,
          app.operatorStore,
          {
            now: Date.now,
            // a getter: the pin an invite link carries follows a rotation of the key
            relay: {
              baseUrl: config.baseUrl,
              get pin() {
                return tls ? pinHex(tls.current.publicKeyPin) : null;
              },
            },
            removeBlobs: async (ids) => {
              const files = new BlobFiles(blobDir);
              for (const id of ids) await files.remove(id);
            },
          },
          log,
        ).catch((err: NodeJS.ErrnoException) => {
          // the relay serves on; `relay admin` then says that it cannot reach it
          log?.warn({ err: err.message }, 'the admin socket could not start');
          return null;
        });
      }
      log?.info(
        {
          url,
          store: node ? 'postgresql' : 'sqlite',
          ...(node ? { nodeId: node.nodeId } : { dataDir: opts.dataDir }),
          ...(metricsListener ? { metrics: metricsListener.url } : {}),
          ...(adminSocket ? { adminSocket: adminSocket.path } : {}),
          configFile: opts.configFile ?? null,
          limits: limitsOf(opts),
        },
        'relay started',
      );
      let closing: Promise<void> | undefined;
      return {
        url,
        port,
        config,
        metricsUrl: metricsListener?.url ?? null,
        reload: (read) =>
          reloadConfig({ live: app.liveConfig, log: log ?? pino({ level: 'silent' }), started: opts, read }),
        lan: tls
          ? {
              get certificate() {
                return tls.current;
              },
              urls: [url, ...lanIps.map((ip) => `${scheme}://${ip}:${port}`)],
            }
          : undefined,
        heldPulls: () => app.heldPulls,
        close: () =>
          (closing ??= (async () => {
            stopFollowingTls?.();
            try {
              await adminSocket?.close();
              await metricsListener?.close();
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
