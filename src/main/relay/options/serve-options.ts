/**
 * The serve settings, checked and with their defaults: what `startRelayServer` runs on. Each
 * value comes from the highest source that has it (setting-sources.ts); a refusal names that
 * source (`--port`, `RELAY_PORT`, `port in relay.toml`).
 */
import type { StakeCurrency } from '../../../shared/api/common.js';
import { ADDRESS } from '../../../shared/identity-patterns.js';
import type { StakeChainConfig } from '../chain/stake-chain.js';
import { REGISTRATION_MODES, type RegistrationMode } from '../store/moderation-rows.js';
import { DEFAULT_CONFIG } from '../config.js';
import {
  DEFAULT_DATA_DIR,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_STAKE_CONFIRMATIONS,
  LAN_HOST,
  UsageError,
  baseUrl,
  databaseUrl,
  integer,
  isHostName,
  nodeId,
  nonEmptyPath,
  oneOf,
  rpcUrl,
  stakeCurrency,
} from './arg-values.js';
import type { Setting, SettingName } from './serve-flags.js';
import { absolutePath } from './user-directory.js';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface ServeOptions {
  host: string;
  /** a PostgreSQL URL: serve as a node of a cluster on it (null or absent: SQLite in dataDir) */
  database?: string | null;
  /** the node's name in the cluster */
  nodeId?: string | null;
  port: number;
  /** absolute when it came from the command line (relative ones are resolved where the user stood) */
  dataDir: string;
  lan: boolean;
  /** the operator's own certificate and key (PEM): served over HTTPS, read and never written */
  tlsCert?: string | null;
  tlsKey?: string | null;
  rateLimit: number;
  retentionDays: number;
  stakeCurrency: StakeCurrency;
  /** null or absent: no stakes */
  stake?: (StakeChainConfig & { publicRpcUrls: string[] }) | null;
  chainId: number;
  /** null: derive from the address the relay listens on */
  baseUrl: string | null;
  allowedHosts: string[];
  trustProxy: boolean;
  /** default DEFAULT_CONFIG.maxHeldPulls */
  maxHeldPulls?: number;
  /** docs/protocol.md §4 quotas; each defaults to DEFAULT_CONFIG's */
  maxQueued?: number;
  maxQueuedMib?: number;
  maxRequestsPerPair?: number;
  minFreeDiskMib?: number;
  /** docs/protocol.md, Limits; each defaults to DEFAULT_CONFIG's */
  maxGroupsPerWallet?: number;
  maxKeysPerWallet?: number;
  /** docs/protocol.md §14; default DEFAULT_CONFIG's */
  maxBlobMib?: number;
  maxBlobStorageMib?: number;
  /** null or absent: <dataDir>/blobs */
  blobDir?: string | null;
  /** who may sign in for the first time; default open (a reload changes it) */
  registration?: RegistrationMode;
  /** default info */
  logLevel?: LogLevel;
  /** null or absent: JSON event lines after a plain `relay listening on <url>` banner */
  logFormat?: LogFormat | null;
  /** the opt-in Prometheus listener; null or absent: none */
  metrics?: { host: string; port: number } | null;
  /** the config file the settings were read from (absolute), re-read on SIGHUP */
  configFile?: string | null;
}

type Get = (name: SettingName) => Setting | undefined;

