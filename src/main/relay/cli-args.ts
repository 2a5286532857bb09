/**
 * Argument parsing for the headless relay (`npm run relay -- ...`). Pure: no I/O, so the
 * forms other tools rely on are checked in one place and fail before anything is opened.
 */
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import type { StakeCurrency } from '../../shared/api/common.js';
import type { StakeChainConfig } from './chain/stake-chain.js';
import { DEFAULT_CONFIG } from './config.js';
import { MAX_HELD_PER_WALLET } from './live/waiters.js';
import { ADDRESS, TYPED_HANDLE, bareHandle } from '../../shared/identity-patterns.js';

export const DEFAULT_HOST = '127.0.0.1';
export const LAN_HOST = '0.0.0.0';
export const DEFAULT_PORT = 8787;
export const DEFAULT_DATA_DIR = './relay-data';
export const DEFAULT_STAKE_CONFIRMATIONS = 2;

export const USAGE = `Usage:
  npm run relay -- [--host <addr>] [--port <n>] [--data <dir>] [options]
  npm run relay -- --lan [--port <n>] [--data <dir>] [options]
  npm run relay -- admin [--data <dir>] <command> [args]
  npm run relay -- --database postgres://user@host/db [--node-id <name>] [options]
  npm run relay -- admin --database postgres://user@host/db <command> [args]

Serve options:
  --host <addr>              interface to bind (default ${DEFAULT_HOST}; ${LAN_HOST} with --lan)
  --port <n>                 TCP port, 0 picks a free one (default ${DEFAULT_PORT})
  --data <dir>               data folder, created if missing; holds relay.db (default ${DEFAULT_DATA_DIR})
  --database <url>           store everything in PostgreSQL instead of <data>/relay.db (default:
                             $RELAY_DATABASE_URL); any number of relays may share one database
                             and serve as one (a cluster). Connect directly, not through a
                             transaction-pooling proxy. The data folder then holds only --lan's
                             TLS files and (without --blob-dir) blob bytes, and the disk guard
                             is off (watch the database's disk)
  --node-id <name>           this node's name in the cluster, shown in pg_stat_activity
                             (default: host name, process id and a random suffix)
  --lan                      serve HTTPS on all interfaces with a self-signed certificate
                             kept in the data folder (tls-key.pem, tls-cert.pem)
  --rate-limit <n>           requests per minute per credential, 0 turns it off (default ${DEFAULT_CONFIG.rateLimit})
  --retention-days <n>       unacked envelopes are dropped after n days (default ${DEFAULT_CONFIG.retentionDays})
  --stake-currency <ETH|CRO> currency of anti-spam stakes (default ${DEFAULT_CONFIG.stakeCurrency})
  --stake-rpc <url>          JSON-RPC endpoint of the stake chain; repeatable, tried in order.
                             With --stake-chain-id and --stake-escrow this turns stakes on
  --stake-chain-id <n>       chain id the escrow lives on (the relay checks the RPC agrees)
  --stake-escrow <0x...>     the RelayStakeEscrow address (its code is checked at start-up)
  --stake-confirmations <n>  blocks deep a deposit must be (default ${DEFAULT_STAKE_CONFIRMATIONS})
  --stake-public-rpc <url>   RPC URL offered to clients in /api/v1/stake-config; repeatable
                             (default: the --stake-rpc URLs that are on loopback)
  --chain-id <n>             Chain ID in sign-in challenges (default ${DEFAULT_CONFIG.chainId})
  --base-url <url>           public URL clients use (default: derived from host and port)
  --allow-host <name>        extra Host header value to accept; repeatable
  --trust-proxy              trust X-Forwarded-For (only behind your own reverse proxy)
  --max-held-pulls <n>       long-poll pulls held open at once; past it 503 + Retry-After (default ${DEFAULT_CONFIG.maxHeldPulls}).
                             One wallet holds at most ${MAX_HELD_PER_WALLET}: its next answers its oldest, empty
  --max-queued <n>           undelivered envelopes per recipient device, per wallet when sealed
                             to no device; sends past it are 429 recipient-full (default ${DEFAULT_CONFIG.maxQueued})
  --max-queued-mib <n>       MiB of undelivered ciphertext, same scope (default ${DEFAULT_CONFIG.maxQueuedMib}).
                             Contact requests (strangers' envelopes) fill at most half of either;
                             past it 429 requests-full, the other half is for contacts and groups
  --max-requests-per-pair <n>
                             undelivered contact-request envelopes and pending group invitations
                             from one sender to one wallet; past it 429 too-many-requests-pending
                             (default ${DEFAULT_CONFIG.maxRequestsPerPair})
  --min-free-disk-mib <n>    sends, group creation and edits, handle claims and minted keys and
                             bot tokens answer 507 storage-full while the data folder's disk has
                             less free; 0 turns the guard off (default ${DEFAULT_CONFIG.minFreeDiskMib})
  --max-groups-per-wallet <n>
                             groups one wallet may create; past it 429 too-many-groups (default ${DEFAULT_CONFIG.maxGroupsPerWallet})
  --max-keys-per-wallet <n>  active API keys per wallet; a sign-in past it is 409 too-many-keys,
                             naming where old keys are revoked (default ${DEFAULT_CONFIG.maxKeysPerWallet})
  --max-blob-mib <n>         largest attachment blob one upload may store, 413 past it (default ${DEFAULT_CONFIG.maxBlobMib})
  --max-blob-storage-mib <n> MiB of unexpired blobs per uploading wallet; 429 blob-quota-full
                             past it (default ${DEFAULT_CONFIG.maxBlobStorageMib})
  --blob-dir <dir>           folder for blob bytes (default <data>/blobs); the nodes of a cluster
                             must all name one shared folder (their metadata is in the database)
  -h, --help                 show this help

Admin commands (act on <data>/relay.db, or on --database, directly; safe beside running relays):
  verify <address|handle>                         mark an account verified
  unverify <address|handle>                       remove the mark
  verify-group <group-id>                         mark a group verified
  unverify-group <group-id>                       remove the mark
  grant <address|handle> <entitlement>            e.g. grant 0xabc... developer-api
  revoke-entitlement <address|handle> <entitlement>
  stats                                           counts as JSON
  deploy-escrow --rpc <url> --private-key-env <VAR>
                                                  deploy the stake escrow with the key in
                                                  environment variable VAR; prints its address

Exit codes: 0 success; 1 runtime or admin failure; 2 bad serve arguments.
`;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ServeOptions {
  host: string;
  /** a PostgreSQL URL: serve as a node of a cluster on it (null or absent: SQLite in dataDir) */
  database?: string | null;
  /** the node's name in the cluster */
  nodeId?: string | null;
  port: number;
  dataDir: string;
  lan: boolean;
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
}

