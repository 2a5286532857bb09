import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ConversationClosed, GroupInfo } from '../../shared/domain.js';
import { Avatar } from '../people/avatar.js';
import { VerifiedBadge } from '../people/badges.js';
import { Icon } from '../components/icon.js';
import { FormError } from '../components/form-error.js';
import { listTime } from '../i18n/format.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { GroupMembers } from './group-members.js';
import { BotTokens } from './bot-tokens.js';
import { JoinGroupDialog } from './join-group-dialog.js';
import { usePersonName } from '../people/person-name.js';

/** A group's page: open its chat, join or leave, its members and, for those who manage it, its bot tokens. */
export function GroupDetail({ g }: { g: GroupInfo }) {
  const openGroupChat = useStore((s) => s.openGroupChat);
  const leaveGroup = useStore((s) => s.leaveGroup);
  const joinGroup = useStore((s) => s.joinGroup);
  const me = useStore((s) => s.status?.address?.toLowerCase());
  const [joinOpen, setJoinOpen] = useState(false);
  const intl = useIntl();
  const act = useAction(async (what: 'open' | 'leave' | 'join') => {
    if (what === 'open') await openGroupChat(g.id);
    else if (what === 'leave') await leaveGroup(g.id);
    else await joinGroup(g.id);
  });
  return (
    <div className="detail">
      <header className="detail-hero">
        <Avatar name={g.name} seed={g.id} image={g.avatar} size={64} square />
        <div>
          <h2>
            <bdi>{g.name}</bdi> {g.verified && <VerifiedBadge />}
          </h2>
          <p className="subtle">
            {g.closed ? (
              // members are the relay's to show to members: one no longer in the group sees none
              <FormattedMessage
                id="groups.detail.summaryClosed"
                defaultMessage="{visibility, select, public {Public group} other {Private group}} · Created {created}"
                description="Under the group’s name on its page, for a group one is no longer in; {visibility} is “public” or “private”, {created} when it was created (a time, weekday or date)"
                values={{ visibility: g.isPublic ? 'public' : 'private', created: listTime(g.createdAt, intl) }}
              />
            ) : (
              <FormattedMessage
                id="groups.detail.summary"
                defaultMessage="{visibility, select, public {Public group} other {Private group}}{password, select, yes { · Password protected} other {}} · {count, plural, one {# member} other {# members}} · Created {created}"
                description="Under the group’s name on its page; {visibility} is “public” or “private”, {password} “yes” when joining asks for a password, {count} the member count, {created} when it was created (a time, weekday or date)"
                values={{
                  visibility: g.isPublic ? 'public' : 'private',
                  password: g.hasPassword ? 'yes' : 'no',
                  count: g.memberCount,
                  created: listTime(g.createdAt, intl),
                }}
              />
            )}
          </p>
        </div>
      </header>
      {g.closed && <GroupClosedNote closed={g.closed} />}
      <FormError error={act.error} />
      <div className="row">
        {g.isMember || g.closed ? (
          <>
            <button type="button" className="btn btn-primary" onClick={() => void act.run('open')} disabled={act.busy}>
              <Icon name="chat" size={16} />{' '}
              <FormattedMessage
                id="groups.detail.openChat"
                defaultMessage="Open chat"
                description="Button on a group’s page that opens its conversation"
              />
            </button>
            {g.isMember && !(g.isCreator && g.memberCount > 1) && (
              <button
                type="button"
                className="btn btn-danger-ghost"
                onClick={() => void act.run('leave')}
                disabled={act.busy}
              >
                <FormattedMessage
                  id="groups.detail.leave"
                  defaultMessage="Leave group"
                  description="Button on a group’s page that leaves the group"
                />
              </button>
            )}
          </>
        ) : (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => (g.hasPassword ? setJoinOpen(true) : void act.run('join'))}
            disabled={act.busy}
          >
            {g.hasPassword && <Icon name="lock" size={15} />}{' '}
            <FormattedMessage
              id="groups.detail.join"
              defaultMessage="Join group"
              description="Button on a public group’s page that joins it"
            />
          </button>
        )}
      </div>
      {g.isMember && g.members && <GroupMembers g={g} me={me ?? ''} />}
      {(g.canManage ?? g.isCreator) && <BotTokens g={g} />}
      <JoinGroupDialog g={g} open={joinOpen} onClose={() => setJoinOpen(false)} />
    </div>
  );
}

/** Why this group takes no more messages from me, said where Join would otherwise be. */
function GroupClosedNote({ closed }: { closed: ConversationClosed }) {
  const by = closed.reason === 'removed' ? closed.by : null;
  return (
    <p className="note" role="note">
      <Icon name="alert" size={16} />
      <span>
        {closed.reason === 'left' ? (
          <FormattedMessage
            id="groups.detail.left"
            defaultMessage="You left this group. Its earlier messages stay readable here."
            description="On the page of a group one left"
          />
        ) : by ? (
          <FormattedMessage
            id="groups.detail.removedBy"
            defaultMessage="{name} removed you from this group."
            description="On the page of a group one was removed from; {name} is who removed them (handle or short address)"
            values={{ name: <RemoverName address={by} /> }}
          />
        ) : (
          <FormattedMessage
            id="groups.detail.removed"
            defaultMessage="You were removed from this group."
            description="On the page of a group one was removed from, when it is not known by whom"
          />
        )}
      </span>
    </p>
  );
}

function RemoverName({ address }: { address: string }) {
  return <bdi dir="ltr">{usePersonName(address)}</bdi>;
}