/** Builds the options from gathered settings; `userDir` anchors the default data folder. */
export function serveOptions(
  settings: ReadonlyMap<SettingName, Setting>,
  userDir: string,
  configFile: string | null,
): ServeOptions {
  const get: Get = (name) => settings.get(name);
  const str = (name: SettingName): { v: string; from: string; base: string } | undefined => {
    const s = get(name);
    return s === undefined ? undefined : { v: s.value as string, from: s.from, base: s.base };
  };
  const int = (name: SettingName, fallback: number, min: number, max: number): number => {
    const s = str(name);
    return s === undefined ? fallback : integer(s.from, s.v, min, max);
  };
  const bool = (name: SettingName): boolean => (get(name)?.value as boolean | undefined) ?? false;
  const path = (name: SettingName): string | null => {
    const s = str(name);
    return s === undefined ? null : absolutePath(s.base, nonEmptyPath(s.from, s.v));
  };

  const lan = bool('lan');
  const hostSetting = str('host');
  const host = hostSetting?.v ?? (lan ? LAN_HOST : DEFAULT_HOST);
  if (!isHostName(host))
    throw new UsageError(`${hostSetting?.from ?? '--host'}: not an IP address or host name: ${JSON.stringify(host)}`);
  const database = str('database');
  const node = str('node-id');
  const currency = str('stake-currency');
  const base = str('base-url');
  const allow = get('allow-host');
  const tlsCert = path('tls-cert');
  const tlsKey = path('tls-key');
  if ((tlsCert === null) !== (tlsKey === null))
    throw new UsageError(
      `${(get('tls-cert') ?? get('tls-key'))!.from} needs its pair: --tls-cert and --tls-key go together`,
    );
  return {
    host,
    database: database ? databaseUrl(database.v, database.from) : null,
    nodeId: node ? nodeId(node.v, node.from) : null,
    port: int('port', DEFAULT_PORT, 0, 65535),
    dataDir: path('data') ?? absolutePath(userDir, DEFAULT_DATA_DIR),
    lan,
    tlsCert,
    tlsKey,
    rateLimit: int('rate-limit', DEFAULT_CONFIG.rateLimit, 0, 1_000_000),
    retentionDays: int('retention-days', DEFAULT_CONFIG.retentionDays, 1, 36_500),
    stakeCurrency: currency ? stakeCurrency(currency.v, currency.from) : DEFAULT_CONFIG.stakeCurrency,
    stake: stakeChain(get),
    chainId: int('chain-id', DEFAULT_CONFIG.chainId, 1, Number.MAX_SAFE_INTEGER),
    baseUrl: base ? baseUrl(base.v, base.from) : null,
    allowedHosts: ((allow?.value as string[] | undefined) ?? []).map((h) => {
      if (!isHostName(h))
        throw new UsageError(
          `${allow!.from}: not an IP address or host name (no scheme, no port): ${JSON.stringify(h)}`,
        );
      return h.toLowerCase();
    }),
    trustProxy: bool('trust-proxy'),
    maxHeldPulls: int('max-held-pulls', DEFAULT_CONFIG.maxHeldPulls, 1, 1_000_000),
    maxQueued: int('max-queued', DEFAULT_CONFIG.maxQueued, 1, 100_000_000),
    maxQueuedMib: int('max-queued-mib', DEFAULT_CONFIG.maxQueuedMib, 1, 1_048_576),
    maxRequestsPerPair: int('max-requests-per-pair', DEFAULT_CONFIG.maxRequestsPerPair, 1, 1_000_000),
    minFreeDiskMib: int('min-free-disk-mib', DEFAULT_CONFIG.minFreeDiskMib, 0, 1_073_741_824),
    maxGroupsPerWallet: int('max-groups-per-wallet', DEFAULT_CONFIG.maxGroupsPerWallet, 1, 1_000_000),
    maxKeysPerWallet: int('max-keys-per-wallet', DEFAULT_CONFIG.maxKeysPerWallet, 1, 1_000_000),
    maxBlobMib: int('max-blob-mib', DEFAULT_CONFIG.maxBlobMib, 1, 4096),
    maxBlobStorageMib: int('max-blob-storage-mib', DEFAULT_CONFIG.maxBlobStorageMib, 1, 1_073_741_824),
    blobDir: path('blob-dir'),
    registration: pick(get('registration'), REGISTRATION_MODES) ?? 'open',
    logLevel: pick(get('log-level'), LOG_LEVELS) ?? 'info',
    logFormat: pick(get('log-format'), LOG_FORMATS),
    metrics: metricsListener(get),
    configFile,
  };
}

function pick<T extends string>(s: Setting | undefined, allowed: readonly T[]): T | null {
  return s === undefined ? null : oneOf(s.from, s.value as string, allowed);
}

function metricsListener(get: Get): ServeOptions['metrics'] {
  const host = get('metrics-host');
  const port = get('metrics-port');
  if (port === undefined) {
    if (host !== undefined) throw new UsageError(`${host.from} needs a metrics port (--metrics-port)`);
    return null;
  }
  const h = (host?.value as string | undefined) ?? DEFAULT_HOST;
  if (!isHostName(h)) throw new UsageError(`${host!.from}: not an IP address or host name: ${JSON.stringify(h)}`);
  return { host: h, port: integer(port.from, port.value as string, 0, 65535) };
}

function stakeChain(get: Get): ServeOptions['stake'] {
  const rpc = get('stake-rpc');
  const chain = get('stake-chain-id');
  const escrow = get('stake-escrow');
  const confirmations = get('stake-confirmations');
  const publicRpc = get('stake-public-rpc');
  const rpcUrls = (rpc?.value as string[] | undefined) ?? [];
  const given = rpcUrls.length > 0 || chain !== undefined || escrow !== undefined;
  if (!given) {
    if (confirmations !== undefined || publicRpc !== undefined)
      throw new UsageError(
        '--stake-confirmations and --stake-public-rpc need --stake-rpc, --stake-chain-id and --stake-escrow',
      );
    return null;
  }
  if (rpcUrls.length === 0 || chain === undefined || escrow === undefined) {
    throw new UsageError('stakes need all three of --stake-rpc, --stake-chain-id and --stake-escrow');
  }
  const escrowAddress = escrow.value as string;
  if (!ADDRESS.test(escrowAddress))
    throw new UsageError(`${escrow.from}: not an address (0x + 40 hex): ${JSON.stringify(escrowAddress)}`);
  const urls = rpcUrls.map((u) => rpcUrl(rpc!.from, u));
  const publicRpcUrls =
    (publicRpc?.value as string[] | undefined)?.map((u) => rpcUrl(publicRpc!.from, u)) ??
    urls.filter((u) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(u).hostname));
  return {
    rpcUrls: urls,
    chainId: integer(chain.from, chain.value as string, 1, Number.MAX_SAFE_INTEGER),
    escrow: escrowAddress.toLowerCase() as `0x${string}`,
    confirmations:
      confirmations === undefined
        ? DEFAULT_STAKE_CONFIRMATIONS
        : integer(confirmations.from, confirmations.value as string, 1, 1000),
    publicRpcUrls,
  };
}
