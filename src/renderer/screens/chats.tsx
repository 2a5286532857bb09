import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ConversationSummary } from '../../shared/domain.js';
import { Avatar } from '../components/avatar.js';
import { CountBadge, VerifiedBadge } from '../components/badges.js';
import { CopyButton } from '../components/copy-button.js';
import { Dialog } from '../components/dialog.js';
import { DialogFooter } from '../components/dialog-footer.js';
import { EmptyState } from '../components/empty-state.js';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { parseRecipient, recipientText } from '../../shared/recipient.js';
import { lastMessagePreview, listTime } from '../format.js';
import { PersonName } from '../components/person-name.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';
import { Composer } from './composer.js';
import { MessageList } from './message-list.js';
import { FileDrop } from './file-drop.js';
import { OutgoingSends } from './outgoing-sends.js';
import { TimerControl } from './timer-control.js';
import { ConversationSearch } from './conversation-search.js';
import { MessageSearchResults } from './message-search-results.js';
import { RecipientField } from '../components/recipient-field.js';
import { SafetyVerifiedBadge } from '../components/safety-verified-badge.js';
import { DeviceNotices } from './device-notices.js';
import { VerifyButton } from './verify-button.js';

export function Chats() {
  const activeId = useStore((s) => s.activeConversationId);
  const active = useStore((s) => s.conversations.find((c) => c.id === s.activeConversationId) ?? null);
  return (
    <div className="split">
      <ConversationList />
      <section className="pane conversation-pane" aria-label={active ? `Conversation with ${active.title}` : 'Conversation'}>
        {active ? <Conversation key={active.id} c={active} /> : <NoConversation hasAny={activeId !== null} />}
      </section>
    </div>
  );
}

function NoConversation({ hasAny }: { hasAny: boolean }) {
  const count = useStore((s) => s.conversations.length);
  const waiting = useStore((s) => s.requests.length);
  const showView = useStore((s) => s.showView);
  // A waiting request is the one thing to do here: say so, rather than "pick a conversation".
  if (waiting > 0)
    return (
      <EmptyState
        icon="inbox"
        title={waiting === 1 ? 'A contact request is waiting' : `${waiting} contact requests are waiting`}
        action={
          <button type="button" className="btn btn-primary" onClick={() => showView('requests')}>
            <Icon name="inbox" /> Open requests
          </button>
        }
      >
        Someone new wrote to you. Accept to chat, or decline.
      </EmptyState>
    );
  if (count === 0 && !hasAny)
    return (
      <EmptyState
        icon="chat"
        title="No conversations yet"
        action={
          <button type="button" className="btn btn-primary" onClick={() => showView('directory')}>
            <Icon name="search" /> Find people
          </button>
        }
      >
        Find someone in the directory, or start a chat with a wallet address.
      </EmptyState>
    );
  return (
    <EmptyState icon="chat" title="Pick a conversation">
      Your messages are sealed on this device and opened only by the people in the conversation.
    </EmptyState>
  );
}

function ConversationList() {
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
    return q ? conversations.filter((c) => c.title.toLowerCase().includes(q) || c.peer.toLowerCase().includes(q)) : conversations;
  }, [conversations, filter]);

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
    <section className="pane list-pane" aria-label="Conversations">
      <header className="pane-header">
        <h1>Chats</h1>
        <button type="button" className="icon-btn" aria-label="New chat" title="New chat" onClick={() => setNewOpen(true)}>
          <Icon name="plus" />
        </button>
      </header>
      <div className="pane-search">
        <Icon name="search" size={16} />
        <input ref={searchInput} type="search" aria-label="Search chats and messages" placeholder="Search chats and messages" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </div>
      {loaded && shown.length === 0 && filter && <p className="list-note">No chats match “{filter}”.</p>}
      <ul className={filter.trim() ? 'conv-list filtered' : 'conv-list'} ref={listRef} onKeyDown={onKeyDown} aria-label="Conversation list">
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
  return (
    <button type="button" className={active ? 'conv active' : c.unread > 0 ? 'conv unread' : 'conv'} aria-current={active ? 'true' : undefined} onClick={onSelect}>
      <Avatar name={c.title} seed={c.peer} size={40} square={c.kind === 'group'} />
      <span className="conv-body">
        <span className="conv-top">
          <span className="conv-title">
            {c.kind === 'group' && <Icon name="users" size={13} className="muted-icon" />}
            {c.kind === 'group' ? <span className="truncate">{c.title}</span> : <PersonName address={c.peer} handle={c.title.startsWith('@') ? c.title.slice(1) : null} className="truncate" />}
            {c.verified && <VerifiedBadge />}
            {c.muted && (
              <span className="conv-muted" role="img" aria-label="Muted" title="Muted">
                <Icon name="bellOff" size={13} />
              </span>
            )}
          </span>
          {c.lastMessage && <time className="conv-time" dateTime={c.lastMessage.at}>{listTime(c.lastMessage.at)}</time>}
        </span>
        <span className="conv-bottom">
          <span className="conv-preview truncate">{lastMessagePreview(c)}</span>
          <CountBadge count={c.unread} label="unread" />
        </span>
      </span>
    </button>
  );
}

function NewChatDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const startConversation = useStore((s) => s.startConversation);
  const action = useAction(startConversation);
  const [to, setTo] = useState('');
  return (
    <Dialog title="New chat" open={open} onClose={onClose}>
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = parseRecipient(to);
          if ('problem' in r) return action.setError(r.problem);
          if ((await action.run(recipientText(r))).ok) {
            setTo('');
            onClose();
          }
        }}
      >
        <RecipientField
          label="Address or handle"
          value={to}
          onChange={(v) => {
            setTo(v);
            // an answer about what was typed before must not stay under what is typed now
            action.setError(null);
          }}
          placeholder="@alice or 0x…"
          autoFocus
          invalid={!!action.error}
        />
        <FormError error={action.error} />
        <DialogFooter onCancel={onClose} submitLabel="Start chat" disabled={!to.trim() || action.busy} />
      </form>
    </Dialog>
  );
}

function Conversation({ c }: { c: ConversationSummary }) {
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
            {group ? <span className="truncate">{c.title}</span> : <PersonName address={c.peer} handle={c.title.startsWith('@') ? c.title.slice(1) : null} className="truncate" />}
            {c.verified && <VerifiedBadge />}
            {!group && <SafetyVerifiedBadge address={c.peer} />}
          </h2>
          <span className="subtle conv-header-sub">
            {group && (
              <>
                Group<span className="sep" aria-hidden="true">·</span>
              </>
            )}
            <Icon name="lock" size={12} /> <span className="truncate">End-to-end encrypted</span>
          </span>
        </div>
        <div className="conv-header-actions">
          <TimerControl c={c} />
          <button ref={searchButton} type="button" className="icon-btn" aria-label="Search in conversation" title="Search in conversation" aria-expanded={searching} onClick={() => setSearching(!searching)}>
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
              <Icon name="users" size={15} /> Group info
            </button>
          ) : (
            <>
              <VerifyButton address={c.peer} name={c.title} />
              <CopyButton text={c.peer} label={`Copy ${c.title}’s address`} className="icon-btn" iconOnly />
            </>
          )}
        </div>
      </header>
      {searching && (
        <ConversationSearch c={c} onClose={() => {
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
            <p className="subtle">Opening messages…</p>
          </div>
        )}
        <OutgoingSends conversationId={c.id} />
        <Composer conversationId={c.id} placeholder={group ? `Message ${c.title}` : `Message ${c.title}`} />
      </FileDrop>
    </>
  );
}

/** Silences this conversation's desktop notifications; its unread count still shows. */
function MuteButton({ c }: { c: ConversationSummary }) {
  const muteConversation = useStore((s) => s.muteConversation);
  const action = useAction(muteConversation);
  const showToast = useStore((s) => s.showToast);
  return (
    <button
      type="button"
      className="icon-btn"
      aria-pressed={c.muted}
      aria-label="Mute notifications"
      title={c.muted ? 'Muted: no notifications from this conversation' : 'Mute notifications'}
      disabled={action.busy}
      onClick={async () => {
        if (!(await action.run(c.id, !c.muted)).ok) showToast('error', 'Could not change the mute setting.');
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
      {typing ? `${c.kind === 'direct' ? c.title : 'Someone'} is typing…` : ''}
    </p>
  );
}
