import { useEffect } from 'react';
import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { StakeInfo } from '../../shared/domain.js';
import { formatAmount } from '../../shared/stake/amount.js';
import { Amount } from './amount.js';
import { EmptyState } from '../components/empty-state.js';
import { FormError } from '../components/form-error.js';
import { Person } from '../people/person.js';
import { usePersonName } from '../people/person-name.js';
import { fullTime } from '../i18n/format.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

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
  const intl = useIntl();
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>
            <FormattedMessage id="stakes.title" defaultMessage="Stakes" description="Heading of the Stakes screen" />
          </h1>
          <p className="subtle">
            <FormattedMessage
              id="stakes.intro"
              defaultMessage="Refundable stakes you paid to reach new people, and those people paid to reach you. A stake comes back to its sender when the recipient accepts, or after its deadline."
              description="Text under the Stakes heading"
            />
          </p>
        </div>
      </header>
      {stakes.loaded && !stakes.chain?.enabled ? (
        <EmptyState
          icon="shield"
          title={intl.formatMessage({
            id: 'stakes.none.title',
            defaultMessage: 'This relay takes no stakes',
            description: 'Title on the Stakes screen when the relay names no chain for stakes',
          })}
        >
          <FormattedMessage
            id="stakes.none.hint"
            defaultMessage="Its operator has not named a chain for stakes, so nobody on it can ask for one."
            description="Text when the relay takes no stakes"
          />
        </EmptyState>
      ) : (
        <>
          <Balance />
          <StakeSection role="sent" list={sent} />
          <StakeSection role="received" list={received} />
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
        <FormattedMessage
          id="stakes.balance.known"
          defaultMessage="Your balance on chain {chainId}: {amount}"
          description="On the Stakes screen; {chainId} is the blockchain’s number (e.g. 31337), {amount} the balance with its currency"
          values={{
            chainId: <bdi dir="ltr">{chain.chainId}</bdi>,
            amount: <Amount wei={chain.balanceWei} currency={chain.currency} />,
          }}
        />
      ) : chain.balanceError ? (
        <FormattedMessage
          id="stakes.balance.unknown"
          defaultMessage="Balance unknown: {reason}"
          description="When the balance could not be read; {reason} says why"
          values={{ reason: chain.balanceError }}
        />
      ) : (
        <FormattedMessage
          id="stakes.balance.unreadable"
          defaultMessage="Balance unknown: the chain cannot be read"
          description="When the balance could not be read, without a reason"
        />
      )}
    </p>
  );
}

const SECTION = {
  sent: defineMessages({
    title: { id: 'stakes.sent.title', defaultMessage: 'Sent', description: 'Heading of the stakes one paid' },
    list: {
      id: 'stakes.sent.list',
      defaultMessage: 'Sent stakes',
      description: 'Accessible name of the list of stakes one paid',
    },
    empty: {
      id: 'stakes.sent.empty',
      defaultMessage: 'You have not paid a stake to anyone.',
      description: 'When one has paid no stake',
    },
  }),
  received: defineMessages({
    title: {
      id: 'stakes.received.title',
      defaultMessage: 'Received',
      description: 'Heading of the stakes others paid to reach one',
    },
    list: {
      id: 'stakes.received.list',
      defaultMessage: 'Received stakes',
      description: 'Accessible name of the list of stakes others paid',
    },
    empty: {
      id: 'stakes.received.empty',
      defaultMessage: 'Nobody has paid you a stake.',
      description: 'When nobody has paid one a stake',
    },
  }),
};

