/**
 * The operator commands' arguments (`relay admin <command>`). Where the data is comes from
 * `--data` / `--database`, RELAY_DATA / RELAY_DATABASE_URL or the `data` / `database` keys of
 * `--config`, the same sources and order as serving, so one config file serves both.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_DATA_DIR, UsageError, accountRef, databaseUrl, integer, nonEmptyPath, rpcUrl } from './arg-values.js';
import { KNOWN_ENTITLEMENTS, inviteCodeRef, inviteLifetime } from './moderation-args.js';
import type { ReadText } from './config-file.js';
import { gatherSettings } from './setting-sources.js';
import { absolutePath, type Env } from './user-directory.js';

export type AdminCommand =
  | { kind: 'verify' | 'unverify'; who: string }
  | { kind: 'verify-group' | 'unverify-group'; groupId: string }
  | { kind: 'grant' | 'revoke-entitlement'; who: string; entitlement: string }
  | { kind: 'stats' }
  | { kind: 'invite-create'; uses: number; expiresInMs: number | null }
  | { kind: 'invite-list' }
  | { kind: 'invite-revoke'; code: string }
  | { kind: 'users' }
  | { kind: 'suspend'; who: string; reason: string | null }
  | { kind: 'unsuspend'; who: string }
  | { kind: 'delete-account'; who: string }
  | { kind: 'rotate-tls-key' }
  | { kind: 'deploy-escrow'; rpcUrl: string; privateKeyEnv: string };

/** Flags that belong to one command each. */
interface CommandFlags {
  rpc?: string;
  'private-key-env'?: string;
  uses?: string;
  expires?: string;
  reason?: string;
}
const OWNED_FLAGS: Array<[flag: keyof CommandFlags, command: string]> = [
  ['rpc', 'deploy-escrow'],
  ['private-key-env', 'deploy-escrow'],
  ['uses', 'invite create'],
  ['expires', 'invite create'],
  ['reason', 'suspend'],
];

export interface AdminOptions {
  dataDir: string;
  /** a PostgreSQL URL: act on it instead of <dataDir>/relay.db */
  database?: string | null;
  command: AdminCommand;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ENTITLEMENT = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** node:util parseArgs' refusals ("Unknown option '--x'") as UsageErrors. */
export function parsed<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof Error && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))
      throw new UsageError(err.message);
    throw err;
  }
}

/** null: `--help` was asked for. */
export function parseAdmin(
  argv: readonly string[],
  env: Env,
  io: { userDir: string; readText: ReadText },
): AdminOptions | null {
  const { values, positionals } = parsed(() =>
    parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        data: { type: 'string' },
        database: { type: 'string' },
        config: { type: 'string' },
        rpc: { type: 'string' },
        'private-key-env': { type: 'string' },
        uses: { type: 'string' },
        expires: { type: 'string' },
        reason: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.help) return null;
  const named = positionals[0] === 'invite' ? `invite ${positionals[1] ?? ''}` : positionals[0];
  for (const [flag, command] of OWNED_FLAGS)
    if (values[flag] !== undefined && named !== command) throw new UsageError(`--${flag} belongs to ${command}`);
  const command = adminCommand(positionals, values);
  const { settings } = gatherSettings({
    flags: { data: values.data, database: values.database, config: values.config },
    env,
    userDir: io.userDir,
    readText: io.readText,
    only: ['data', 'database'],
  });
  const data = settings.get('data');
  const database = settings.get('database');
  return {
    dataDir: data
      ? absolutePath(data.base, nonEmptyPath(data.from, data.value as string))
      : absolutePath(io.userDir, DEFAULT_DATA_DIR),
    database: database ? databaseUrl(database.value as string, database.from) : null,
    command,
  };
}

