/**
 * The operator's commands on a store: what `relay admin` runs, in the running relay (through its
 * admin socket, so that a change takes effect at once) or, when no relay runs, on its database.
 * Each returns what the command prints on stdout; a refusal the operator should read is an AdminError.
 */
import type { AdminCommand } from '../cli-args.js';
import { isAddress } from '../cli-args.js';
import type { RelayStore } from '../store/store.js';
import { inviteLink, newInviteCode, type RelayAddress } from './invite-codes.js';

/** A refusal the operator should read: printed on stderr, exit 1. */
export class AdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminError';
  }
}

export type StoreCommand = Exclude<AdminCommand, { kind: 'deploy-escrow' | 'rotate-tls-key' }>;

export interface AdminContext {
  now: () => number;
  /** the running relay's address, for invite links; null when no relay runs */
  relay: RelayAddress | null;
  /** removes blob files at once; without it (no relay runs) the relay's next sweep removes them */
  removeBlobs?: (ids: string[]) => Promise<void>;
}

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const json = (value: unknown) => JSON.stringify(value, null, 2);

export async function executeAdmin(store: RelayStore, cmd: StoreCommand, ctx: AdminContext): Promise<string> {
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
      return json({ ...s, oldestQueuedAt: iso(s.oldestQueuedAt) });
    }
    case 'invite-create': {
      const now = ctx.now();
      const code = newInviteCode();
      const row = await store.createInvite({
        code,
        uses: cmd.uses,
        expiresAt: cmd.expiresInMs === null ? null : now + cmd.expiresInMs,
        now,
      });
      return json({
        code,
        // a link needs the relay's address and pin, which only the running relay knows
        link: ctx.relay ? inviteLink(ctx.relay, code) : null,
        uses: row.usesLeft,
        expiresAt: iso(row.expiresAt),
      });
    }
    case 'invite-list':
      return json({
        items: (await store.listInvites()).map((i) => ({
          code: i.code,
          usesLeft: i.usesLeft,
          expiresAt: iso(i.expiresAt),
          revoked: i.revokedAt !== null,
        })),
      });
    case 'invite-revoke':
      if (!(await store.revokeInvite(cmd.code, ctx.now()))) throw new AdminError(`unknown invite code ${cmd.code}`);
      return json({ revoked: true });
    case 'users':
      return json({
        items: (await store.listUsers()).map((u) => ({ ...u, lastSignIn: iso(u.lastSignIn) })),
      });
    case 'suspend':
    case 'unsuspend': {
      const address = await resolveAccount(store, cmd.who);
      const on = cmd.kind === 'suspend';
      if (!(await store.setSuspended(address, on, on ? cmd.reason : null, ctx.now())))
        throw new AdminError(`unknown account ${address}`);
      return json({ address, state: on ? 'suspended' : 'active' });
    }
    case 'delete-account': {
      const address = await resolveAccount(store, cmd.who);
      const deleted = await store.deleteAccount(address);
      if (!deleted) throw new AdminError(`unknown account ${address}`);
      await ctx.removeBlobs?.(deleted.blobIds);
      return json({ address, deleted: true });
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
