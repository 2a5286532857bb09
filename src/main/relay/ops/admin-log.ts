/**
 * What the log says of an operator command: the command and whom or what it named (an address,
 * a handle, a group id, an entitlement, an invite code), never a credential. deploy-escrow's RPC
 * URL is left out, since providers put API keys in theirs; the private key's variable is named,
 * never read here. The command's process logs it, and so does the running relay that carried it out.
 */
import type { AdminCommand, AdminOptions } from '../cli-args.js';

export function adminTarget(c: AdminCommand): Record<string, unknown> {
  switch (c.kind) {
    case 'verify':
    case 'unverify':
    case 'unsuspend':
    case 'delete-account':
      return { who: c.who };
    case 'suspend':
      return { who: c.who, reason: c.reason };
    case 'verify-group':
    case 'unverify-group':
      return { groupId: c.groupId };
    case 'grant':
    case 'revoke-entitlement':
      return { who: c.who, entitlement: c.entitlement };
    case 'invite-create':
      return { uses: c.uses, expiresInMs: c.expiresInMs };
    case 'invite-revoke':
      return { code: c.code };
    case 'deploy-escrow':
      return { privateKeyEnv: c.privateKeyEnv };
    default:
      return {};
  }
}

/** `via`: whether a running relay carried the command out (`relay`) or its database was changed directly (`database`). */
export function adminAction(
  opts: AdminOptions,
  outcome: 'done' | 'refused',
  via?: 'relay' | 'database',
): Record<string, unknown> {
  return {
    command: opts.command.kind,
    ...adminTarget(opts.command),
    store: opts.database ? 'postgresql' : 'sqlite',
    ...(opts.database ? {} : { dataDir: opts.dataDir }),
    ...(via ? { via } : {}),
    outcome,
  };
}
