import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ConversationSummary } from '../../shared/domain.js';
import { Avatar } from '../people/avatar.js';
import { CountBadge, VerifiedBadge } from '../people/badges.js';
import { CopyButton } from '../components/copy-button.js';
import { Dialog } from '../components/dialog.js';
import { DialogFooter } from '../components/dialog-footer.js';
import { EmptyState } from '../components/empty-state.js';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { parseRecipient, recipientText } from '../../shared/recipient.js';
import { lastMessagePreview, listTime } from '../i18n/format.js';
import { PersonName } from '../people/person-name.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { Composer } from '../conversation/composer.js';
import { MessageList } from '../messages/message-list.js';
import { FileDrop } from '../files/file-drop.js';
import { OutgoingSends } from '../files/outgoing-sends.js';
import { TimerControl } from '../conversation/timer-control.js';
import { ConversationSearch } from '../search/conversation-search.js';
import { MessageSearchResults } from '../search/message-search-results.js';
import { RecipientField } from '../people/recipient-field.js';
import { SafetyVerifiedBadge } from '../trust/safety-verified-badge.js';
import { DeviceNotices } from '../trust/device-notices.js';
import { VerifyButton } from '../trust/verify-button.js';

/** a separator, not a word: the same in every language */
const SEP = '·';

export function Chats() {
  const intl = useIntl();
  const activeId = useStore((s) => s.activeConversationId);
  const active = useStore((s) => s.conversations.find((c) => c.id === s.activeConversationId) ?? null);
  return (
    <div className="split">
      <ConversationList />
      <section
        className="pane conversation-pane"
        aria-label={
          active
            ? intl.formatMessage(
                {
                  id: 'chats.conversation.label',
                  defaultMessage: 'Conversation with {name}',
                  description:
                    'Accessible name of the pane showing the open conversation; {name} is the contact or group',
                },
                { name: active.title },
              )
            : intl.formatMessage({
                id: 'chats.conversation.labelNone',
                defaultMessage: 'Conversation',
                description: 'Accessible name of the conversation pane when no conversation is open',
              })
        }
      >
        {active ? <Conversation key={active.id} c={active} /> : <NoConversation hasAny={activeId !== null} />}
      </section>
    </div>
  );
}

function NoConversation({ hasAny }: { hasAny: boolean }) {
  const intl = useIntl();
  const count = useStore((s) => s.conversations.length);
  const waiting = useStore((s) => s.requests.length);
  const showView = useStore((s) => s.showView);
  // A waiting request is the one thing to do here: say so, rather than "pick a conversation".
  if (waiting > 0)
    return (
      <EmptyState
        icon="inbox"
        title={intl.formatMessage(
          {
            id: 'chats.empty.requestsWaiting',
            defaultMessage:
              '{count, plural, one {A contact request is waiting} other {# contact requests are waiting}}',
            description: 'Title of the empty conversation pane when contact requests wait; {count} is how many',
          },
          { count: waiting },
        )}
        action={
          <button type="button" className="btn btn-primary" onClick={() => showView('requests')}>
            <Icon name="inbox" />{' '}
            <FormattedMessage
              id="chats.empty.openRequests"
              defaultMessage="Open requests"
              description="Button in the empty conversation pane that opens the Requests screen"
            />
          </button>
        }
      >
        <FormattedMessage
          id="chats.empty.requestsHint"
          defaultMessage="Someone new wrote to you. Accept to chat, or decline."
          description="Text under the title when contact requests wait"
        />
      </EmptyState>
    );
  if (count === 0 && !hasAny)
    return (
      <EmptyState
        icon="chat"
        title={intl.formatMessage({
          id: 'chats.empty.title',
          defaultMessage: 'No conversations yet',
          description: 'Title of the conversation pane before the first conversation',
        })}
        action={
          <button type="button" className="btn btn-primary" onClick={() => showView('directory')}>
            <Icon name="search" />{' '}
            <FormattedMessage
              id="chats.empty.findPeople"
              defaultMessage="Find people"
              description="Button that opens the directory, shown before the first conversation"
            />
          </button>
        }
      >
        <FormattedMessage
          id="chats.empty.hint"
          defaultMessage="Find someone in the directory, or start a chat with a wallet address."
          description="Text under 'No conversations yet'"
        />
      </EmptyState>
    );
  return (
    <EmptyState
      icon="chat"
      title={intl.formatMessage({
        id: 'chats.empty.pickTitle',
        defaultMessage: 'Pick a conversation',
        description: 'Title of the conversation pane when none is open',
      })}
    >
      <FormattedMessage
        id="chats.empty.pickHint"
        defaultMessage="Your messages are sealed on this device and opened only by the people in the conversation."
        description="Text under 'Pick a conversation'"
      />
    </EmptyState>
  );
}

