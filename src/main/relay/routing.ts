import type { Routed } from '../../shared/api/common.js';
import type { UnknownSenders } from '../../shared/api/account.js';
import type { RoutingFacts } from './store/store.js';

export const DEFAULT_STAKE = '0.01';

/**
 * The anti-spam rules of a direct send (docs/protocol.md §9 Routing), first rule that applies.
 * A block always wins; stake-gate applies to asRequest intros from unknown senders too.
 */
export function routeDirect(f: RoutingFacts): { routed: Routed; stakeRequired?: string } {
  if (f.blockedByRecipient) return { routed: 'blocked' };
  const known = f.allowedByRecipient || f.recipientSentBefore;
  if (f.asRequest) {
    if (!known && f.recipientPolicy === 'stake-gate')
      return { routed: 'stake-gate', stakeRequired: f.recipientStake ?? DEFAULT_STAKE };
    if (!known && f.recipientPolicy === 'block') return { routed: 'blocked' };
    return { routed: 'request' };
  }
  if (known) return { routed: 'inbox' };
  switch (f.recipientPolicy) {
    case 'stake-gate':
      return { routed: 'stake-gate', stakeRequired: f.recipientStake ?? DEFAULT_STAKE };
    case 'block':
      return { routed: 'blocked' };
    default:
      return { routed: 'request' };
  }
}

/** What the added wallet's lists and policy say about being put into a group (docs/protocol.md §12 Groups). */
export interface GroupAddFacts {
  /** the wallet blocks the group's creator or the one adding it */
  blocksCreatorOrAdder: boolean;
  /** the wallet allows the one adding it, or has written to them before */
  knowsAdder: boolean;
  policy: UnknownSenders;
  /** the one adding it has a stake to the wallet that is active or was released (not forfeited as spam) */
  stakePaid: boolean;
  /** false on a relay without a stake chain, where nobody can pay: stake-gate then only invites */
  stakesEnabled: boolean;
}

/**
 * Group adds follow the same consent as a direct send: someone you know puts you in at once,
 * a block (or a `block` policy) refuses, a stake-gate asks a stranger for a stake first (one paid
 * to this wallet opens the contact), and anyone else only invites you.
 */
export function routeGroupAdd(f: GroupAddFacts): 'member' | 'invited' | 'blocked' | 'stake-required' {
  if (f.blocksCreatorOrAdder) return 'blocked';
  if (f.knowsAdder) return 'member';
  if (f.policy === 'block') return 'blocked';
  if (f.policy === 'stake-gate' && f.stakesEnabled && !f.stakePaid) return 'stake-required';
  return 'invited';
}
