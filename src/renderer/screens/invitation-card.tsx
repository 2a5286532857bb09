import type { GroupInvitation } from '../../shared/domain.js';
import { Avatar } from '../components/avatar.js';
import { VerifiedBadge } from '../components/badges.js';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { displayName, fullTime, listTime, shortAddress } from '../format.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

/** One group invitation: what the group is, who asked me in, and my three answers. */
export function InvitationCard({ i }: { i: GroupInvitation }) {
  const inviter = useStore((s) => s.handles[i.invitedBy.toLowerCase()]);
  const acceptInvitation = useStore((s) => s.acceptInvitation);
  const declineInvitation = useStore((s) => s.declineInvitation);
  const blockInviter = useStore((s) => s.blockInviter);
  const openGroupChat = useStore((s) => s.openGroupChat);
  const act = useAction(async (what: 'accept' | 'decline' | 'block') => {
    if (what === 'accept') {
      await acceptInvitation(i.groupId);
      await openGroupChat(i.groupId);
    } else if (what === 'decline') await declineInvitation(i.groupId);
    else await blockInviter(i.groupId);
  });
  const who = displayName(inviter?.handle, i.invitedBy);
  return (
    <article className="card request-card" aria-label={`Invitation to ${i.name}`}>
      <div className="request-head">
        <Avatar name={i.name} seed={i.groupId} size={40} square />
        <div className="request-who">
          <span className="request-name">{i.name}</span>
          <span className="subtle">
            Group invitation from <strong className="inviter">{who}</strong> {inviter?.verified && <VerifiedBadge />}
            {inviter && <span className="mono"> · {shortAddress(i.invitedBy)}</span>}
          </span>
        </div>
        <time className="subtle" dateTime={i.invitedAt} title={fullTime(i.invitedAt)}>
          {listTime(i.invitedAt)}
        </time>
      </div>
      <p className="subtle small">Nothing from this group reaches you unless you accept. Blocking {who} also stops their messages and invitations.</p>
      <FormError error={act.error} />
      <div className="row">
        <button type="button" className="btn btn-primary" disabled={act.busy} onClick={() => void act.run('accept')} aria-label={`Accept invitation to ${i.name}`}>
          <Icon name="check" size={16} /> Accept
        </button>
        <button type="button" className="btn btn-secondary" disabled={act.busy} onClick={() => void act.run('decline')} aria-label={`Decline invitation to ${i.name}`}>
          Decline
        </button>
        <button type="button" className="btn btn-danger-ghost" disabled={act.busy} onClick={() => void act.run('block')} aria-label={`Block ${who}`}>
          Block {who}
        </button>
      </div>
    </article>
  );
}
