import { FormattedMessage, useIntl } from 'react-intl';
import type { GroupInvitation } from '../../shared/domain.js';
import { Avatar } from '../people/avatar.js';
import { VerifiedBadge } from '../people/badges.js';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { displayName, fullTime, listTime, shortAddress } from '../i18n/format.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { BlockDialog } from '../people/block-dialog.js';
import { useState } from 'react';

/** a separator and a space, not words: the same in every language */
const SEP = ' · ';
const GAP = ' ';

/** One group invitation: what the group is, who asked me in, and my three answers. */
export function InvitationCard({ i }: { i: GroupInvitation }) {
  const inviter = useStore((s) => s.handles[i.invitedBy.toLowerCase()]);
  const acceptInvitation = useStore((s) => s.acceptInvitation);
  const declineInvitation = useStore((s) => s.declineInvitation);
  const blockInviter = useStore((s) => s.blockInviter);
  const openGroupChat = useStore((s) => s.openGroupChat);
  const [confirmBlock, setConfirmBlock] = useState(false);
  const act = useAction(async (what: 'accept' | 'decline') => {
    if (what === 'accept') {
      await acceptInvitation(i.groupId);
      await openGroupChat(i.groupId);
    } else await declineInvitation(i.groupId);
  });
  const who = displayName(inviter?.handle, i.invitedBy);
  const intl = useIntl();
  const whoLtr = <bdi dir="ltr">{who}</bdi>;
  return (
    <article
      className="card request-card"
      aria-label={intl.formatMessage(
        {
          id: 'invitation.label',
          defaultMessage: 'Invitation to {name}',
          description: 'Accessible name of a group invitation card; {name} is the group',
        },
        { name: i.name },
      )}
    >
      <div className="request-head">
        <Avatar name={i.name} seed={i.groupId} size={40} square />
        <div className="request-who">
          <bdi className="request-name">{i.name}</bdi>
          <span className="subtle">
            <FormattedMessage
              id="invitation.from"
              defaultMessage="Group invitation from {name}"
              description="Under the group’s name on an invitation card; {name} is who invited (handle or short address)"
              values={{ name: <strong className="inviter">{whoLtr}</strong> }}
            />
            {GAP}
            {inviter?.verified && <VerifiedBadge />}
            {inviter && (
              <span className="mono">
                {SEP}
                <bdi dir="ltr">{shortAddress(i.invitedBy)}</bdi>
              </span>
            )}
          </span>
        </div>
        <time className="subtle" dateTime={i.invitedAt} title={fullTime(i.invitedAt, intl)}>
          {listTime(i.invitedAt, intl)}
        </time>
      </div>
      <p className="subtle small">
        <FormattedMessage
          id="invitation.hint"
          defaultMessage="Nothing from this group reaches you unless you accept. Blocking {name} also stops their messages and invitations."
          description="On a group invitation card; {name} is who invited (handle or short address)"
          values={{ name: whoLtr }}
        />
      </p>
      <FormError error={act.error} />
      <div className="row">
        <button
          type="button"
          className="btn btn-primary"
          disabled={act.busy}
          onClick={() => void act.run('accept')}
          aria-label={intl.formatMessage(
            {
              id: 'invitation.accept.label',
              defaultMessage: 'Accept invitation to {name}',
              description: 'Accessible name of the Accept button on a group invitation; {name} is the group',
            },
            { name: i.name },
          )}
        >
          <Icon name="check" size={16} />{' '}
          <FormattedMessage
            id="invitation.accept.text"
            defaultMessage="Accept"
            description="Button on a group invitation: join the group"
          />
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={act.busy}
          onClick={() => void act.run('decline')}
          aria-label={intl.formatMessage(
            {
              id: 'invitation.decline.label',
              defaultMessage: 'Decline invitation to {name}',
              description: 'Accessible name of the Decline button on a group invitation; {name} is the group',
            },
            { name: i.name },
          )}
        >
          <FormattedMessage
            id="invitation.decline.text"
            defaultMessage="Decline"
            description="Button on a group invitation: do not join"
          />
        </button>
        <button
          type="button"
          className="btn btn-danger-ghost"
          disabled={act.busy}
          onClick={() => setConfirmBlock(true)}
          aria-label={intl.formatMessage(
            {
              id: 'invitation.block.label',
              defaultMessage: 'Block {name}',
              description:
                'Accessible name of the Block button on a group invitation; {name} is who invited (handle or short address)',
            },
            { name: who },
          )}
        >
          <FormattedMessage
            id="invitation.block.text"
            defaultMessage="Block {name}"
            description="Button on a group invitation: block who invited; {name} is their handle or short address"
            values={{ name: whoLtr }}
          />
        </button>
      </div>
      <BlockDialog
        address={i.invitedBy}
        name={who}
        open={confirmBlock}
        onClose={() => setConfirmBlock(false)}
        block={() => blockInviter(i.groupId)}
      />
    </article>
  );
}
