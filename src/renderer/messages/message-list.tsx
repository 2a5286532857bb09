import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { ChatMessage, ConversationClosed, ConversationSummary } from '../../shared/domain.js';
import { BotBadge } from '../people/badges.js';
import { Icon } from '../components/icon.js';
import { clockTime, dayKey, dayLabel, deliveryNote, displayName, fullTime } from '../i18n/format.js';
import { StakeAsk } from '../stakes/stake-ask.js';
import { TimerNotice } from './timer-notice.js';
import { ClosedNotice } from './closed-notice.js';
import { MessageBody } from './message-body.js';
import { MessageFiles } from '../files/message-files.js';
import { useFocusedMessage } from './use-focused-message.js';
import { useStore } from '../store.js';

type Row =
  | { kind: 'day'; key: string; label: string }
  | { kind: 'msg'; key: string; m: ChatMessage; first: boolean }
  | { kind: 'closed'; key: string; closed: ConversationClosed };

/** Messages from one author within this window read as one block. */
const RUN_MS = 5 * 60 * 1000;
/** Older messages are asked for this many screens ahead of the top, so they are usually there before the reader is. */
const PREFETCH_SCREENS = 2;

function buildRows(messages: ChatMessage[], closed: ConversationClosed | null, intl: IntlShape): Row[] {
  const rows: Row[] = [];
  let day = '';
  let prev: ChatMessage | null = null;
  for (const m of messages) {
    const k = dayKey(m.sentAt);
    if (k !== day) {
      rows.push({ kind: 'day', key: `day-${k}`, label: dayLabel(m.sentAt, intl) });
      day = k;
      prev = null;
    }
    // two tokens may sign with one key: a new bot name is a new author
    const first =
      !prev ||
      prev.from !== m.from ||
      prev.botName !== m.botName ||
      Date.parse(m.sentAt) - Date.parse(prev.sentAt) > RUN_MS;
    rows.push({ kind: 'msg', key: m.id, m, first });
    prev = m;
  }
  // the chat's last word once we are out of the group: nothing more comes after it
  if (closed) rows.push({ kind: 'closed', key: 'closed', closed });
  return rows;
}

