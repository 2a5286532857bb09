/**
 * What the log says of an operator command: the command and whom or what it named (an address,
 * a handle, a group id, an entitlement), never a credential. deploy-escrow's RPC URL is left
 * out, since providers put API keys in theirs; the private key's variable is named, never read here.
 */
import type { AdminOptions } from '../cli-args.js';

export function adminAction(opts: AdminOptions, outcome: 'done' | 'refused'): Record<string, unknown> {
  const c = opts.command;
  const target =
    c.kind === 'verify' || c.kind === 'unverify'
      ? { who: c.who }
      : c.kind === 'verify-group' || c.kind === 'unverify-group'
        ? { groupId: c.groupId }
        : c.kind === 'grant' || c.kind === 'revoke-entitlement'
          ? { who: c.who, entitlement: c.entitlement }
          : c.kind === 'deploy-escrow'
            ? { privateKeyEnv: c.privateKeyEnv }
            : {};
  return {
    command: c.kind,
    ...target,
    store: opts.database ? 'postgresql' : 'sqlite',
    ...(opts.database ? {} : { dataDir: opts.dataDir }),
    outcome,
  };
}
