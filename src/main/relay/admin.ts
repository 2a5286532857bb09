/**
 * Operator commands (docs/protocol.md §16 Operating a relay, docs/operations.md). A relay that
 * runs on the data folder carries them out itself, through its admin socket
 * (moderation/admin-socket.ts), so that a suspension or a revoked invite takes effect at once.
 * When none runs there, they open its database as a second connection: nothing is cached then.
 * With --database they act on a cluster's PostgreSQL database and announce revocations on the
 * cluster's bus, which every node hears.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AdminOptions } from './cli-args.js';
import { AdminError, executeAdmin, type StoreCommand } from './moderation/admin-commands.js';
import { sendToRunningRelay } from './moderation/admin-socket.js';
import { openSqliteStore } from './store/sqlite/sqlite-store.js';
import type { RelayStore } from './store/store.js';

export { AdminError } from './moderation/admin-commands.js';

export const DB_FILE = 'relay.db';

export interface AdminOutcome {
  /** what to print on stdout */
  answer: string;
  /** who carried it out: the running relay, or this process on the database */
  via: 'relay' | 'database';
}

/** Runs one command. */
export async function runAdmin(opts: AdminOptions): Promise<AdminOutcome> {
  if (opts.command.kind === 'deploy-escrow')
    return {
      answer: await deployEscrowCommand(opts.command.rpcUrl, opts.command.privateKeyEnv),
      via: 'database',
    };
  // the TLS files are the data folder's, on one node and on each node of a cluster alike
  if (opts.command.kind === 'rotate-tls-key')
    return { answer: await rotateTlsKeyCommand(opts.dataDir), via: 'database' };
  const command: StoreCommand = opts.command;
  const ctx = { now: Date.now, relay: null };
  if (opts.database) {
    const { openPgStore } = await import('./store/postgres/pg-store.js');
    const { joinClusterBus } = await import('./store/postgres/pg-cluster-bus.js');
    const { withCredentialCache } = await import('./store/credential-cache.js');
    let pg;
    try {
      pg = await openPgStore(opts.database, { maxConnections: 2, nodeId: 'admin' });
    } catch (err) {
      throw new AdminError(`cannot open the database: ${(err as Error).message}`);
    }
    try {
      const bus = await joinClusterBus(pg.sql, opts.database, `admin-${process.pid}`);
      try {
        // through the bus, so that every node drops the suspended wallet's keys and held pulls
        return { answer: await executeAdmin(withCredentialCache(pg, Date.now, bus), command, ctx), via: 'database' };
      } finally {
        await bus.close();
      }
    } finally {
      await pg.close();
    }
  }
  const running = await sendToRunningRelay(opts.dataDir, command);
  if (running !== null) return { answer: running, via: 'relay' };
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
    return { answer: await executeAdmin(store, command, ctx), via: 'database' };
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