export type AdminCommand =
  | { kind: 'verify' | 'unverify'; who: string }
  | { kind: 'verify-group' | 'unverify-group'; groupId: string }
  | { kind: 'grant' | 'revoke-entitlement'; who: string; entitlement: string }
  | { kind: 'stats' }
  | { kind: 'deploy-escrow'; rpcUrl: string; privateKeyEnv: string };

export interface AdminOptions {
  dataDir: string;
  /** a PostgreSQL URL: act on it instead of <dataDir>/relay.db */
  database?: string | null;
  command: AdminCommand;
}

export type Invocation =
  | { mode: 'help'; topic: 'serve' | 'admin' }
  | { mode: 'serve'; options: ServeOptions }
  | { mode: 'admin'; options: AdminOptions };

/**
 * Splits off the `admin` subcommand; an optional leading `serve` is accepted for symmetry.
 * `env` supplies RELAY_DATABASE_URL when --database is not given.
 */
export function parseInvocation(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): Invocation {
  if (argv[0] === 'admin') return parseAdmin(argv.slice(1), env);
  return parseServe(argv[0] === 'serve' ? argv.slice(1) : argv, env);
}

function parsed<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    // node:util parseArgs throws TypeErrors with clear messages ("Unknown option '--x'")
    if (err instanceof Error && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))
      throw new UsageError(err.message);
    throw err;
  }
}