function ConversationList() {
  const intl = useIntl();
  const all = useStore((s) => s.conversations);
  const requests = useStore((s) => s.requests);
  // Someone whose request is still pending lives in Requests until accepted.
  const conversations = useMemo(() => {
    const pending = new Set(requests.map((r) => `direct:${r.address.toLowerCase()}`));
    return pending.size ? all.filter((c) => !pending.has(c.id)) : all;
  }, [all, requests]);
  const loaded = useStore((s) => s.conversationsLoaded);
  const activeId = useStore((s) => s.activeConversationId);
  const selectConversation = useStore((s) => s.selectConversation);
  const [filter, setFilter] = useState('');
  const [newOpen, setNewOpen] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  const searchInput = useRef<HTMLInputElement>(null);
  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return q
      ? conversations.filter((c) => c.title.toLowerCase().includes(q) || c.peer.toLowerCase().includes(q))
      : conversations;
  }, [conversations, filter]);

  const newChat = intl.formatMessage({
    id: 'chats.list.newChat',
    defaultMessage: 'New chat',
    description: 'Icon button above the conversation list that starts a new chat',
  });
  const searchLabel = intl.formatMessage({
    id: 'chats.list.search',
    defaultMessage: 'Search chats and messages',
    description: 'Search box above the conversation list (label and placeholder)',
  });

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const buttons = Array.from(listRef.current?.querySelectorAll<HTMLButtonElement>('button.conv') ?? []);
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next = buttons[Math.max(0, Math.min(buttons.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)))];
    next?.focus();
    next?.click();
  };

  return (
    <section
      className="pane list-pane"
      aria-label={intl.formatMessage({
        id: 'chats.list.label',
        defaultMessage: 'Conversations',
        description: 'Accessible name of the pane listing conversations',
      })}
    >
      <header className="pane-header">
        <h1>
          <FormattedMessage
            id="chats.list.title"
            defaultMessage="Chats"
            description="Heading of the conversation list"
          />
        </h1>
        <button
          type="button"
          className="icon-btn"
          aria-label={newChat}
          title={newChat}
          onClick={() => setNewOpen(true)}
        >
          <Icon name="plus" />
        </button>
      </header>
      <div className="pane-search">
        <Icon name="search" size={16} />
        <input
          ref={searchInput}
          type="search"
          aria-label={searchLabel}
          placeholder={searchLabel}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </div>
      {loaded && shown.length === 0 && filter && (
        <p className="list-note">
          <FormattedMessage
            id="chats.list.noMatch"
            defaultMessage="No chats match “{query}”."
            description="Under the search box when no conversation matches; {query} is what was typed"
            values={{ query: <bdi>{filter}</bdi> }}
          />
        </p>
      )}
      <ul
        className={filter.trim() ? 'conv-list filtered' : 'conv-list'}
        ref={listRef}
        onKeyDown={onKeyDown}
        aria-label={intl.formatMessage({
          id: 'chats.list.listLabel',
          defaultMessage: 'Conversation list',
          description: 'Accessible name of the list of conversations',
        })}
      >
        {shown.map((c) => (
          <li key={c.id}>
            <ConversationItem c={c} active={c.id === activeId} onSelect={() => void selectConversation(c.id)} />
          </li>
        ))}
      </ul>
      <MessageSearchResults query={filter} input={searchInput} />
      <NewChatDialog open={newOpen} onClose={() => setNewOpen(false)} />
    </section>
  );
}

