import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { registerAjvFormats, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { LIMITS } from '../../shared/api/common.js';
import type { RelayDeps } from './config.js';
import { withCredentialCache } from './store/credential-cache.js';
import { credentialResolver, credentialStillValid, registerAuth } from './http/auth.js';
import { diskGuard } from './http/guards/disk-guard.js';
import {
  clientErrorHandler,
  registerHostGuard,
  registerJsonParser,
  registerResponseHeaders,
} from './http/guards/defences.js';
import {
  frameworkErrors,
  registerClosingAnswer,
  registerErrorHandling,
  registerNotFound,
  type BadRequestBudget,
} from './http/error-shape.js';
import { registerOpenApi } from './http/openapi.js';
import { relayHostnames } from './http/guards/host-header.js';
import { signInSites } from './auth/sign-in-site.js';
import { badRequestBudget, registerRateLimit } from './http/guards/rate-limit.js';
import { validatorCompiler } from './http/validator.js';
import { accountRoutes } from './routes/account.js';
import { envelopeRoutes } from './routes/envelopes.js';
import { groupRoutes } from './routes/groups.js';
import { identityRoutes } from './routes/identity.js';
import { LocalDoorbell, type Doorbell } from './live/doorbell.js';
import { withDoorbell } from './live/ringing-store.js';
import { WaiterRegistry } from './live/waiters.js';
import { stakeRoutes } from './routes/stakes.js';
import { healthRoutes } from './routes/health.js';
import { blobRoutes } from './routes/blobs.js';
import { BlobFiles } from './blobs/blob-files.js';
import { sweepBlobs } from './blobs/blob-sweep.js';
import { createStakeChain } from './chain/stake-chain.js';
import { createStakeService } from './chain/stake-service.js';
import { LiveConfig } from './ops/live-config.js';
import { registerRequestLog } from './ops/request-log.js';
import { watchStore } from './ops/store-watch.js';
import { probeRoutes } from './routes/probes.js';

registerAjvFormats();

declare module 'fastify' {
  interface FastifyInstance {
    /** pulls held open right now */
    readonly heldPulls: number;
    /** every route as registered (path pattern → methods), for 405 answers and the error-shape test */
    readonly routeTable: ReadonlyMap<string, ReadonlySet<string>>;
    /** the limits in force, which a reload changes (ops/live-config.ts) */
    readonly liveConfig: LiveConfig;
    /** the store as the routes use it: an operator's change through it reaches caches and held pulls */
    readonly operatorStore: import('./store/store.js').RelayStore;
  }
}

const HOUR = 60 * 60 * 1000;
/** What a pull turned away at the node's cap of held pulls is told to wait. */
const HELD_PULL_RETRY_AFTER_S = 5;
const MIB = 1024 * 1024;

/**
 * The relay as a Fastify app that never listens: the CLI and the desktop app call `listen`,
 * tests call `listen` on port 0 or `inject`. Closing the app stops the retention sweep; the
 * store belongs to the caller and is closed by it.
 */
export async function createRelay(deps: RelayDeps): Promise<FastifyInstance> {
  const { config } = deps;
  // Limits are read from here at the moment of use, never copied out of `config`, so that a
  // reload reaches every route (ops/live-config.ts).
  const live = deps.live ?? new LiveConfig(config);
  const limits = () => live.current;
  const now = deps.now ?? Date.now;
  // A relay that names a chain refuses to start unless the escrow there is exactly ours.
  const stakeChain = deps.stakeChain ?? (config.stake ? createStakeChain(config.stake) : null);
  if (stakeChain) await stakeChain.verify();
  const doorbell: Doorbell = deps.doorbell ?? new LocalDoorbell();
  const waiters = new WaiterRegistry(
    config.maxHeldPulls,
    (keyId, hold, wallet) => doorbell.held?.(keyId, hold, wallet),
    deps.store.commitsInOrder === true,
  );
  live.onChange((c) => waiters.setMax(c.maxHeldPulls));
  // Watched for the log (a lost database) and the metrics (routed envelopes) when either is on.
  const watched =
    deps.logger || deps.metrics
      ? watchStore(deps.store, { log: deps.logger, onDelivered: deps.metrics?.delivered })
      : deps.store;
  // A revoked credential's held pulls answer 401 at once, here and (through the bus) on every node.
  const store = withDoorbell(
    withCredentialCache(watched, now, deps.revocations, (r) => waiters.revoke(r)),
    doorbell,
  );
  const stops = [
    doorbell.listen((recipients) => waiters.ring(recipients)),
    doorbell.onHeld?.((keyId, hold, outranks) => waiters.heard(keyId, hold, outranks)),
    doorbell.onWalletHeld?.((pull) => waiters.heardWallet(pull)),
    // unknown news (revocations this node may have missed): every held pull looks at its credential again
    deps.revocations?.onRevoked((r) => (r ? waiters.revoke(r) : waiters.wakeAll('recheck'))),
  ];
  const stopListening = () => {
    for (const stop of stops) stop?.();
  };
  // set once the rate limiter is registered (the router's refusals are configured before it)
  let badRequests: BadRequestBudget | null = null;
  const stakes = createStakeService(store, stakeChain, config.stakeCurrency, config.stake?.publicRpcUrls ?? []);
  const app = Fastify({
    // Fastify's own request lines are off: ops/request-log.ts writes one line per request
    // with only what may be logged.
    ...(deps.logger
      ? {
          loggerInstance: deps.logger as FastifyBaseLogger,
          logController: new LogController({ disableRequestLogging: true }),
        }
      : { logger: false }),
    https: deps.https ?? null,
    bodyLimit: LIMITS.bodyMaxBytes,
    // Slow or idle clients cannot hold sockets: whole-request and idle limits.
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    keepAliveTimeout: 5_000,
    forceCloseConnections: 'idle',
    // registerClosingAnswer answers these, in the relay's error shape
    return503OnClosing: false,
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: 200 },
    clientErrorHandler,
    frameworkErrors: frameworkErrors(() => badRequests),
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Read by tests and the bench: how many pulls are held right now.
  app.decorate('heldPulls', { getter: () => waiters.size });
  app.decorate('liveConfig', { getter: () => live });
  app.decorate('operatorStore', { getter: () => store });
  app.server.headersTimeout = 10_000;
  // Node would answer an HTTP/1.1 request without a Host itself, with an empty 400; the Host
  // guard answers it instead, in the relay's shape (400 bad-host).
  (app.server as { requireHostHeader?: boolean }).requireHostHeader = false;
  app.setValidatorCompiler(validatorCompiler);
  // Answers are built field by field by the presenters in http/present.ts, so plain
  // JSON.stringify is safe, and it is faster than fast-json-stringify on these schemas, whose
  // nullable and literal unions it resolves by validating every branch of every item.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  const routes = new Map<string, Set<string>>();
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    const set = routes.get(r.url) ?? new Set<string>();
    for (const m of methods) set.add(m);
    routes.set(r.url, set);
  });
  app.decorate('routeTable', { getter: () => routes });

  const hostAllowed = relayHostnames(config.baseUrl, config.allowedHosts);
  registerHostGuard(app, hostAllowed, {
    baseOrigin: config.baseUrlGiven ? new URL(config.baseUrl).origin : null,
    trustProxy: config.trustProxy,
  });
  registerResponseHeaders(app);
  registerJsonParser(app);
  if (deps.logger) registerRequestLog(app);
  deps.metrics?.instrument(app, store);
  registerErrorHandling(app);
  registerClosingAnswer(app);
  await registerOpenApi(app);
  const resolveCredential = credentialResolver(store);
  if (config.rateLimit > 0) {
    await registerRateLimit(app, () => limits().rateLimit, resolveCredential, deps.rateLimitStore);
    badRequests = badRequestBudget(app);
  }
  registerNotFound(
    app,
    () => routes,
    () => badRequests,
  );
  registerAuth(app, store, resolveCredential, now);

  const sends = {
    limits: {
      get maxQueued() {
        return limits().maxQueued;
      },
      get maxQueuedBytes() {
        return limits().maxQueuedMib * MIB;
      },
      get maxRequestsPerPair() {
        return limits().maxRequestsPerPair;
      },
    },
    checkDisk: diskGuard(deps.dataDir, () => limits().minFreeDiskMib * MIB, now),
  };
  identityRoutes(app, store);
  envelopeRoutes(app, store, {
    now,
    stakeCurrency: config.stakeCurrency,
    stakes,
    live: { waiters, retryAfterSeconds: HELD_PULL_RETRY_AFTER_S, stillValid: credentialStillValid(store) },
    ...sends,
  });
  groupRoutes(app, store, {
    now,
    stakeCurrency: config.stakeCurrency,
    randomUUID,
    stakesEnabled: stakes.enabled,
    get maxGroupsPerWallet() {
      return limits().maxGroupsPerWallet;
    },
    ...sends,
  });
  accountRoutes(app, store, {
    now,
    sites: signInSites({ url: config.baseUrl, given: config.baseUrlGiven }, hostAllowed),
    trustProxy: config.trustProxy,
    chainId: config.chainId,
    get rateLimit() {
      return limits().rateLimit;
    },
    randomUUID,
    stakesEnabled: stakes.enabled,
    get maxKeysPerWallet() {
      return limits().maxKeysPerWallet;
    },
    checkDisk: sends.checkDisk,
    get registration() {
      return limits().registration ?? 'open';
    },
  });
  stakeRoutes(app, store, stakes);
  healthRoutes(app, store);
  probeRoutes(app, store);
  const blobDir = deps.blobDir ?? (deps.dataDir ? join(deps.dataDir, 'blobs') : null);
  const blobFiles = blobDir ? new BlobFiles(blobDir) : null;
  const retentionMs = () => limits().retentionDays * 24 * HOUR;
  await blobRoutes(app, store, {
    now,
    files: blobFiles,
    get maxBlobBytes() {
      return limits().maxBlobMib * MIB;
    },
    get quotaBytes() {
      return limits().maxBlobStorageMib * MIB;
    },
    get retentionMs() {
      return retentionMs();
    },
    checkDisk: sends.checkDisk,
  });

  // Retention: unacked envelopes older than the operator's period go, at start-up and hourly;
  // so do expired blobs (row and file).
  const sweep = () =>
    Promise.all([store.sweep(now() - retentionMs()), blobFiles ? sweepBlobs(store, blobFiles, now()) : 0]).catch(
      (err) => app.log.error({ err }, 'retention sweep failed'),
    );
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    await sweep();
    timer = setInterval(sweep, HOUR);
    timer.unref();
  });
  // Held pulls would keep close() waiting for their whole wait ('idle' only drops idle
  // sockets): answer them, empty, before the server stops.
  app.addHook('preClose', async () => {
    stopListening();
    waiters.close();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });

  return app;
}