function adminCommand(positionals: string[], values: CommandFlags): AdminCommand {
  const [name, ...rest] = positionals;
  const arity = (n: number, form: string) => {
    if (rest.length !== n) throw new UsageError(`usage: admin ${form}`);
  };
  switch (name) {
    case 'verify':
    case 'unverify':
      arity(1, `${name} <address|handle>`);
      return { kind: name, who: accountRef(rest[0]) };
    case 'verify-group':
    case 'unverify-group':
      arity(1, `${name} <group-id>`);
      if (!UUID.test(rest[0])) throw new UsageError(`not a group id (uuid): ${JSON.stringify(rest[0])}`);
      return { kind: name, groupId: rest[0].toLowerCase() };
    case 'grant':
    case 'revoke-entitlement':
      arity(2, `${name} <address|handle> <entitlement>`);
      if (!ENTITLEMENT.test(rest[1]))
        throw new UsageError(`not an entitlement name (a-z, 0-9, '.', '_', '-'): ${JSON.stringify(rest[1])}`);
      // Revoking takes any name, so that one granted before names were checked can still go.
      if (name === 'grant' && !KNOWN_ENTITLEMENTS.includes(rest[1]))
        throw new UsageError(
          `unknown entitlement ${JSON.stringify(rest[1])}: this relay knows ${KNOWN_ENTITLEMENTS.join(', ')}`,
        );
      return { kind: name, who: accountRef(rest[0]), entitlement: rest[1] };
    case 'invite':
      return inviteCommand(rest, values);
    case 'users':
      arity(0, 'users');
      return { kind: 'users' };
    case 'suspend':
      arity(1, 'suspend <address|@handle> [--reason TEXT]');
      if (values.reason !== undefined && (values.reason.trim() === '' || values.reason.length > 500))
        throw new UsageError('--reason: 1 to 500 characters');
      return { kind: 'suspend', who: accountRef(rest[0]), reason: values.reason?.trim() ?? null };
    case 'unsuspend':
      arity(1, 'unsuspend <address|@handle>');
      return { kind: 'unsuspend', who: accountRef(rest[0]) };
    case 'delete-account':
      arity(1, 'delete-account <address|@handle>');
      return { kind: 'delete-account', who: accountRef(rest[0]) };
    case 'stats':
      arity(0, 'stats');
      return { kind: 'stats' };
    case 'rotate-tls-key':
      arity(0, 'rotate-tls-key');
      return { kind: 'rotate-tls-key' };
    case 'deploy-escrow':
      arity(0, 'deploy-escrow --rpc <url> --private-key-env <VAR>');
      if (values.rpc === undefined || values['private-key-env'] === undefined)
        throw new UsageError('usage: admin deploy-escrow --rpc <url> --private-key-env <VAR>');
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(values['private-key-env']))
        throw new UsageError(
          `--private-key-env: the NAME of an environment variable, got ${JSON.stringify(values['private-key-env'])}`,
        );
      return { kind: 'deploy-escrow', rpcUrl: rpcUrl('--rpc', values.rpc), privateKeyEnv: values['private-key-env'] };
    case undefined:
      throw new UsageError('admin: a command is required');
    default:
      throw new UsageError(`admin: unknown command ${JSON.stringify(name)}`);
  }
}

function inviteCommand(rest: string[], values: CommandFlags): AdminCommand {
  const [verb, ...args] = rest;
  switch (verb) {
    case 'create':
      if (args.length !== 0) throw new UsageError('usage: admin invite create [--uses N] [--expires 7d]');
      return {
        kind: 'invite-create',
        uses: values.uses === undefined ? 1 : integer('--uses', values.uses, 1, 10_000),
        expiresInMs: inviteLifetime(values.expires),
      };
    case 'list':
      if (args.length !== 0) throw new UsageError('usage: admin invite list');
      return { kind: 'invite-list' };
    case 'revoke':
      if (args.length !== 1) throw new UsageError('usage: admin invite revoke <code>');
      return { kind: 'invite-revoke', code: inviteCodeRef(args[0]) };
    default:
      throw new UsageError('usage: admin invite create|list|revoke');
  }
}