function ConversationItem({ c, active, onSelect }: { c: ConversationSummary; active: boolean; onSelect: () => void }) {
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
              <bdi className="truncate">{c.title}</bdi>
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
          <span className="conv-preview truncate">{lastMessagePreview(c, intl)}</span>
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

function NewChatDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const intl = useIntl();
  const startConversation = useStore((s) => s.startConversation);
  const action = useAction(startConversation);
  const [to, setTo] = useState('');
  return (
    <Dialog
      title={intl.formatMessage({
        id: 'chats.newChat.title',
        defaultMessage: 'New chat',
        description: 'Title of the dialog that starts a chat with an address or handle',
      })}
      open={open}
      onClose={onClose}
    >
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = parseRecipient(to);
          if ('problem' in r) return action.setError(r);
          if ((await action.run(recipientText(r))).ok) {
            setTo('');
            onClose();
          }
        }}
      >
        <RecipientField
          label={intl.formatMessage({
            id: 'chats.newChat.recipient',
            defaultMessage: 'Address or handle',
            description: 'Field label in the New chat dialog',
          })}
          value={to}
          onChange={(v) => {
            setTo(v);
            // an answer about what was typed before must not stay under what is typed now
            action.setError(null);
          }}
          placeholder={intl.formatMessage({
            id: 'chats.newChat.placeholder',
            defaultMessage: '@alice or 0x…',
            description:
              'Placeholder of the New chat field: an example handle (@alice, keep it) or an address starting with 0x',
          })}
          autoFocus
          invalid={!!action.error}
        />
        <FormError error={action.error} />
        <DialogFooter
          onCancel={onClose}
          submitLabel={intl.formatMessage({
            id: 'chats.newChat.submit',
            defaultMessage: 'Start chat',
            description: 'Submit button of the New chat dialog',
          })}
          disabled={!to.trim() || action.busy}
        />
      </form>
    </Dialog>
  );
}

function Conversation({ c }: { c: ConversationSummary }) {
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
              <bdi className="truncate">{c.title}</bdi>
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
          <TimerControl c={c} />
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
      </FileDrop>
    </>
  );
}

/** Silences this conversation's desktop notifications; its unread count still shows. */
function MuteButton({ c }: { c: ConversationSummary }) {
  const muteConversation = useStore((s) => s.muteConversation);
  const action = useAction(muteConversation);
  const showToast = useStore((s) => s.showToast);
  const intl = useIntl();
  const mute = intl.formatMessage({
    id: 'chats.mute.label',
    defaultMessage: 'Mute notifications',
    description: 'Toggle button in the conversation header (pressed when muted)',
  });
  return (
    <button
      type="button"
      className="icon-btn"
      aria-pressed={c.muted}
      aria-label={mute}
      title={
        c.muted
          ? intl.formatMessage({
              id: 'chats.mute.mutedTitle',
              defaultMessage: 'Muted: no notifications from this conversation',
              description: 'Tooltip of the mute button while the conversation is muted',
            })
          : mute
      }
      disabled={action.busy}
      onClick={async () => {
        if (!(await action.run(c.id, !c.muted)).ok)
          showToast(
            'error',
            intl.formatMessage({
              id: 'chats.mute.failed',
              defaultMessage: 'Could not change the mute setting.',
              description: 'Error toast when muting or unmuting failed',
            }),
          );
      }}
    >
      <Icon name={c.muted ? 'bellOff' : 'bell'} />
    </button>
  );
}

/** "@alice is typing…": a live region that is always there, so screen readers hear it come and go. */
function TypingNote({ c }: { c: ConversationSummary }) {
  const typing = useStore((s) => s.typingByConversation[c.id] ?? null);
  return (
    <p className="typing-note" role="status">
      {typing &&
        (c.kind === 'direct' ? (
          <FormattedMessage
            id="chats.typing.person"
            defaultMessage="{name} is typing…"
            description="Live note above the message box; {name} is the contact"
            values={{ name: <bdi dir="ltr">{c.title}</bdi> }}
          />
        ) : (
          <FormattedMessage
            id="chats.typing.someone"
            defaultMessage="Someone is typing…"
            description="Live note above the message box in a group"
          />
        ))}
    </p>
  );
}
