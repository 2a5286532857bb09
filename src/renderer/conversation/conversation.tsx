import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ConversationSummary } from '../../shared/domain.js';
import { Avatar } from '../people/avatar.js';
import { VerifiedBadge } from '../people/badges.js';
import { CopyButton } from '../components/copy-button.js';
import { Icon } from '../components/icon.js';
import { PersonName } from '../people/person-name.js';
import { useStore } from '../store.js';
import { Composer } from './composer.js';
import { ClosedComposer } from './closed-composer.js';
import { MessageList } from '../messages/message-list.js';
import { FileDrop } from '../files/file-drop.js';
import { OutgoingSends } from '../files/outgoing-sends.js';
import { TimerControl } from './timer-control.js';
import { ConversationSearch } from '../search/conversation-search.js';
import { SafetyVerifiedBadge } from '../trust/safety-verified-badge.js';
import { DeviceNotices } from '../trust/device-notices.js';
import { VerifyButton } from '../trust/verify-button.js';
import { MuteButton } from './mute-button.js';
import { TypingNote } from './typing-note.js';

/** a separator, not a word: the same in every language */
const SEP = '·';

/** The open conversation: its header and actions, the messages, the files going out and the composer. */
export function Conversation({ c }: { c: ConversationSummary }) {
  const intl = useIntl();
  const searchIn = intl.formatMessage({
    id: 'chats.header.search',
    defaultMessage: 'Search in conversation',
    description: 'Icon button in the conversation header that opens the search within it',
  });
  const messages = useStore((s) => s.messagesByConversation[c.id]);
  const group = c.kind === 'group';
  const selectGroup = useStore((s) => s.selectGroup);
  const showView = useStore((s) => s.showView);
  const conversationSeen = useStore((s) => s.conversationSeen);
  const [searching, setSearching] = useState(false);
  const searchButton = useRef<HTMLButtonElement>(null);
  // Back in Chats from another section, with this one still open: what came meanwhile is read now.
  useEffect(() => conversationSeen(), [conversationSeen]);
  return (
    <>
      <header className="conv-header">
        <Avatar name={c.title} seed={c.peer} size={36} square={group} />
        <div className="conv-header-text">
          <h2>
            {group ? (
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
            {!group && <SafetyVerifiedBadge address={c.peer} />}
          </h2>
          <span className="subtle conv-header-sub">
            {group && (
              <>
                <FormattedMessage
                  id="chats.header.group"
                  defaultMessage="Group"
                  description="Under a group conversation's name, before 'End-to-end encrypted'"
                />
                <span className="sep" aria-hidden="true">
                  {SEP}
                </span>
              </>
            )}
            <Icon name="lock" size={12} />{' '}
            <span className="truncate">
              <FormattedMessage
                id="chats.header.encrypted"
                defaultMessage="End-to-end encrypted"
                description="Under the conversation's name in its header"
              />
            </span>
          </span>
        </div>
        <div className="conv-header-actions">
          {/* a timer set now would go to a group that no longer takes our messages */}
          {!c.closed && <TimerControl c={c} />}
          <button
            ref={searchButton}
            type="button"
            className="icon-btn"
            aria-label={searchIn}
            title={searchIn}
            aria-expanded={searching}
            onClick={() => setSearching(!searching)}
          >
            <Icon name="search" />
          </button>
          <MuteButton c={c} />
          {group ? (
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => {
                showView('groups');
                void selectGroup(c.peer);
              }}
            >
              <Icon name="users" size={15} />{' '}
              <FormattedMessage
                id="chats.header.groupInfo"
                defaultMessage="Group info"
                description="Button in a group conversation's header that opens the group's page"
              />
            </button>
          ) : (
            <>
              <VerifyButton address={c.peer} name={c.title} />
              <CopyButton
                text={c.peer}
                label={intl.formatMessage(
                  {
                    id: 'chats.header.copyAddress',
                    defaultMessage: 'Copy {name}’s address',
                    description:
                      'Icon button in a direct conversation header that copies the contact’s wallet address; {name} is their handle or short address',
                  },
                  { name: c.title },
                )}
                className="icon-btn"
                iconOnly
              />
            </>
          )}
        </div>
      </header>
      {searching && (
        <ConversationSearch
          c={c}
          onClose={() => {
            setSearching(false);
            searchButton.current?.focus();
          }}
        />
      )}
      <TypingNote c={c} />
      {!group && <DeviceNotices address={c.peer} name={c.title} />}
      <FileDrop conversationId={c.id} title={c.title}>
        {messages ? (
          <MessageList conversation={c} messages={messages} />
        ) : (
          <div className="message-scroller loading" aria-busy="true">
            <p className="subtle">
              <FormattedMessage
                id="chats.conversation.opening"
                defaultMessage="Opening messages…"
                description="Shown while a conversation's messages load"
              />
            </p>
          </div>
        )}
        <OutgoingSends conversationId={c.id} />
        {c.closed ? (
          <ClosedComposer closed={c.closed} />
        ) : (
          <Composer
            conversationId={c.id}
            placeholder={intl.formatMessage(
              {
                id: 'chats.composer.placeholder',
                defaultMessage: 'Message {name}',
                description: 'Placeholder of the message box; {name} is the contact or group',
              },
              { name: c.title },
            )}
          />
        )}
      </FileDrop>
    </>
  );
}
