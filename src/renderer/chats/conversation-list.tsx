import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Icon } from '../components/icon.js';
import { useStore } from '../store.js';
import { MessageSearchResults } from '../search/message-search-results.js';
import { ConversationItem } from './conversation-item.js';
import { shownInChats } from '../people/relationships-slice.js';
import { NewChatDialog } from './new-chat-dialog.js';

/** The conversations (those still waiting as requests left out), filtered as one types, with the message search under them. */
export function ConversationList() {
  const intl = useIntl();
  const all = useStore((s) => s.conversations);
  const relationships = useStore((s) => s.relationships);
  // Someone whose request is still pending lives in Requests until accepted; a blocked person nowhere.
  const conversations = useMemo(() => all.filter((c) => shownInChats({ relationships }, c)), [all, relationships]);
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
