import { useEffect, useMemo, useRef, type KeyboardEvent, type RefObject } from 'react';
import type { ConversationId } from '../../shared/domain.js';
import { snippetParts, type MessageSearchHit } from '../../shared/message-search.js';
import { displayName, fullTime, listTime } from '../format.js';
import { useStore } from '../store/store.js';

/** Typing pauses this long before a search runs: one search per word, not per letter. */
const TYPING_PAUSE_MS = 150;

interface Group {
  conversationId: ConversationId;
  hits: MessageSearchHit[];
}

/** Hits (newest first) grouped by conversation, the conversations in the order of their newest hit. */
function byConversation(hits: MessageSearchHit[]): Group[] {
  const groups = new Map<ConversationId, Group>();
  for (const h of hits) {
    const g = groups.get(h.conversationId) ?? { conversationId: h.conversationId, hits: [] };
    g.hits.push(h);
    groups.set(h.conversationId, g);
  }
  return [...groups.values()];
}

/**
 * Messages found for what is typed in `input`: across every conversation (grouped by
 * conversation, in the chats list) or, with `conversationId`, within that one. Keyboard: Enter
 * in the input opens the newest hit, ArrowDown moves into the hits, arrows move between them
 * (ArrowUp from the first goes back to the input), Enter or a click opens one.
 */
export function MessageSearchResults({ query, input, conversationId }: { query: string; input: RefObject<HTMLInputElement | null>; conversationId?: ConversationId }) {
  const state = useStore((s) => (conversationId ? s.conversationSearch : s.chatSearch));
  const searchMessages = useStore((s) => s.searchMessages);
  const openSearchHit = useStore((s) => s.openSearchHit);
  const showToast = useStore((s) => s.showToast);
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const t = setTimeout(() => void searchMessages(query, conversationId), query.trim() ? TYPING_PAUSE_MS : 0);
    return () => clearTimeout(t);
  }, [query, conversationId, searchMessages]);

  const open = (h: MessageSearchHit) => void openSearchHit(h).catch((e: Error) => showToast('error', e.message));
  const hits = state.query === query ? state.hits : [];
  const hitButtons = () => Array.from(list.current?.querySelectorAll<HTMLButtonElement>('button.search-hit') ?? []);

  useEffect(() => {
    const el = input.current;
    if (!el) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'ArrowDown' && hitButtons().length) {
        e.preventDefault();
        hitButtons()[0].focus();
      } else if (e.key === 'Enter' && hits.length) {
        e.preventDefault();
        open(hits[0]);
      }
    };
    el.addEventListener('keydown', onKey);
    return () => el.removeEventListener('keydown', onKey);
  });

  const onListKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const buttons = hitButtons();
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement) + (e.key === 'ArrowDown' ? 1 : -1);
    if (i < 0) input.current?.focus();
    else buttons[Math.min(i, buttons.length - 1)]?.focus();
  };

  if (!query.trim()) return null;
  return (
    <div className="search-results" ref={list} onKeyDown={onListKey} role="region" aria-label={conversationId ? 'Messages found in this conversation' : 'Messages found'}>
      {!conversationId && <h2 className="search-results-title">Messages</h2>}
      <p className="list-note" role="status">
        {state.error ? `Search failed: ${state.error}` : hits.length === 0 ? (state.loading || state.query !== query ? 'Searching…' : `No messages match “${query.trim()}”.`) : ''}
      </p>
      {conversationId ? <HitList hits={hits} open={open} /> : byConversation(hits).map((g) => <ConversationHits key={g.conversationId} group={g} open={open} />)}
    </div>
  );
}

function ConversationHits({ group, open }: { group: Group; open: (h: MessageSearchHit) => void }) {
  const title = useStore((s) => s.conversations.find((c) => c.id === group.conversationId)?.title ?? 'Conversation');
  const headingId = `found-in-${group.conversationId}`;
  return (
    <section className="search-group" aria-labelledby={headingId}>
      <h3 id={headingId} className="search-group-title truncate">
        {title}
      </h3>
      <HitList hits={group.hits} open={open} group={group.conversationId.startsWith('group:')} />
    </section>
  );
}

function HitList({ hits, open, group = false }: { hits: MessageSearchHit[]; open: (h: MessageSearchHit) => void; group?: boolean }) {
  const labels = useMemo(() => hits.map((h) => (h.fromMe ? 'You' : group ? displayName(h.fromHandle, h.from) : null)), [hits, group]);
  return (
    <ul className="search-hits">
      {hits.map((h, i) => (
        <li key={h.messageId}>
          <button type="button" className="search-hit" onClick={() => open(h)}>
            <span className="search-hit-text">
              {labels[i] && <span className="search-hit-author">{labels[i]}: </span>}
              {snippetParts(h.snippet).map((p, j) => (p.match ? <mark key={j}>{p.text}</mark> : <span key={j}>{p.text}</span>))}
            </span>
            <time dateTime={h.sentAt} title={fullTime(h.sentAt)}>
              {listTime(h.sentAt)}
            </time>
          </button>
        </li>
      ))}
    </ul>
  );
}
