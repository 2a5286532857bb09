import { useEffect, useState, type ReactNode } from 'react';
import type { ContactRequest } from '../../shared/domain.js';
import { Amount } from '../components/amount.js';
import { Dialog } from '../components/dialog.js';
import { Avatar } from '../components/avatar.js';
import { VerifiedBadge } from '../components/badges.js';
import { EmptyState } from '../components/empty-state.js';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { displayName, listTime } from '../format.js';
import { Person } from '../components/person.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';
import { InvitationCard } from './invitation-card.js';

export function Requests() {
  const requests = useStore((s) => s.requests);
  const invitations = useStore((s) => s.invitations);
  const loadInvitations = useStore((s) => s.loadInvitations);
  const showToast = useStore((s) => s.showToast);

  const loadStakes = useStore((s) => s.loadStakes);

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
          <h1>Requests</h1>
          <p className="subtle">People you haven't talked to yet, and groups you were invited to. Nothing they send reaches your chats until you accept.</p>
        </div>
      </header>
      {requests.length === 0 && invitations.length === 0 ? (
        <EmptyState icon="inbox" title="No requests">
          When someone new writes to you or invites you to a group, it waits here for you to accept, decline or block.
        </EmptyState>
      ) : (
        <>
          <RequestSection id="invitations-title" title="Group invitations" items={invitations} keyOf={(i) => i.groupId}>
            {(i) => <InvitationCard i={i} />}
          </RequestSection>
          <RequestSection id="contact-requests-title" title="Contact requests" items={requests} keyOf={(r) => r.address}>
            {(r) => <RequestCard r={r} />}
          </RequestSection>
        </>
      )}
    </div>
  );
}

/** A titled list of cards; nothing when it is empty. */
function RequestSection<T>({ id, title, items, keyOf, children }: { id: string; title: string; items: T[]; keyOf: (item: T) => string; children: (item: T) => ReactNode }) {
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
  const stake = useStore((s) => s.stakes.list.find((x) => x.role === 'received' && x.status === 'active' && !x.released && x.peer === r.address.toLowerCase()) ?? null);
  const [confirmSpam, setConfirmSpam] = useState(false);
  const act = useAction(async (what: 'accept' | 'decline' | 'block' | 'spam') => {
    if (what === 'spam') {
      setConfirmSpam(false);
      await markSpam(r.address);
    } else if (what === 'accept') {
      await acceptRequest(r.address);
      await selectConversation(`direct:${r.address.toLowerCase()}`);
    } else if (what === 'decline') await declineRequest(r.address);
    else await blockSender(r.address);
  });
  const name = displayName(r.handle, r.address);
  return (
    <article className="card request-card" aria-label={`Request from ${name}`}>
      <div className="request-head">
        <Avatar name={r.handle ?? r.address} seed={r.address} size={40} />
        <div className="request-who">
          <span className="request-name">
            <Person address={r.address} handle={r.handle} /> {r.verified && <VerifiedBadge />}
          </span>
        </div>
        <time className="subtle" dateTime={r.receivedAt}>
          {listTime(r.receivedAt)}
        </time>
      </div>
      <blockquote className="intro">{r.intro || <span className="subtle">No intro message.</span>}</blockquote>
      {stake && (
        <p className="stake-note">
          Staked <Amount wei={stake.amountWei} currency={stake.currency} />. Accept and it goes back to them; mark it as spam and you keep it.
        </p>
      )}
      {r.messageCount > 1 && <p className="subtle small">+{r.messageCount - 1} more message{r.messageCount > 2 ? 's' : ''}</p>}
      <FormError error={act.error} />
      <div className="row">
        <button type="button" className="btn btn-primary" disabled={act.busy} onClick={() => void act.run('accept')} aria-label={`Accept ${name}`}>
          <Icon name="check" size={16} /> Accept
        </button>
        <button type="button" className="btn btn-secondary" disabled={act.busy} onClick={() => void act.run('decline')} aria-label={`Decline ${name}`}>
          Decline
        </button>
        <button type="button" className="btn btn-danger-ghost" disabled={act.busy} onClick={() => void act.run('block')} aria-label={`Block ${name}`}>
          Block
        </button>
        {stake && (
          <button type="button" className="btn btn-danger-ghost" disabled={act.busy} onClick={() => setConfirmSpam(true)} aria-label={`Mark ${name} as spam`}>
            Spam
          </button>
        )}
      </div>
      {act.busy && stake && <p className="subtle small" role="status">Waiting for the chain…</p>}
      {stake && (
        <Dialog title="Mark as spam?" open={confirmSpam} onClose={() => setConfirmSpam(false)}>
          <p>
            You keep the <Amount wei={stake.amountWei} currency={stake.currency} /> stake and {name} is blocked. This sends a transaction from your wallet, which costs a little gas.
          </p>
          <div className="row">
            <button type="button" className="btn btn-danger" onClick={() => void act.run('spam')}>
              Keep the stake and block
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => setConfirmSpam(false)}>
              Cancel
            </button>
          </div>
        </Dialog>
      )}
    </article>
  );
}
