import type { Routed } from '../../shared/api/common.js';
import type { RoutingFacts } from './store/store.js';

export const DEFAULT_STAKE = '0.01';

/**
 * The anti-spam rules of a direct send (relay-contract §3, §4), first rule that applies.
 * A block always wins; stake-gate applies to asRequest intros from unknown senders too.
 */
export function routeDirect(f: RoutingFacts): { routed: Routed; stakeRequired?: string } {
  if (f.blockedByRecipient) return { routed: 'blocked' };
  const known = f.allowedByRecipient || f.recipientSentBefore;
  if (f.asRequest) {
    if (!known && f.recipientPolicy === 'stake-gate') return { routed: 'stake-gate', stakeRequired: f.recipientStake ?? DEFAULT_STAKE };
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
