/**
 * Operator commands (relay-contract §4). They open the relay's database as a second
 * connection; WAL lets them run beside a running relay, whose next request reads the change.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AdminCommand, AdminOptions } from './cli-args.js';
import { isAddress } from './cli-args.js';
import { openSqliteStore } from './store/sqlite-store.js';
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
  const file = join(opts.dataDir, DB_FILE);
  // opening would create an empty database; a typo in --data must not look like success
  if (!existsSync(file)) throw new AdminError(`no relay database at ${file} (start the relay with --data ${opts.dataDir} first)`);
  let store: RelayStore;
  try {
    store = openSqliteStore(file);
  } catch (err) {
    throw new AdminError(`cannot open ${file}: ${(err as Error).message}`);
  }
  try {
    return await execute(store, opts.command);
  } finally {
    await store.close();
  }
}

async function execute(store: RelayStore, cmd: AdminCommand): Promise<string> {
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
      if (!(await store.revokeEntitlement(address, cmd.entitlement))) throw new AdminError(`${address} does not hold ${cmd.entitlement}`);
      return `${address} no longer holds ${cmd.entitlement}`;
    }
    case 'stats': {
      const s = await store.stats();
      return JSON.stringify({ ...s, oldestQueuedAt: s.oldestQueuedAt === null ? null : new Date(s.oldestQueuedAt).toISOString() }, null, 2);
    }
  }
}

/** An address must belong to an account the relay knows; a handle must be claimed. */
async function resolveAccount(store: RelayStore, who: string): Promise<string> {
  if (isAddress(who)) {
    if (!(await store.getAccount(who))) throw new AdminError(`unknown account ${who} (it has never signed in to this relay)`);
    return who;
  }
  const account = await store.findHandle(who);
  if (!account) throw new AdminError(`unknown handle @${who}`);
  return account.address;
}
