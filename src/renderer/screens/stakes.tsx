import { useEffect } from 'react';
import type { StakeInfo } from '../../shared/domain.js';
import { formatAmount } from '../../shared/stake/amount.js';
import { Amount } from '../components/amount.js';
import { EmptyState } from '../components/empty-state.js';
import { FormError } from '../components/form-error.js';
import { Person } from '../components/person.js';
import { usePersonName } from '../components/person-name.js';
import { fullTime } from '../format.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

/** Sent and received stakes with their status; a sent one offers Refund once it can come back. */
export function Stakes() {
  const stakes = useStore((s) => s.stakes);
  const loadStakes = useStore((s) => s.loadStakes);
  const showToast = useStore((s) => s.showToast);
  useEffect(() => {
    loadStakes().catch((e: Error) => showToast('error', e.message));
  }, [loadStakes, showToast]);
  const sent = stakes.list.filter((s) => s.role === 'sent');
  const received = stakes.list.filter((s) => s.role === 'received');
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Stakes</h1>
          <p className="subtle">Refundable stakes you paid to reach new people, and those people paid to reach you. A stake comes back to its sender when the recipient accepts, or after its deadline.</p>
        </div>
      </header>
      {stakes.loaded && !stakes.chain?.enabled ? (
        <EmptyState icon="shield" title="This relay takes no stakes">
          Its operator has not named a chain for stakes, so nobody on it can ask for one.
        </EmptyState>
      ) : (
        <>
          <Balance />
          <StakeSection title="Sent" list={sent} empty="You have not paid a stake to anyone." />
          <StakeSection title="Received" list={received} empty="Nobody has paid you a stake." />
        </>
      )}
    </div>
  );
}

function Balance() {
  const chain = useStore((s) => s.stakes.chain);
  if (!chain?.enabled) return null;
  return (
    <p className="subtle small" role="status">
      {chain.balanceWei !== null ? (
        <>
          Your balance on chain {chain.chainId}: <Amount wei={chain.balanceWei} currency={chain.currency} />
        </>
      ) : (
        `Balance unknown: ${chain.balanceError ?? 'the chain cannot be read'}`
      )}
    </p>
  );
}

function StakeSection({ title, list, empty }: { title: string; list: StakeInfo[]; empty: string }) {
  const id = `stakes-${title.toLowerCase()}`;
  return (
    <section className="request-section" aria-labelledby={id}>
      <h2 id={id} className="section-label">
        {title}
      </h2>
      {list.length === 0 ? (
        <p className="subtle">{empty}</p>
      ) : (
        <ul className="card-list" aria-label={`${title} stakes`}>
          {list.map((s) => (
            <li key={s.id}>
              <StakeCard s={s} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const STATUS: Record<StakeInfo['status'], string> = { active: 'Held', released: 'Returned (accepted)', forfeited: 'Kept (marked spam)', refunded: 'Returned (refunded)' };

function statusText(s: StakeInfo): string {
  if (s.status !== 'active') return STATUS[s.status];
  if (s.released) return s.role === 'sent' ? 'Accepted: take it back' : 'Accepted: waiting for the sender to take it back';
  return s.refundable ? 'Ignored: refundable now' : `Held until ${fullTime(new Date(s.deadline * 1000).toISOString())}`;
}

function StakeCard({ s }: { s: StakeInfo }) {
  const refundStake = useStore((st) => st.refundStake);
  const showToast = useStore((st) => st.showToast);
  const act = useAction(refundStake);
  const who = usePersonName(s.peer);
  const amount = `${formatAmount(s.amountWei)} ${s.currency}`;
  return (
    <article className="card request-card stake-card" aria-label={`Stake ${s.role === 'sent' ? 'to' : 'from'} ${who}`}>
      <div className="request-head">
        <div className="request-who">
          <span className="request-name">
            <Amount wei={s.amountWei} currency={s.currency} /> {s.role === 'sent' ? 'to' : 'from'} <Person address={s.peer} />
          </span>
        </div>
        <span className={`stake-status status-${s.status}`}>{statusText(s)}</span>
      </div>
      <FormError error={act.error} />
      {s.refundable && (
        <div className="row">
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={act.busy}
            aria-busy={act.busy}
            onClick={async () => {
              if ((await act.run(s.id)).ok) showToast('success', `${amount} is back in your wallet.`);
            }}
          >
            {act.busy ? 'Refunding…' : 'Refund'}
          </button>
        </div>
      )}
    </article>
  );
}
