import { useEffect, useMemo, useRef, type KeyboardEvent, type RefObject } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ConversationId } from '../../shared/domain.js';
import { snippetParts, type MessageSearchHit } from '../../shared/message-search.js';
import { displayName, fullTime, listTime } from '../i18n/format.js';
import { useStore } from '../store.js';

/** between a hit's author and its words: a space, nothing to translate */
const GAP = ' ';
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
export function MessageSearchResults({
  query,
  input,
  conversationId,
}: {
  query: string;
  input: RefObject<HTMLInputElement | null>;
  conversationId?: ConversationId;
}) {
  const state = useStore((s) => (conversationId ? s.conversationSearch : s.chatSearch));
  const searchMessages = useStore((s) => s.searchMessages);
  const openSearchHit = useStore((s) => s.openSearchHit);
  const showToast = useStore((s) => s.showToast);
  const list = useRef<HTMLDivElement>(null);
  const intl = useIntl();

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
    <div
      className="search-results"
      ref={list}
      onKeyDown={onListKey}
      role="region"
      aria-label={
        conversationId
          ? intl.formatMessage({
              id: 'messageSearch.region.conversation',
              defaultMessage: 'Messages found in this conversation',
              description: 'Accessible name of the search results under a conversation’s own search box',
            })
          : intl.formatMessage({
              id: 'messageSearch.region.all',
              defaultMessage: 'Messages found',
              description: 'Accessible name of the message search results under the chats search box',
            })
      }
    >
      {!conversationId && (
        <h2 className="search-results-title">
          <FormattedMessage
            id="messageSearch.title"
            defaultMessage="Messages"
            description="Heading of the messages found, under the matching chats"
          />
        </h2>
      )}
      <p className="list-note" role="status">
        {state.error ? (
          <FormattedMessage
            id="messageSearch.failed"
            defaultMessage="Search failed: {reason}"
            description="When a message search failed; {reason} says why"
            values={{ reason: state.error }}
          />
        ) : hits.length === 0 ? (
          state.loading || state.query !== query ? (
            <FormattedMessage
              id="messageSearch.searching"
              defaultMessage="Searching…"
              description="While a message search runs"
            />
          ) : (
            <FormattedMessage
              id="messageSearch.noMatch"
              defaultMessage="No messages match “{query}”."
              description="When no message matches; {query} is what was typed"
              values={{ query: <bdi>{query.trim()}</bdi> }}
            />
          )
        ) : null}
      </p>
      {conversationId ? (
        <HitList hits={hits} open={open} />
      ) : (
        byConversation(hits).map((g) => <ConversationHits key={g.conversationId} group={g} open={open} />)
      )}
    </div>
  );
}

function ConversationHits({ group, open }: { group: Group; open: (h: MessageSearchHit) => void }) {
  const intl = useIntl();
  const title =
    useStore((s) => s.conversations.find((c) => c.id === group.conversationId)?.title) ??
    intl.formatMessage({
      id: 'messageSearch.unknownConversation',
      defaultMessage: 'Conversation',
      description: 'Heading of search hits whose conversation is no longer listed',
    });
  const headingId = `found-in-${group.conversationId}`;
  return (
    <section className="search-group" aria-labelledby={headingId}>
      <h3 id={headingId} className="search-group-title truncate">
        <bdi>{title}</bdi>
      </h3>
      <HitList hits={group.hits} open={open} group={group.conversationId.startsWith('group:')} />
    </section>
  );
}

function HitList({
  hits,
  open,
  group = false,
}: {
  hits: MessageSearchHit[];
  open: (h: MessageSearchHit) => void;
  group?: boolean;
}) {
  const intl = useIntl();
  const labels = useMemo(
    () => hits.map((h) => (h.fromMe ? (true as const) : group ? displayName(h.fromHandle, h.from) : null)),
    [hits, group],
  );
  return (
    <ul className="search-hits">
      {hits.map((h, i) => (
        <li key={h.messageId}>
          <button type="button" className="search-hit" onClick={() => open(h)}>
            <span className="search-hit-text">
              {labels[i] && (
                <span className="search-hit-author">
                  {labels[i] === true ? (
                    <FormattedMessage
                      id="messageSearch.hit.you"
                      defaultMessage="You:"
                      description="Before the text of a found message one wrote oneself"
                    />
                  ) : (
                    <FormattedMessage
                      id="messageSearch.hit.author"
                      defaultMessage="{name}:"
                      description="Before the text of a found message in a group; {name} is its author’s handle or short address"
                      values={{ name: <bdi dir="ltr">{labels[i]}</bdi> }}
                    />
                  )}
                  {GAP}
                </span>
              )}
              {snippetParts(h.snippet).map((p, j) =>
                p.match ? <mark key={j}>{p.text}</mark> : <span key={j}>{p.text}</span>,
              )}
            </span>
            <time dateTime={h.sentAt} title={fullTime(h.sentAt, intl)}>
              {listTime(h.sentAt, intl)}
            </time>
          </button>
        </li>
      ))}
    </ul>
  );
}