function StakeSection({ role, list }: { role: 'sent' | 'received'; list: StakeInfo[] }) {
  const intl = useIntl();
  const t = SECTION[role];
  const id = `stakes-${role}`;
  return (
    <section className="request-section" aria-labelledby={id}>
      <h2 id={id} className="section-label">
        <FormattedMessage {...t.title} />
      </h2>
      {list.length === 0 ? (
        <p className="subtle">
          <FormattedMessage {...t.empty} />
        </p>
      ) : (
        <ul className="card-list" aria-label={intl.formatMessage(t.list)}>
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

const STATUS = defineMessages({
  active: { id: 'stakes.status.held', defaultMessage: 'Held', description: 'Status of a stake held in escrow' },
  released: {
    id: 'stakes.status.released',
    defaultMessage: 'Returned (accepted)',
    description: 'Status of a stake returned because the recipient accepted',
  },
  forfeited: {
    id: 'stakes.status.forfeited',
    defaultMessage: 'Kept (marked spam)',
    description: 'Status of a stake the recipient kept by marking the request as spam',
  },
  refunded: {
    id: 'stakes.status.refunded',
    defaultMessage: 'Returned (refunded)',
    description: 'Status of a stake its sender took back after the deadline',
  },
  acceptedSent: {
    id: 'stakes.status.acceptedSent',
    defaultMessage: 'Accepted: take it back',
    description: 'Status of a stake one paid whose recipient accepted: one can withdraw it',
  },
  acceptedReceived: {
    id: 'stakes.status.acceptedReceived',
    defaultMessage: 'Accepted: waiting for the sender to take it back',
    description: 'Status of a stake one received and accepted: its sender has not withdrawn it yet',
  },
  refundable: {
    id: 'stakes.status.refundable',
    defaultMessage: 'Ignored: refundable now',
    description: 'Status of a stake one paid whose recipient ignored it past the deadline',
  },
  heldUntil: {
    id: 'stakes.status.heldUntil',
    defaultMessage: 'Held until {time}',
    description: 'Status of a stake held until its deadline; {time} is a date and time',
  },
});

function statusText(intl: IntlShape, s: StakeInfo): string {
  if (s.status !== 'active') return intl.formatMessage(STATUS[s.status]);
  if (s.released) return intl.formatMessage(s.role === 'sent' ? STATUS.acceptedSent : STATUS.acceptedReceived);
  return s.refundable
    ? intl.formatMessage(STATUS.refundable)
    : intl.formatMessage(STATUS.heldUntil, { time: fullTime(new Date(s.deadline * 1000).toISOString(), intl) });
}

function StakeCard({ s }: { s: StakeInfo }) {
  const refundStake = useStore((st) => st.refundStake);
  const showToast = useStore((st) => st.showToast);
  const act = useAction(refundStake);
  const who = usePersonName(s.peer);
  const amount = `${formatAmount(s.amountWei)} ${s.currency}`;
  const intl = useIntl();
  return (
    <article
      className="card request-card stake-card"
      aria-label={intl.formatMessage(
        {
          id: 'stakes.card.label',
          defaultMessage: '{role, select, sent {Stake to {name}} other {Stake from {name}}}',
          description:
            'Accessible name of a stake card; {role} is “sent” (one paid it) or “received”, {name} the other person',
        },
        { role: s.role, name: who },
      )}
    >
      <div className="request-head">
        <div className="request-who">
          <span className="request-name">
            <FormattedMessage
              id="stakes.card.title"
              defaultMessage="{role, select, sent {{amount} to {person}} other {{amount} from {person}}}"
              description="Title of a stake card; {role} is “sent” (one paid it) or “received”, {amount} the stake with its currency, {person} the other person"
              values={{
                role: s.role,
                amount: <Amount wei={s.amountWei} currency={s.currency} />,
                person: <Person address={s.peer} />,
              }}
            />
          </span>
        </div>
        <span className={`stake-status status-${s.status}`}>{statusText(intl, s)}</span>
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
              if ((await act.run(s.id)).ok)
                showToast(
                  'success',
                  intl.formatMessage(
                    {
                      id: 'stakes.refund.done',
                      defaultMessage: '{amount} is back in your wallet.',
                      description: 'Toast after a refund; {amount} is the stake with its currency',
                    },
                    { amount },
                  ),
                );
            }}
          >
            {act.busy ? (
              <FormattedMessage
                id="stakes.refund.busy"
                defaultMessage="Refunding…"
                description="The Refund button while the refund transaction runs"
              />
            ) : (
              <FormattedMessage
                id="stakes.refund.button"
                defaultMessage="Refund"
                description="Button on a stake one paid that takes it back"
              />
            )}
          </button>
        </div>
      )}
    </article>
  );
}
