import { useIntl } from 'react-intl';
import type { ConversationSummary } from '../../shared/domain.js';
import { Avatar } from '../people/avatar.js';
import { CountBadge, VerifiedBadge } from '../people/badges.js';
import { Icon } from '../components/icon.js';
import { lastMessagePreview, listTime } from '../i18n/format.js';
import { PersonName } from '../people/person-name.js';

/** One conversation in the list: who, the newest message's time and preview, the unread count. */
export function ConversationItem({
  c,
  active,
  onSelect,
}: {
  c: ConversationSummary;
  active: boolean;
  onSelect: () => void;
}) {
  const intl = useIntl();
  const muted = intl.formatMessage({
    id: 'chats.item.muted',
    defaultMessage: 'Muted',
    description: 'Icon in a conversation list entry whose notifications are muted',
  });
  return (
    <button
      type="button"
      className={active ? 'conv active' : c.unread > 0 ? 'conv unread' : 'conv'}
      aria-current={active ? 'true' : undefined}
      onClick={onSelect}
    >
      <Avatar name={c.title} seed={c.peer} size={40} square={c.kind === 'group'} />
      <span className="conv-body">
        <span className="conv-top">
          <span className="conv-title">
            {c.kind === 'group' && <Icon name="users" size={13} className="muted-icon" />}
            {c.kind === 'group' ? (
              <bdi className="truncate" title={c.title}>
                {c.title}
              </bdi>
            ) : (
              <PersonName
                address={c.peer}
                handle={c.title.startsWith('@') ? c.title.slice(1) : null}
                className="truncate"
              />
            )}
            {c.verified && <VerifiedBadge />}
            {c.muted && (
              <span className="conv-muted" role="img" aria-label={muted} title={muted}>
                <Icon name="bellOff" size={13} />
              </span>
            )}
          </span>
          {c.lastMessage && (
            <time className="conv-time" dateTime={c.lastMessage.at}>
              {listTime(c.lastMessage.at, intl)}
            </time>
          )}
        </span>
        <span className="conv-bottom">
          {/* dir="auto": a preview runs, and is cut short, the way its own words do, in either direction */}
          <span className="conv-preview truncate" dir="auto">
            {lastMessagePreview(c, intl)}
          </span>
          <CountBadge
            count={c.unread}
            label={intl.formatMessage(
              {
                id: 'chats.item.unreadCount',
                defaultMessage: '{count, plural, one {# unread message} other {# unread messages}}',
                description: 'Accessible name of the unread count on a conversation in the list',
              },
              { count: c.unread },
            )}
          />
        </span>
      </span>
    </button>
  );
}
