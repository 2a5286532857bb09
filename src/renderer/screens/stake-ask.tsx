import { useEffect, useState } from 'react';
import type { ChatMessage } from '../../shared/domain.js';
import { Amount } from '../components/amount.js';
import { FormError } from '../components/form-error.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

/**
 * Under a message a stake gate held back: what the recipient asks, in plain words, with
 * Pay & send (a deposit from this wallet, then the message goes out with it) or Cancel.
 */
export function StakeAsk({ m, peerName }: { m: ChatMessage; peerName: string }) {
  const chain = useStore((s) => s.stakes.chain);
  const loadStakeChain = useStore((s) => s.loadStakeChain);
  const payStake = useStore((s) => s.payStake);
  const pay = useAction(payStake);
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    loadStakeChain().catch(() => undefined);
  }, [loadStakeChain]);
  if (dismissed) return null;
  const amount = `${m.stakeRequired ?? '?'} ${m.stakeCurrency ?? 'ETH'}`;
  const days = Math.round((chain?.minLockSeconds ?? 7 * 86_400) / 86_400);
  return (
    <div className="stake-ask" role="group" aria-label={`Stake asked by ${peerName}`}>
      <p>
        {peerName} asks people they don&apos;t know for a refundable {amount} stake; it comes back when they accept, or after {days} days if they ignore you.
      </p>
      {chain?.enabled && (
        <p className="subtle small">{chain.balanceWei !== null ? (
          <>
            Your balance: <Amount wei={chain.balanceWei} currency={chain.currency} />
          </>
        ) : (
          `Balance unknown: ${chain.balanceError ?? ''}`
        )}</p>
      )}
      {pay.busy ? (
        <p className="stake-progress" role="status" aria-busy="true">
          Paying {amount} and waiting for the chain to confirm…
        </p>
      ) : (
        <div className="row">
          <button type="button" className="btn btn-primary btn-sm" onClick={() => void pay.run(m.id).then(() => loadStakeChain()).catch(() => undefined)}>
            Pay &amp; send
          </button>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setDismissed(true)}>
            Cancel
          </button>
        </div>
      )}
      <FormError error={pay.error} />
    </div>
  );
}
