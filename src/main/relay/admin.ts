/**
 * Operator commands (docs/protocol.md §16 Operating a relay). They open the relay's database as a second
 * connection; WAL lets them run beside a running relay, whose next request reads the change.
 * With --database they act on a cluster's PostgreSQL database, which every node reads.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AdminCommand, AdminOptions } from './cli-args.js';
import { isAddress } from './cli-args.js';
import { openSqliteStore } from './store/sqlite/sqlite-store.js';
import type { RelayStore } from './store/store.js';

export const DB_FILE = 'relay.db';

/** A refusal the operator should read: printed on stderr, exit 1. */
export class AdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminError';
  }
}

/** Runs one command and returns what to print on stdout. */
export async function runAdmin(opts: AdminOptions): Promise<string> {
  if (opts.command.kind === 'deploy-escrow')
    return deployEscrowCommand(opts.command.rpcUrl, opts.command.privateKeyEnv);
  // the TLS files are the data folder's, on one node and on each node of a cluster alike
  if (opts.command.kind === 'rotate-tls-key') return rotateTlsKeyCommand(opts.dataDir);
  if (opts.database) {
    const { openPgStore } = await import('./store/postgres/pg-store.js');
    let pg: RelayStore;
    try {
      pg = await openPgStore(opts.database, { maxConnections: 1, nodeId: 'admin' });
    } catch (err) {
      throw new AdminError(`cannot open the database: ${(err as Error).message}`);
    }
    try {
      return await execute(pg, opts.command);
    } finally {
      await pg.close();
    }
  }
  const file = join(opts.dataDir, DB_FILE);
  // opening would create an empty database; a typo in --data must not look like success
  if (!existsSync(file))
    throw new AdminError(`no relay database at ${file} (start the relay with --data ${opts.dataDir} first)`);
  let store: RelayStore;
  try {
    store = openSqliteStore(file);
  } catch (err) {
    throw new AdminError(`cannot open ${file}: ${(err as Error).message}`);
  }
  try {
    return await execute(store, opts.command as Exclude<AdminCommand, { kind: 'deploy-escrow' | 'rotate-tls-key' }>);
  } finally {
    await store.close();
  }
}

/** Needs no database: the running relay takes the new pair up from the files. */
async function rotateTlsKeyCommand(dataDir: string): Promise<string> {
  const { rotateTlsKey } = await import('./tls/tls-rotation.js');
  const { TlsIdentityError } = await import('./tls/lan-certificate.js');
  try {
    return JSON.stringify(await rotateTlsKey(dataDir));
  } catch (err) {
    if (err instanceof TlsIdentityError) throw new AdminError(err.message);
    throw err;
  }
}

/** Needs no database: it deploys the committed escrow bytecode and prints the flags to use it. */
async function deployEscrowCommand(rpcUrl: string, privateKeyEnv: string): Promise<string> {
  const key = process.env[privateKeyEnv]?.trim();
  if (!key) throw new AdminError(`environment variable ${privateKeyEnv} is empty or not set`);
  const hex = key.startsWith('0x') ? key : `0x${key}`;
  if (!/^0x[0-9a-fA-F]{64}$/.test(hex))
    throw new AdminError(`${privateKeyEnv} does not hold a private key (32 bytes of hex)`);
  const { deployEscrow } = await import('./chain/deploy-escrow.js');
  let d;
  try {
    d = await deployEscrow(rpcUrl, hex as `0x${string}`);
  } catch (err) {
    throw new AdminError(`deploy-escrow failed: ${(err as Error).message.split('\n')[0]}`);
  }
  return [
    `escrow deployed at ${d.address} on chain ${d.chainId} (transaction ${d.txHash}, ${d.gasUsed} gas)`,
    `serve with: --stake-rpc ${rpcUrl} --stake-chain-id ${d.chainId} --stake-escrow ${d.address}`,
  ].join('\n');
}

async function execute(
  store: RelayStore,
  cmd: Exclude<AdminCommand, { kind: 'deploy-escrow' | 'rotate-tls-key' }>,
): Promise<string> {
  switch (cmd.kind) {
    case 'verify':
    case 'unverify': {
      const address = await resolveAccount(store, cmd.who);
      const on = cmd.kind === 'verify';
      if (!(await store.setVerified(address, on))) throw new AdminError(`unknown account ${address}`);
      return `${address} ${on ? 'verified' : 'no longer verified'}`;
    }
    case 'verify-group':
    case 'unverify-group': {
      const on = cmd.kind === 'verify-group';
      if (!(await store.setGroupVerified(cmd.groupId, on))) throw new AdminError(`unknown group ${cmd.groupId}`);
      return `group ${cmd.groupId} ${on ? 'verified' : 'no longer verified'}`;
    }
    case 'grant': {
      const address = await resolveAccount(store, cmd.who);
      await store.grantEntitlement(address, cmd.entitlement);
      return `${address} granted ${cmd.entitlement}`;
    }
    case 'revoke-entitlement': {
      const address = await resolveAccount(store, cmd.who);
      if (!(await store.revokeEntitlement(address, cmd.entitlement)))
        throw new AdminError(`${address} does not hold ${cmd.entitlement}`);
      return `${address} no longer holds ${cmd.entitlement}`;
    }
    case 'stats': {
      const s = await store.stats();
      return JSON.stringify(
        { ...s, oldestQueuedAt: s.oldestQueuedAt === null ? null : new Date(s.oldestQueuedAt).toISOString() },
        null,
        2,
      );
    }
  }
}

/** An address must belong to an account the relay knows; a handle must be claimed. */
async function resolveAccount(store: RelayStore, who: string): Promise<string> {
  if (isAddress(who)) {
    if (!(await store.getAccount(who)))
      throw new AdminError(`unknown account ${who} (it has never signed in to this relay)`);
    return who;
  }
  const account = await store.findHandle(who);
  if (!account) throw new AdminError(`unknown handle @${who}`);
  return account.address;
}