export function MessageList({
  conversation,
  messages,
}: {
  conversation: ConversationSummary;
  messages: ChatMessage[];
}) {
  const intl = useIntl();
  const rows = useMemo(() => buildRows(messages, conversation.closed, intl), [messages, conversation.closed, intl]);
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const [showJump, setShowJump] = useState(false);
  const history = useStore((s) => s.historyByConversation[conversation.id]);
  const loadOlderMessages = useStore((s) => s.loadOlderMessages);
  const showToast = useStore((s) => s.showToast);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (rows[i].kind !== 'msg' ? 44 : rows[i].first ? 64 : 40),
    getItemKey: (i) => rows[i].key,
    overscan: 10,
    // a conversation opens at its newest message: lay out those rows first, not the oldest page's
    initialOffset: () => Number.MAX_SAFE_INTEGER,
  });

  // The message row at the top of the screen, and how far the screen's top is below that row's
  // top, noted on every scroll. A page prepended above puts it back there, so what the reader
  // looks at does not move. (A day divider is never the anchor: its key moves to the new top
  // when the older page ends on the same day.)
  const anchor = useRef<{ key: string; delta: number } | null>(null);
  const noteAnchor = (top: number) => {
    const at = virtualizer.getVirtualItemForOffset(top);
    if (!at) return;
    const item = rows[at.index]?.kind === 'day' ? virtualizer.measurementsCache[at.index + 1] : at;
    anchor.current = item ? { key: String(item.key), delta: top - item.start } : null;
  };
  // After a prepend, the rows above the anchor are estimates until they are first drawn and
  // measured, a render or two later; the anchor is held (re-placed after each render) until
  // the reader scrolls. `wrote` tells our own scrolling from theirs.
  const holding = useRef<{ key: string; delta: number; wrote: number } | null>(null);
  const firstMessageId = useRef<string | null>(null);
  useLayoutEffect(() => {
    const before = firstMessageId.current;
    firstMessageId.current = messages[0]?.id ?? null;
    if (before && anchor.current && before !== firstMessageId.current)
      holding.current = { ...anchor.current, wrote: NaN };
    const h = holding.current;
    const el = scroller.current;
    if (!h || !el) return;
    const i = rows.findIndex((r) => r.key === h.key);
    const item = i >= 0 ? virtualizer.measurementsCache[i] : undefined;
    if (!item) {
      holding.current = null;
      return;
    }
    const target = Math.round(item.start + h.delta);
    if (Math.abs(el.scrollTop - target) >= 1) el.scrollTop = target;
    h.wrote = el.scrollTop;
  });

  const canLoadOlder = history?.hasOlder === true && !history.loadingOlder;
  const loadOlderIfNearTop = useCallback(() => {
    const el = scroller.current;
    if (!el || !canLoadOlder || el.scrollTop > el.clientHeight * PREFETCH_SCREENS) return;
    loadOlderMessages(conversation.id).catch((e: Error) => showToast('error', e.message));
  }, [canLoadOlder, conversation.id, loadOlderMessages, showToast]);
  // A page that lands while the reader is still near the top asks for the next one (once
  // they have scrolled: the anchor is noted then; at opening the list is still on its way to the bottom).
  useEffect(() => {
    if (anchor.current) loadOlderIfNearTop();
  }, [loadOlderIfNearTop]);

  // Open at the newest message.
  useLayoutEffect(() => {
    if (rows.length) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [conversation.id]);

  // Follow new messages when the reader is at the bottom, or when they sent it.
  const last = messages[messages.length - 1];
  useEffect(() => {
    if (!rows.length) return;
    if (atBottom.current || last?.fromMe) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
    // Keyed on the last message alone: a page prepended above is not a new message to follow.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [last?.id]);

  // A search hit opens the list at its message: after the effects above, which head for the bottom.
  const rowKeys = useMemo(() => rows.map((r) => r.key), [rows]);
  const markedId = useFocusedMessage(conversation.id, rowKeys, (i) => {
    atBottom.current = false;
    holding.current = null;
    virtualizer.scrollToIndex(i, { align: 'center' });
  });

  // a reply means the first message, sent as a request, was taken up: its note and label go
  const answered = useMemo(() => messages.some((x) => !x.fromMe), [messages]);
  const peerName =
    conversation.kind === 'direct'
      ? conversation.title
      : intl.formatMessage({
          id: 'messageList.peerName.group',
          defaultMessage: 'the group',
          description:
            'Stands in for the recipient’s name in the delivery notes of a group message (“Not delivered: … ”)',
        });

  return (
    <>
      <div
        ref={scroller}
        className="message-scroller"
        role="log"
        aria-label={intl.formatMessage({
          id: 'messageList.label',
          defaultMessage: 'Messages',
          description: 'Accessible name of the scrolling list of a conversation’s messages',
        })}
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          const bottom = el.scrollHeight - el.scrollTop - el.clientHeight < 96;
          atBottom.current = bottom;
          if (showJump === bottom) setShowJump(!bottom);
          if (holding.current && Math.abs(el.scrollTop - holding.current.wrote) > 1) holding.current = null;
          noteAnchor(el.scrollTop);
          loadOlderIfNearTop();
        }}
      >
        {history?.loadingOlder && (
          <div className="history-loading" role="status">
            <span>
              <FormattedMessage
                id="messageList.loadingOlder"
                defaultMessage="Loading earlier messages…"
                description="At the top of the message list while older messages load"
              />
            </span>
          </div>
        )}
        {rows.length === 0 ? (
          <div className="conversation-empty">
            <Icon name="lock" size={20} />
            <p>
              {conversation.kind === 'group' ? (
                <FormattedMessage
                  id="messageList.empty.group"
                  defaultMessage="No messages in this group yet. Say hello to everyone."
                  description="In an empty group conversation"
                />
              ) : (
                <FormattedMessage
                  id="messageList.empty.direct"
                  defaultMessage="This is the start of your conversation with {name}. Messages are end-to-end encrypted."
                  description="In an empty direct conversation; {name} is the contact’s handle or short address"
                  values={{ name: <bdi dir="ltr">{conversation.title}</bdi> }}
                />
              )}
            </p>
          </div>
        ) : (
          <div className="message-canvas" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((vi) => {
              const row = rows[vi.index];
              return (
                <div
                  key={vi.key}
                  data-index={vi.index}
                  ref={virtualizer.measureElement}
                  className={row.key === markedId ? 'message-row found' : 'message-row'}
                  style={{ transform: `translateY(${vi.start}px)` }}
                >
                  {row.kind === 'day' ? (
                    <div className="day-divider" role="separator" aria-label={row.label}>
                      <span>{row.label}</span>
                    </div>
                  ) : row.kind === 'closed' ? (
                    <ClosedNotice closed={row.closed} />
                  ) : (
                    <MessageBubble
                      m={row.m}
                      first={row.first}
                      group={conversation.kind === 'group'}
                      peerName={peerName}
                      answered={answered}
                    />
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>
      {/* a strip of its own under the list, not a button floating over the messages' times */}
      {showJump && (
        <div className="jump-bar">
          <button
            type="button"
            className="jump-btn"
            aria-label={intl.formatMessage({
              id: 'messageList.jump.label',
              defaultMessage: 'Jump to latest',
              description: 'Accessible name of the button under the message list that scrolls to the newest message',
            })}
            onClick={() => virtualizer.scrollToIndex(rows.length - 1, { align: 'end' })}
          >
            <Icon name="arrowLeft" size={16} className="rot-270" />{' '}
            <FormattedMessage
              id="messageList.jump.text"
              defaultMessage="Latest"
              description="Visible text of the button that scrolls to the newest message"
            />
          </button>
        </div>
      )}
    </>
  );
}

const MessageBubble = memo(function MessageBubble({
  m,
  first,
  group,
  peerName,
  answered,
}: {
  m: ChatMessage;
  first: boolean;
  group: boolean;
  peerName: string;
  answered: boolean;
}) {
  const retryMessage = useStore((s) => s.retryMessage);
  const showToast = useStore((s) => s.showToast);
  const offline = useStore((s) => !(s.status?.relay.connected ?? true));
  const intl = useIntl();
  const note =
    deliveryNote(m, peerName, intl, answered) ??
    (m.fromMe && m.state === 'sending' && offline
      ? {
          tone: 'muted' as const,
          text: intl.formatMessage({
            id: 'messageList.note.waiting',
            defaultMessage: 'Waiting to send: it goes out when the relay can be reached.',
            description: 'Under an own message while the relay cannot be reached',
          }),
        }
      : null);
  const bot = m.via === 'group-token';
  if (m.timerSeconds !== null) return <TimerNotice m={m} />;
  return (
    <div
      className={`msg ${m.fromMe ? 'mine' : 'theirs'} ${first ? 'first' : ''} state-${m.state} ${note ? `note-${note.tone}` : ''}`}
    >
      {group && !m.fromMe && first && (
        <div className="msg-author" title={bot ? m.from : undefined}>
          {bot && m.botName ? (
            <>
              {/* the name is the relay's word for which token posted; the signed address stays beside it */}
              <bdi className="msg-bot-name">{m.botName}</bdi>
              <BotBadge />
              <bdi className="msg-author-address" dir="ltr">
                {displayName(m.fromHandle, m.from)}
              </bdi>
            </>
          ) : (
            <>
              <bdi dir="ltr">{displayName(m.fromHandle, m.from)}</bdi>
              {bot && <BotBadge />}
            </>
          )}
        </div>
      )}
      <div className="bubble">
        <MessageFiles m={m} />
        <MessageBody m={m} />
        <span className="msg-meta">
          {m.editedAt && !m.deleted && (
            <span className="msg-edited">
              <FormattedMessage
                id="messageList.edited"
                defaultMessage="edited"
                description="Small mark beside the time of an edited message"
              />
            </span>
          )}
          <time dateTime={m.sentAt} title={fullTime(m.sentAt, intl)}>
            {clockTime(m.sentAt, intl)}
          </time>
          {m.fromMe && <StateIcon m={m} answered={answered} />}
        </span>
      </div>
      {note && (
        <div className={`msg-note tone-${note.tone}`} role={note.tone === 'muted' ? undefined : 'status'}>
          <Icon name={note.tone === 'muted' ? 'inbox' : 'alert'} size={14} />
          <span>{note.text}</span>
          {m.state === 'failed' && m.errorCode === 'safety-number-changed' ? (
            <SafetyChangedAnswers m={m} />
          ) : (
            m.state === 'failed' &&
            m.errorCode !== 'not-a-member' && (
              <button
                type="button"
                className="btn btn-link btn-sm"
                onClick={() => retryMessage(m.id).catch((e: Error) => showToast('error', e.message))}
              >
                <Icon name="refresh" size={14} /> <FormattedMessage {...texts.retry} />
              </button>
            )
          )}
        </div>
      )}
      {m.fromMe && !group && m.state === 'sent' && m.routed === 'stake-gate' && <StakeAsk m={m} peerName={peerName} />}
    </div>
  );
});

/**
 * A message held back because the contact's devices changed after they were verified: the same
 * two answers the composer's question offers. A bare Retry would only be held back again.
 */
function SafetyChangedAnswers({ m }: { m: ChatMessage }) {
  const verifyContact = useStore((s) => s.verifyContact);
  const openVerify = useStore((s) => s.openVerify);
  const retryMessage = useStore((s) => s.retryMessage);
  const showToast = useStore((s) => s.showToast);
  const address = m.conversationId.slice('direct:'.length);
  // answered already (verified again in the dialog, or another held message's Send anyway)
  const pending = useStore((s) => s.trustByAddress[address]?.changed ?? true);
  if (!pending)
    return (
      <button
        type="button"
        className="btn btn-link btn-sm"
        onClick={() => retryMessage(m.id).catch((e: Error) => showToast('error', e.message))}
      >
        <Icon name="refresh" size={14} /> <FormattedMessage {...texts.retry} />
      </button>
    );
  return (
    <>
      <button type="button" className="btn btn-link btn-sm" onClick={() => openVerify(address)}>
        <FormattedMessage
          id="messageList.safety.verifyFirst"
          defaultMessage="Verify first"
          description="Under a message held back because the contact’s devices changed: opens the Verify dialog"
        />
      </button>
      <button
        type="button"
        className="btn btn-link btn-sm"
        onClick={() =>
          verifyContact(address, false)
            .then(() => retryMessage(m.id))
            .catch((e: Error) => showToast('error', e.message))
        }
      >
        <FormattedMessage
          id="messageList.safety.sendAnyway"
          defaultMessage="Send anyway"
          description="Under a message held back because the contact’s devices changed: sends it without verifying again"
        />
      </button>
    </>
  );
}

/** How far an own message got, as a tick and as words: `role="img"` with a label, so it is said, not only drawn. */
const texts = defineMessages({
  retry: {
    id: 'messageList.retry',
    defaultMessage: 'Retry',
    description: 'Button under an own message that failed to send',
  },
  sending: {
    id: 'messageList.state.sending',
    defaultMessage: 'Sending',
    description: 'Delivery tick of an own message (read out and shown as tooltip): on its way',
  },
  sent: {
    id: 'messageList.state.sent',
    defaultMessage: 'Sent',
    description: 'Delivery tick of an own message: the relay has it',
  },
  delivered: {
    id: 'messageList.state.delivered',
    defaultMessage: 'Delivered',
    description: 'Delivery tick of an own message: it reached the recipient’s device',
  },
  read: {
    id: 'messageList.state.read',
    defaultMessage: 'Read',
    description: 'Delivery tick of an own message: the recipient read it',
  },
  sentAsRequest: {
    id: 'messageList.state.sentAsRequest',
    defaultMessage: 'Sent as request',
    description: 'Delivery tick of an own message that went out as a contact request',
  },
  failed: {
    id: 'messageList.state.failed',
    defaultMessage: 'Failed',
    description: 'Mark of an own message that could not be sent',
  },
  notDelivered: {
    id: 'messageList.state.notDelivered',
    defaultMessage: 'Not delivered',
    description: 'Mark of an own message the recipient refused (blocked, or a stake is asked)',
  },
});

const DELIVERY: Record<
  NonNullable<ChatMessage['delivery']>,
  { label: keyof typeof texts; icon: 'clock' | 'check' | 'checks'; tone: string }
> = {
  sending: { label: 'sending', icon: 'clock', tone: '' },
  sent: { label: 'sent', icon: 'check', tone: '' },
  delivered: { label: 'delivered', icon: 'checks', tone: '' },
  read: { label: 'read', icon: 'checks', tone: 'read' },
};

function StateIcon({ m, answered }: { m: ChatMessage; answered: boolean }) {
  const intl = useIntl();
  if (m.state === 'failed') {
    const failed = intl.formatMessage(texts.failed);
    return (
      <span className="state-icon danger" role="img" aria-label={failed} title={failed}>
        <Icon name="alert" size={13} />
      </span>
    );
  }
  if (m.routed === 'blocked' || m.routed === 'stake-gate') {
    const notDelivered = intl.formatMessage(texts.notDelivered);
    return (
      <span className="state-icon warn" role="img" aria-label={notDelivered} title={notDelivered}>
        <Icon name="alert" size={13} />
      </span>
    );
  }
  const d = DELIVERY[m.delivery ?? (m.state === 'sending' ? 'sending' : 'sent')];
  const asRequest = d.label === 'sent' && m.routed === 'request' && !answered;
  const label = intl.formatMessage(texts[asRequest ? 'sentAsRequest' : d.label]);
  return (
    <span className={`state-icon ${d.tone}`} role="img" aria-label={label} title={label}>
      <Icon name={d.icon} size={d.icon === 'checks' ? 15 : 13} />
    </span>
  );
}