function parseServe(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Invocation {
  const { values } = parsed(() =>
    parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        data: { type: 'string' },
        database: { type: 'string' },
        'node-id': { type: 'string' },
        lan: { type: 'boolean' },
        'rate-limit': { type: 'string' },
        'retention-days': { type: 'string' },
        'stake-currency': { type: 'string' },
        'stake-rpc': { type: 'string', multiple: true },
        'stake-chain-id': { type: 'string' },
        'stake-escrow': { type: 'string' },
        'stake-confirmations': { type: 'string' },
        'stake-public-rpc': { type: 'string', multiple: true },
        'chain-id': { type: 'string' },
        'base-url': { type: 'string' },
        'allow-host': { type: 'string', multiple: true },
        'trust-proxy': { type: 'boolean' },
        'max-held-pulls': { type: 'string' },
        'max-queued': { type: 'string' },
        'max-queued-mib': { type: 'string' },
        'max-requests-per-pair': { type: 'string' },
        'min-free-disk-mib': { type: 'string' },
        'max-groups-per-wallet': { type: 'string' },
        'max-keys-per-wallet': { type: 'string' },
        'max-blob-mib': { type: 'string' },
        'max-blob-storage-mib': { type: 'string' },
        'blob-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.help) return { mode: 'help', topic: 'serve' };
  const lan = values.lan ?? false;
  const host = values.host ?? (lan ? LAN_HOST : DEFAULT_HOST);
  if (!isHostName(host)) throw new UsageError(`--host: not an IP address or host name: ${JSON.stringify(host)}`);
  return {
    mode: 'serve',
    options: {
      host,
      database: databaseUrl(values.database ?? env.RELAY_DATABASE_URL),
      nodeId: nodeId(values['node-id']),
      port: values.port === undefined ? DEFAULT_PORT : integer('--port', values.port, 0, 65535),
      dataDir: dataDir(values.data),
      lan,
      rateLimit:
        values['rate-limit'] === undefined
          ? DEFAULT_CONFIG.rateLimit
          : integer('--rate-limit', values['rate-limit'], 0, 1_000_000),
      retentionDays:
        values['retention-days'] === undefined
          ? DEFAULT_CONFIG.retentionDays
          : integer('--retention-days', values['retention-days'], 1, 36_500),
      stakeCurrency:
        values['stake-currency'] === undefined ? DEFAULT_CONFIG.stakeCurrency : stakeCurrency(values['stake-currency']),
      stake: stakeChain(values),
      chainId:
        values['chain-id'] === undefined
          ? DEFAULT_CONFIG.chainId
          : integer('--chain-id', values['chain-id'], 1, Number.MAX_SAFE_INTEGER),
      baseUrl: values['base-url'] === undefined ? null : baseUrl(values['base-url']),
      allowedHosts: (values['allow-host'] ?? []).map((h) => {
        if (!isHostName(h))
          throw new UsageError(
            `--allow-host: not an IP address or host name (no scheme, no port): ${JSON.stringify(h)}`,
          );
        return h.toLowerCase();
      }),
      trustProxy: values['trust-proxy'] ?? false,
      maxHeldPulls:
        values['max-held-pulls'] === undefined
          ? DEFAULT_CONFIG.maxHeldPulls
          : integer('--max-held-pulls', values['max-held-pulls'], 1, 1_000_000),
      maxQueued:
        values['max-queued'] === undefined
          ? DEFAULT_CONFIG.maxQueued
          : integer('--max-queued', values['max-queued'], 1, 100_000_000),
      maxQueuedMib:
        values['max-queued-mib'] === undefined
          ? DEFAULT_CONFIG.maxQueuedMib
          : integer('--max-queued-mib', values['max-queued-mib'], 1, 1_048_576),
      maxRequestsPerPair:
        values['max-requests-per-pair'] === undefined
          ? DEFAULT_CONFIG.maxRequestsPerPair
          : integer('--max-requests-per-pair', values['max-requests-per-pair'], 1, 1_000_000),
      minFreeDiskMib:
        values['min-free-disk-mib'] === undefined
          ? DEFAULT_CONFIG.minFreeDiskMib
          : integer('--min-free-disk-mib', values['min-free-disk-mib'], 0, 1_073_741_824),
      maxGroupsPerWallet:
        values['max-groups-per-wallet'] === undefined
          ? DEFAULT_CONFIG.maxGroupsPerWallet
          : integer('--max-groups-per-wallet', values['max-groups-per-wallet'], 1, 1_000_000),
      maxKeysPerWallet:
        values['max-keys-per-wallet'] === undefined
          ? DEFAULT_CONFIG.maxKeysPerWallet
          : integer('--max-keys-per-wallet', values['max-keys-per-wallet'], 1, 1_000_000),
      maxBlobMib:
        values['max-blob-mib'] === undefined
          ? DEFAULT_CONFIG.maxBlobMib
          : integer('--max-blob-mib', values['max-blob-mib'], 1, 4096),
      maxBlobStorageMib:
        values['max-blob-storage-mib'] === undefined
          ? DEFAULT_CONFIG.maxBlobStorageMib
          : integer('--max-blob-storage-mib', values['max-blob-storage-mib'], 1, 1_073_741_824),
      blobDir: values['blob-dir'] === undefined ? null : nonEmptyPath('--blob-dir', values['blob-dir']),
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ENTITLEMENT = /^[a-z0-9][a-z0-9._-]{0,63}$/;

function parseAdmin(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Invocation {
  const { values, positionals } = parsed(() =>
    parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        data: { type: 'string' },
        database: { type: 'string' },
        rpc: { type: 'string' },
        'private-key-env': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.help) return { mode: 'help', topic: 'admin' };
  if (positionals[0] !== 'deploy-escrow' && (values.rpc !== undefined || values['private-key-env'] !== undefined)) {
    throw new UsageError('--rpc and --private-key-env belong to deploy-escrow');
  }
  const [name, ...rest] = positionals;
  const arity = (n: number, form: string) => {
    if (rest.length !== n) throw new UsageError(`usage: admin ${form}`);
  };
  let command: AdminCommand;
  switch (name) {
    case 'verify':
    case 'unverify':
      arity(1, `${name} <address|handle>`);
      command = { kind: name, who: accountRef(rest[0]) };
      break;
    case 'verify-group':
    case 'unverify-group':
      arity(1, `${name} <group-id>`);
      if (!UUID.test(rest[0])) throw new UsageError(`not a group id (uuid): ${JSON.stringify(rest[0])}`);
      command = { kind: name, groupId: rest[0].toLowerCase() };
      break;
    case 'grant':
    case 'revoke-entitlement':
      arity(2, `${name} <address|handle> <entitlement>`);
      if (!ENTITLEMENT.test(rest[1]))
        throw new UsageError(`not an entitlement name (a-z, 0-9, '.', '_', '-'): ${JSON.stringify(rest[1])}`);
      command = { kind: name, who: accountRef(rest[0]), entitlement: rest[1] };
      break;
    case 'stats':
      arity(0, 'stats');
      command = { kind: 'stats' };
      break;
    case 'deploy-escrow':
      arity(0, 'deploy-escrow --rpc <url> --private-key-env <VAR>');
      if (values.rpc === undefined || values['private-key-env'] === undefined)
        throw new UsageError('usage: admin deploy-escrow --rpc <url> --private-key-env <VAR>');
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(values['private-key-env']))
        throw new UsageError(
          `--private-key-env: the NAME of an environment variable, got ${JSON.stringify(values['private-key-env'])}`,
        );
      command = {
        kind: 'deploy-escrow',
        rpcUrl: rpcUrl('--rpc', values.rpc),
        privateKeyEnv: values['private-key-env'],
      };
      break;
    case undefined:
      throw new UsageError('admin: a command is required');
    default:
      throw new UsageError(`admin: unknown command ${JSON.stringify(name)}`);
  }
  return {
    mode: 'admin',
    options: {
      dataDir: dataDir(values.data),
      database: databaseUrl(values.database ?? env.RELAY_DATABASE_URL),
      command,
    },
  };
}

/** An address (lower-cased) or a handle (lower-cased, without a leading @). */
function accountRef(s: string): string {
  if (ADDRESS.test(s)) return s.toLowerCase();
  if (TYPED_HANDLE.test(s)) return bareHandle(s).toLowerCase();
  throw new UsageError(`not a wallet address (0x + 40 hex) or handle: ${JSON.stringify(s)}`);
}

export function isAddress(s: string): boolean {
  return ADDRESS.test(s);
}

/** A postgres:// or postgresql:// URL; the empty string (an unset variable) means none. */
function databaseUrl(v: string | undefined): string | null {
  if (v === undefined || v.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new UsageError('--database: not a URL (postgres://user@host:5432/database)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new UsageError(`--database: expected a postgres:// URL, got ${url.protocol}//…`);
  return v;
}

function nodeId(v: string | undefined): string | null {
  if (v === undefined) return null;
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(v))
    throw new UsageError(`--node-id: 1 to 64 letters, digits, '.', '_' or '-', got ${JSON.stringify(v)}`);
  return v;
}

function dataDir(v: string | undefined): string {
  return v === undefined ? DEFAULT_DATA_DIR : nonEmptyPath('--data', v);
}

function nonEmptyPath(flag: string, v: string): string {
  if (v.trim() === '') throw new UsageError(`${flag}: empty path`);
  return v;
}

function integer(flag: string, v: string, min: number, max: number): number {
  if (!/^\d+$/.test(v)) throw new UsageError(`${flag}: expected an integer, got ${JSON.stringify(v)}`);
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`${flag}: must be between ${min} and ${max}, got ${v}`);
  return n;
}

function stakeChain(v: {
  'stake-rpc'?: string[];
  'stake-chain-id'?: string;
  'stake-escrow'?: string;
  'stake-confirmations'?: string;
  'stake-public-rpc'?: string[];
}): ServeOptions['stake'] {
  const rpcUrls = v['stake-rpc'] ?? [];
  const given = rpcUrls.length > 0 || v['stake-chain-id'] !== undefined || v['stake-escrow'] !== undefined;
  if (!given) {
    if (v['stake-confirmations'] !== undefined || v['stake-public-rpc'] !== undefined)
      throw new UsageError(
        '--stake-confirmations and --stake-public-rpc need --stake-rpc, --stake-chain-id and --stake-escrow',
      );
    return null;
  }
  if (rpcUrls.length === 0 || v['stake-chain-id'] === undefined || v['stake-escrow'] === undefined) {
    throw new UsageError('stakes need all three of --stake-rpc, --stake-chain-id and --stake-escrow');
  }
  if (!ADDRESS.test(v['stake-escrow']))
    throw new UsageError(`--stake-escrow: not an address (0x + 40 hex): ${JSON.stringify(v['stake-escrow'])}`);
  const urls = rpcUrls.map((u) => rpcUrl('--stake-rpc', u));
  const publicRpcUrls =
    v['stake-public-rpc']?.map((u) => rpcUrl('--stake-public-rpc', u)) ??
    urls.filter((u) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(u).hostname));
  return {
    rpcUrls: urls,
    chainId: integer('--stake-chain-id', v['stake-chain-id'], 1, Number.MAX_SAFE_INTEGER),
    escrow: v['stake-escrow'].toLowerCase() as `0x${string}`,
    confirmations:
      v['stake-confirmations'] === undefined
        ? DEFAULT_STAKE_CONFIRMATIONS
        : integer('--stake-confirmations', v['stake-confirmations'], 1, 1000),
    publicRpcUrls,
  };
}

function rpcUrl(flag: string, v: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(`${flag}: not a URL: ${JSON.stringify(v)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new UsageError(`${flag}: must be http:// or https://, got ${JSON.stringify(v)}`);
  return v;
}

function stakeCurrency(v: string): StakeCurrency {
  const up = v.toUpperCase();
  if (up === 'ETH' || up === 'CRO') return up;
  throw new UsageError(`--stake-currency: expected ETH or CRO, got ${JSON.stringify(v)}`);
}

function baseUrl(v: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(`--base-url: not a URL: ${JSON.stringify(v)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new UsageError(`--base-url: must be http:// or https://, got ${JSON.stringify(v)}`);
  if (u.search || u.hash || u.username || u.password)
    throw new UsageError(`--base-url: no query, fragment or credentials allowed: ${JSON.stringify(v)}`);
  return u.href.replace(/\/+$/, '');
}

function isHostName(h: string): boolean {
  // a host name, an IPv4 address or a bare IPv6 literal; no scheme, port or path
  return /^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$/.test(h) || isIP(h) === 6;
}
