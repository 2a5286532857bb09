import { useEffect, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ContactRequest } from '../../shared/domain.js';
import { Amount } from '../stakes/amount.js';
import { Dialog } from '../components/dialog.js';
import { Avatar } from '../people/avatar.js';
import { VerifiedBadge } from '../people/badges.js';
import { EmptyState } from '../components/empty-state.js';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { displayName, listTime } from '../i18n/format.js';
import { Person } from '../people/person.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { InvitationCard } from './invitation-card.js';
import { BlockDialog } from '../people/block-dialog.js';

export function Requests() {
  const requests = useStore((s) => s.requests);
  const invitations = useStore((s) => s.invitations);
  const loadInvitations = useStore((s) => s.loadInvitations);
  const showToast = useStore((s) => s.showToast);

  const loadStakes = useStore((s) => s.loadStakes);
  const intl = useIntl();

  // Opening the screen is when someone looks for a new invitation: ask now, not at the next sync.
  useEffect(() => {
    loadInvitations().catch((e: Error) => showToast('error', e.message));
  }, [loadInvitations, showToast]);
  // which requests came with a stake: asked again as requests arrive
  useEffect(() => {
    loadStakes().catch((e: Error) => showToast('error', e.message));
  }, [loadStakes, showToast, requests.length]);

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>
            <FormattedMessage
              id="requests.title"
              defaultMessage="Requests"
              description="Heading of the Requests screen"
            />
          </h1>
          <p className="subtle">
            <FormattedMessage
              id="requests.intro"
              defaultMessage="People you haven't talked to yet, and groups you were invited to. Nothing they send reaches your chats until you accept."
              description="Text under the Requests heading"
            />
          </p>
        </div>
      </header>
      {requests.length === 0 && invitations.length === 0 ? (
        <EmptyState
          icon="inbox"
          title={intl.formatMessage({
            id: 'requests.empty.title',
            defaultMessage: 'No requests',
            description: 'Title on the Requests screen when nothing waits',
          })}
        >
          <FormattedMessage
            id="requests.empty.hint"
            defaultMessage="When someone new writes to you or invites you to a group, it waits here for you to accept, decline or block."
            description="Text on the Requests screen when nothing waits"
          />
        </EmptyState>
      ) : (
        <>
          <RequestSection
            id="invitations-title"
            title={intl.formatMessage({
              id: 'requests.invitations.title',
              defaultMessage: 'Group invitations',
              description: 'Heading of the group invitations on the Requests screen, and the list’s name',
            })}
            items={invitations}
            keyOf={(i) => i.groupId}
          >
            {(i) => <InvitationCard i={i} />}
          </RequestSection>
          <RequestSection
            id="contact-requests-title"
            title={intl.formatMessage({
              id: 'requests.contacts.title',
              defaultMessage: 'Contact requests',
              description: 'Heading of the contact requests on the Requests screen, and the list’s name',
            })}
            items={requests}
            keyOf={(r) => r.address}
          >
            {(r) => <RequestCard r={r} />}
          </RequestSection>
        </>
      )}
    </div>
  );
}

/** A titled list of cards; nothing when it is empty. */
function RequestSection<T>({
  id,
  title,
  items,
  keyOf,
  children,
}: {
  id: string;
  title: string;
  items: T[];
  keyOf: (item: T) => string;
  children: (item: T) => ReactNode;
}) {
  if (items.length === 0) return null;
  return (
    <section className="request-section" aria-labelledby={id}>
      <h2 id={id} className="section-label">
        {title}
      </h2>
      <ul className="card-list" aria-label={title}>
        {items.map((item) => (
          <li key={keyOf(item)}>{children(item)}</li>
        ))}
      </ul>
    </section>
  );
}

