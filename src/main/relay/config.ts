import type { StakeCurrency } from '../../shared/api/common.js';
import type { StakeChain, StakeChainConfig } from './chain/stake-chain.js';

/** Everything an operator can set; the CLI and the desktop app fill it in. */
export interface RelayConfig {
  /** Public base URL, used to derive the allowed Host/Origin values (and as the sign-in site when `baseUrlGiven`). */
  baseUrl: string;
  /**
   * True when the operator named the base URL (`--base-url`): every sign-in message then names
   * it, whatever the request's Host says. False when it was derived from the listen address:
   * messages name the Host the client reached, if it is a plain host[:port] this relay answers for.
   */
  baseUrlGiven: boolean;
  /** Requests per rolling minute per credential; 0 turns the limit off (benchmarks, trusted operators). */
  rateLimit: number;
  retentionDays: number;
  stakeCurrency: StakeCurrency;
  /** The chain and escrow stakes are paid on (docs/protocol.md §13 Stakes); null: no stakes (a LAN relay). */
  stake?: (StakeChainConfig & { publicRpcUrls: string[] }) | null;
  chainId: number;
  /** Extra Host header values accepted besides loopback names and the baseUrl host (e.g. a LAN IP). */
  allowedHosts: string[];
  /** Trust X-Forwarded-For for the sign-in rate-limit key (only behind a reverse proxy the operator runs). */
  trustProxy: boolean;
  /** Held long-poll pulls this node keeps open at once; past it a pull answers 503 with Retry-After (a wallet holds at most 16 whatever this is). */
  maxHeldPulls: number;
  /** Undelivered envelopes per recipient device (per wallet when sealed to no device); 429 recipient-full past it. */
  maxQueued: number;
  /** MiB of undelivered ciphertext, same scope. */
  maxQueuedMib: number;
  /** Undelivered request-routed envelopes and pending group invitations from one sender to one wallet; 429 too-many-requests-pending past it. */
  maxRequestsPerPair: number;
  /** Sends and the other writes (groups, handles, minted keys and tokens) answer 507 storage-full while the data folder has less free space than this (needs `RelayDeps.dataDir`). */
  minFreeDiskMib: number;
  /** Groups one wallet may create; 429 too-many-groups past it. */
  maxGroupsPerWallet: number;
  /** Active (unrevoked) API keys one wallet may have; a sign-in or mint past it is 409 too-many-keys. */
  maxKeysPerWallet: number;
  /** Largest blob one upload may store, in MiB (413 blob-too-large past it). */
  maxBlobMib: number;
  /** MiB of unexpired blobs per uploading wallet (429 blob-quota-full past it). */
  maxBlobStorageMib: number;
  /** Who may sign in for the first time (docs/operations.md, Registration and moderation); absent: open. */
  registration?: import('./store/moderation-rows.js').RegistrationMode;
}

export const DEFAULT_CONFIG: Omit<RelayConfig, 'baseUrl'> = {
  baseUrlGiven: false,
  rateLimit: 120,
  retentionDays: 30,
  stakeCurrency: 'ETH',
  chainId: 1,
  allowedHosts: [],
  trustProxy: false,
  maxHeldPulls: 10_000,
  maxQueued: 10_000,
  maxQueuedMib: 64,
  maxRequestsPerPair: 20,
  minFreeDiskMib: 512,
  maxGroupsPerWallet: 100,
  maxKeysPerWallet: 50,
  maxBlobMib: 25,
  maxBlobStorageMib: 512,
  registration: 'open',
};

export interface RelayDeps {
  store: import('./store/store.js').RelayStore;
  config: RelayConfig;
  /** Clock, injectable so tests can expire challenges and retention without waiting. */
  now?: () => number;
  /** Where the relay logs (ops/logger.ts); no log without it. */
  logger?: import('pino').Logger;
  /** Prometheus metrics (ops/metrics.ts); none without it. */
  metrics?: import('./ops/metrics.js').RelayMetrics;
  /** The limits in force, changed by a reload; by default fixed at `config`'s. */
  live?: import('./ops/live-config.js').LiveConfig;
  /** The stake chain reader; by default built from config.stake (and checked before the relay starts). */
  stakeChain?: StakeChain;
  /** The data folder, whose file system the disk guard watches; no guard without it. */
  dataDir?: string;
  /**
   * Where blob bytes are kept; default `<dataDir>/blobs`. Nodes of a cluster must share one
   * folder. Without either, the blob routes answer 503 blobs-unavailable.
   */
  blobDir?: string;
  /** TLS material for `--lan`; the app then serves HTTPS. */
  https?: { key: string; cert: string };
  /** Wakes held pulls; a clustered store brings one that rings across nodes. Default: in-process. */
  doorbell?: import('./live/doorbell.js').Doorbell;
  /** Empties every node's credential cache on a revocation; a single process needs none. */
  revocations?: import('./store/credential-cache.js').RevocationBus;
  /** The rate limit's counters; a cluster shares them through its database. Default: in-process. */
  rateLimitStore?: new () => import('@fastify/rate-limit').FastifyRateLimitStore;
}
