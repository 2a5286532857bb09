/**
 * Every setting of `relay serve`, once: its flag, its environment variable and its config-file
 * key all come from this table, so a new flag is one line here (and its parsing in
 * serve-options.ts), and none can be reachable from one source but not the others.
 */
export type SettingKind = 'string' | 'boolean' | 'list';

export const SERVE_SETTINGS = {
  config: 'string',
  host: 'string',
  port: 'string',
  data: 'string',
  database: 'string',
  'node-id': 'string',
  lan: 'boolean',
  'tls-cert': 'string',
  'tls-key': 'string',
  'rate-limit': 'string',
  'retention-days': 'string',
  'stake-currency': 'string',
  'stake-rpc': 'list',
  'stake-chain-id': 'string',
  'stake-escrow': 'string',
  'stake-confirmations': 'string',
  'stake-public-rpc': 'list',
  'chain-id': 'string',
  'base-url': 'string',
  'allow-host': 'list',
  'trust-proxy': 'boolean',
  'max-held-pulls': 'string',
  'max-queued': 'string',
  'max-queued-mib': 'string',
  'max-requests-per-pair': 'string',
  'min-free-disk-mib': 'string',
  'max-groups-per-wallet': 'string',
  'max-keys-per-wallet': 'string',
  'max-blob-mib': 'string',
  'max-blob-storage-mib': 'string',
  'blob-dir': 'string',
  registration: 'string',
  'log-level': 'string',
  'log-format': 'string',
  'metrics-host': 'string',
  'metrics-port': 'string',
} as const satisfies Record<string, SettingKind>;

export type SettingName = keyof typeof SERVE_SETTINGS;

/** The settings a config file may hold: all but the name of the file itself. */
export const FILE_SETTINGS = (Object.keys(SERVE_SETTINGS) as SettingName[]).filter((n) => n !== 'config');

/**
 * `--rate-limit` is RELAY_RATE_LIMIT: RELAY_, then the flag in capitals with `_` for `-`. The one
 * exception, RELAY_DATABASE_URL for `--database`, is the name the relay read before the others.
 */
export function envName(name: SettingName): string {
  return name === 'database' ? 'RELAY_DATABASE_URL' : `RELAY_${name.toUpperCase().replace(/-/g, '_')}`;
}

/** Every variable the relay reads for `serve`, for an embedding process that must not pass them on. */
export const SERVE_ENV_NAMES: readonly string[] = (Object.keys(SERVE_SETTINGS) as SettingName[]).map(envName);

/** node:util parseArgs' options for the serve flags. */
export function serveArgOptions() {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, kind] of Object.entries(SERVE_SETTINGS))
    options[name] = kind === 'list' ? { type: 'string', multiple: true } : { type: kind };
  return options;
}

/** A value as a source gave it, and how to name that source in a refusal. */
export interface Setting {
  value: string | boolean | string[];
  /** `--port`, `RELAY_PORT` or `port in /etc/relay.toml` */
  from: string;
  /** the folder a relative path in it is relative to */
  base: string;
}