function RequestCard({ r }: { r: ContactRequest }) {
  const acceptRequest = useStore((s) => s.acceptRequest);
  const declineRequest = useStore((s) => s.declineRequest);
  const blockSender = useStore((s) => s.blockSender);
  const selectConversation = useStore((s) => s.selectConversation);
  const markSpam = useStore((s) => s.markSpam);
  const stake = useStore(
    (s) =>
      s.stakes.list.find(
        (x) => x.role === 'received' && x.status === 'active' && !x.released && x.peer === r.address.toLowerCase(),
      ) ?? null,
  );
  const [confirmSpam, setConfirmSpam] = useState(false);
  const [confirmBlock, setConfirmBlock] = useState(false);
  const act = useAction(async (what: 'accept' | 'decline' | 'spam') => {
    if (what === 'spam') {
      setConfirmSpam(false);
      await markSpam(r.address);
    } else if (what === 'accept') {
      await acceptRequest(r.address);
      await selectConversation(`direct:${r.address.toLowerCase()}`);
    } else await declineRequest(r.address);
  });
  const name = displayName(r.handle, r.address);
  const intl = useIntl();
  const nameLtr = <bdi dir="ltr">{name}</bdi>;
  return (
    <article
      className="card request-card"
      aria-label={intl.formatMessage(
        {
          id: 'requests.card.label',
          defaultMessage: 'Request from {name}',
          description: 'Accessible name of a contact request card; {name} is the sender’s handle or short address',
        },
        { name },
      )}
    >
      <div className="request-head">
        <Avatar name={r.handle ?? r.address} seed={r.address} size={40} />
        <div className="request-who">
          <span className="request-name">
            <Person address={r.address} handle={r.handle} /> {r.verified && <VerifiedBadge />}
          </span>
        </div>
        <time className="subtle" dateTime={r.receivedAt}>
          {listTime(r.receivedAt, intl)}
        </time>
      </div>
      <blockquote className="intro">
        {r.intro ? (
          <bdi>{r.intro}</bdi>
        ) : (
          <span className="subtle">
            <FormattedMessage
              id="requests.card.noIntro"
              defaultMessage="No intro message."
              description="On a contact request that came without words"
            />
          </span>
        )}
      </blockquote>
      {stake && (
        <p className="stake-note" id={`stake-note-${r.address}`}>
          <FormattedMessage
            id="requests.card.staked"
            defaultMessage="Staked {amount}. Accept and it goes back to them now; decline and it goes back to them on {deadline}; mark it as spam and you keep it."
            description="On a contact request that came with a stake; {amount} is the amount with its currency (e.g. 0.01 ETH), {deadline} the date its waiting time ends, after which the sender can take it back"
            values={{
              amount: <Amount wei={stake.amountWei} currency={stake.currency} />,
              deadline: intl.formatDate(stake.deadline * 1000, { dateStyle: 'medium' }),
            }}
          />
        </p>
      )}
      {r.messageCount > 1 && (
        <p className="subtle small">
          <FormattedMessage
            id="requests.card.moreMessages"
            defaultMessage="{count, plural, one {+# more message} other {+# more messages}}"
            description="Under a contact request’s intro when the sender wrote more; {count} is how many more"
            values={{ count: r.messageCount - 1 }}
          />
        </p>
      )}
      <FormError error={act.error} />
      <div className="row">
        <button
          type="button"
          className="btn btn-primary"
          disabled={act.busy}
          onClick={() => void act.run('accept')}
          aria-label={intl.formatMessage(
            {
              id: 'requests.card.acceptLabel',
              defaultMessage: 'Accept {name}',
              description: 'Accessible name of the Accept button of a contact request; {name} is the sender',
            },
            { name },
          )}
        >
          <Icon name="check" size={16} />{' '}
          <FormattedMessage
            id="requests.card.accept"
            defaultMessage="Accept"
            description="Button on a contact request: accept the sender as a contact and open the chat"
          />
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={act.busy}
          onClick={() => void act.run('decline')}
          // what Decline does to the stake is said in the note above it
          aria-describedby={stake ? `stake-note-${r.address}` : undefined}
          aria-label={intl.formatMessage(
            {
              id: 'requests.card.declineLabel',
              defaultMessage: 'Decline {name}',
              description: 'Accessible name of the Decline button of a contact request; {name} is the sender',
            },
            { name },
          )}
        >
          <FormattedMessage
            id="requests.card.decline"
            defaultMessage="Decline"
            description="Button on a contact request: remove it"
          />
        </button>
        <button
          type="button"
          className="btn btn-danger-ghost"
          disabled={act.busy}
          onClick={() => setConfirmBlock(true)}
          aria-label={intl.formatMessage(
            {
              id: 'requests.card.blockLabel',
              defaultMessage: 'Block {name}',
              description: 'Accessible name of the Block button of a contact request; {name} is the sender',
            },
            { name },
          )}
        >
          <FormattedMessage
            id="requests.card.block"
            defaultMessage="Block"
            description="Button on a contact request: block the sender"
          />
        </button>
        {stake && (
          <button
            type="button"
            className="btn btn-danger-ghost"
            disabled={act.busy}
            onClick={() => setConfirmSpam(true)}
            aria-label={intl.formatMessage(
              {
                id: 'requests.card.spamLabel',
                defaultMessage: 'Mark {name} as spam',
                description: 'Accessible name of the Spam button of a staked contact request; {name} is the sender',
              },
              { name },
            )}
          >
            <FormattedMessage
              id="requests.card.spam"
              defaultMessage="Spam"
              description="Button on a staked contact request: keep the stake and block the sender"
            />
          </button>
        )}
      </div>
      {act.busy && stake && (
        <p className="subtle small" role="status">
          <FormattedMessage
            id="requests.card.waitingChain"
            defaultMessage="Waiting for the chain…"
            description="While a stake transaction waits for the blockchain"
          />
        </p>
      )}
      <BlockDialog
        address={r.address}
        name={name}
        open={confirmBlock}
        onClose={() => setConfirmBlock(false)}
        block={() => blockSender(r.address)}
      />
      {stake && (
        <Dialog
          title={intl.formatMessage({
            id: 'requests.spam.title',
            defaultMessage: 'Mark as spam?',
            description: 'Title of the dialog confirming a staked request is spam',
          })}
          open={confirmSpam}
          onClose={() => setConfirmSpam(false)}
        >
          <p>
            <FormattedMessage
              id="requests.spam.question"
              defaultMessage="You keep the {amount} stake and {name} is blocked. This sends a transaction from your wallet, which costs a little gas."
              description="In the Mark as spam dialog; {amount} is the stake with its currency, {name} the sender’s handle or short address; “gas” is the blockchain’s fee"
              values={{ amount: <Amount wei={stake.amountWei} currency={stake.currency} />, name: nameLtr }}
            />
          </p>
          <div className="row">
            <button type="button" className="btn btn-danger" onClick={() => void act.run('spam')}>
              <FormattedMessage
                id="requests.spam.confirm"
                defaultMessage="Keep the stake and block"
                description="Confirm button of the Mark as spam dialog"
              />
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => setConfirmSpam(false)}>
              <FormattedMessage
                id="requests.spam.cancel"
                defaultMessage="Cancel"
                description="Cancel button of the Mark as spam dialog"
              />
            </button>
          </div>
        </Dialog>
      )}
    </article>
  );
}
