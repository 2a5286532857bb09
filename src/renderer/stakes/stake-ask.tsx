import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ChatMessage } from '../../shared/domain.js';
import { Amount } from './amount.js';
import { FormError } from '../components/form-error.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

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
  const intl = useIntl();
  useEffect(() => {
    loadStakeChain().catch(() => undefined);
  }, [loadStakeChain]);
  if (dismissed) return null;
  const amount = `${m.stakeRequired ?? '?'} ${m.stakeCurrency ?? 'ETH'}`;
  const days = Math.round((chain?.minLockSeconds ?? 7 * 86_400) / 86_400);
  return (
    <div
      className="stake-ask"
      role="group"
      aria-label={intl.formatMessage(
        {
          id: 'stakeAsk.label',
          defaultMessage: 'Stake asked by {name}',
          description: 'Accessible name of the stake question under a held message; {name} is the recipient',
        },
        { name: peerName },
      )}
    >
      <p>
        <FormattedMessage
          id="stakeAsk.text"
          defaultMessage="{name} asks people they don't know for a refundable {amount} stake; it comes back when they accept, or after {days, plural, one {# day} other {# days}} if they ignore you."
          description="Under a message a stake gate held back; {name} is the recipient’s handle or short address, {amount} the stake with its currency (e.g. 0.01 ETH), {days} how long it is locked at most"
          values={{ name: <bdi dir="ltr">{peerName}</bdi>, amount: <bdi dir="ltr">{amount}</bdi>, days }}
        />
      </p>
      {chain?.enabled && (
        <p className="subtle small">
          {chain.balanceWei !== null ? (
            <FormattedMessage
              id="stakeAsk.balance"
              defaultMessage="Your balance: {amount}"
              description="Under the stake question; {amount} is one’s balance with its currency"
              values={{ amount: <Amount wei={chain.balanceWei} currency={chain.currency} /> }}
            />
          ) : (
            <FormattedMessage
              id="stakeAsk.balanceUnknown"
              defaultMessage="Balance unknown: {reason}"
              description="Under the stake question when the balance could not be read; {reason} says why"
              values={{ reason: chain.balanceError ?? '' }}
            />
          )}
        </p>
      )}
      {pay.busy ? (
        <p className="stake-progress" role="status" aria-busy="true">
          <FormattedMessage
            id="stakeAsk.paying"
            defaultMessage="Paying {amount} and waiting for the chain to confirm…"
            description="While the stake is paid; {amount} is the stake with its currency"
            values={{ amount: <bdi dir="ltr">{amount}</bdi> }}
          />
        </p>
      ) : (
        <div className="row">
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={() =>
              void pay
                .run(m.id)
                .then(() => loadStakeChain())
                .catch(() => undefined)
            }
          >
            <FormattedMessage
              id="stakeAsk.pay"
              defaultMessage="Pay & send"
              description="Button: pay the asked stake from one’s wallet and send the message with it"
            />
          </button>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setDismissed(true)}>
            <FormattedMessage
              id="stakeAsk.cancel"
              defaultMessage="Cancel"
              description="Button: do not pay the stake (hides the question)"
            />
          </button>
        </div>
      )}
      <FormError error={pay.error} />
    </div>
  );
}
