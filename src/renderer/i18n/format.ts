/**
 * Dates, times, sizes, amounts and the app's recurring sentences about messages, in the active
 * language: each function takes the intl object — useIntl() in a component, so memoised rows
 * re-render when the language changes; currentIntl() outside React. It is required so that a
 * call which forgets it fails typecheck instead of staying English.
 */
import type { IntlShape } from 'react-intl';
import type { ChatMessage, ConversationSummary } from '../../shared/domain.js';
import { formatAmount } from '../../shared/stake/amount.js';
import { isolate } from './isolate.js';
import { translateError } from './error-messages.js';
import { formatMessages as m } from './format-messages.js';

export function shortAddress(a: string): string {
  return a.length > 12 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a;
}

export function displayName(handle: string | null | undefined, address: string): string {
  return handle ? `@${handle}` : shortAddress(address);
}

function startOfDay(d: Date): number {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

function daysAgo(d: Date, now: Date): number {
  return Math.round((startOfDay(now) - startOfDay(d)) / 86_400_000);
}

/** List time: clock time today, "yesterday", weekday this week, date before. */
export function listTime(iso: string, intl: IntlShape, now = new Date()): string {
  const d = new Date(iso);
  const days = daysAgo(d, now);
  if (days <= 0) return intl.formatTime(d, { hour: 'numeric', minute: '2-digit' });
  if (days === 1) return intl.formatMessage(m.yesterday);
  if (days < 7) return intl.formatDate(d, { weekday: 'short' });
  return intl.formatDate(d, { month: 'short', day: 'numeric' });
}

export function clockTime(iso: string, intl: IntlShape): string {
  return intl.formatTime(new Date(iso), { hour: 'numeric', minute: '2-digit' });
}

export function fullTime(iso: string, intl: IntlShape): string {
  return intl.formatDate(new Date(iso), { dateStyle: 'medium', timeStyle: 'short' });
}

/** A day divider: "Today", "Yesterday", else the weekday and date. */
export function dayLabel(iso: string, intl: IntlShape, now = new Date()): string {
  const d = new Date(iso);
  const days = daysAgo(d, now);
  if (days === 0) return intl.formatMessage(m.today);
  if (days === 1) return intl.formatMessage(m.yesterdayDay);
  return intl.formatDate(d, { weekday: 'long', month: 'long', day: 'numeric' });
}

export function dayKey(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
}

/** A count as the language writes numbers. */
export function count(n: number, intl: IntlShape): string {
  return intl.formatNumber(n);
}

const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Decimal text stays text, which Intl formats exactly; anything else goes as a number (NaN, as Intl would make of it). */
function decimal(text: string): `${number}` | number {
  return isDecimalText(text) ? text : Number(text);
}
const isDecimalText = (text: string): text is `${number}` => DECIMAL_TEXT.test(text);

/**
 * An amount in the language's digits and separators, from formatAmount's at most six
 * decimals; Intl formats the decimal string exactly (no float rounding).
 */
export function amountText(wei: bigint | string, currency: string, intl: IntlShape): string {
  const value = intl.formatNumber(decimal(formatAmount(wei)), { maximumFractionDigits: 20 });
  return intl.formatMessage(m.amount, { value, currency });
}

/** A file's size as people read it: 820 bytes, 14.2 KB, 3.1 MB (binary multiples, as file managers show them). */
export function fileSize(bytes: number, intl: IntlShape): string {
  if (bytes < 1024) return intl.formatMessage(m.bytes, { count: bytes });
  const one = { maximumFractionDigits: 1 };
  if (bytes < 1024 * 1024) return intl.formatMessage(m.kilobytes, { size: intl.formatNumber(bytes / 1024, one) });
  return intl.formatMessage(m.megabytes, { size: intl.formatNumber(bytes / (1024 * 1024), one) });
}

/**
 * A send refused for a named reason (one of the relay's quotas, or the contact's devices
 * changed since they were verified), in words about this conversation; null for any other
 * failure. Each says that nothing went out and what would change it.
 */
export function namedRefusal(msg: ChatMessage, peerName: string, intl: IntlShape): string | null {
  const group = msg.conversationId.startsWith('group:');
  const name = { name: isolate(peerName, intl) };
  switch (msg.errorCode) {
    case 'recipient-full':
      return intl.formatMessage(group ? m.recipientFullGroup : m.recipientFull, name);
    case 'requests-full':
      return intl.formatMessage(m.requestsFull, name);
    case 'too-many-requests-pending':
      return intl.formatMessage(m.tooManyPending, name);
    case 'storage-full':
      return intl.formatMessage(m.storageFull);
    case 'safety-number-changed':
      return intl.formatMessage(m.safetyChanged, name);
    case 'not-a-member':
      return intl.formatMessage(m.notAMember);
    default:
      return null;
  }
}

function stake(msg: ChatMessage, intl: IntlShape): string {
  return intl.formatMessage(m.amount, {
    value: intl.formatNumber(decimal(msg.stakeRequired ?? '0.01'), { maximumFractionDigits: 20 }),
    currency: msg.stakeCurrency ?? 'ETH',
  });
}

/**
 * What a sender should read about a message that was not simply delivered. `answered`: the
 * peer wrote back, so a first message sent as a contact request was taken up.
 */
export function deliveryNote(
  msg: ChatMessage,
  peerName: string,
  intl: IntlShape,
  answered = false,
): { tone: 'muted' | 'warn' | 'error'; text: string } | null {
  if (!msg.fromMe) return null;
  const name = { name: isolate(peerName, intl) };
  if (msg.state === 'failed')
    return {
      tone: 'error',
      text:
        namedRefusal(msg, peerName, intl) ??
        (msg.error
          ? intl.formatMessage(m.notSentBecause, { error: translateError(intl, msg.error) })
          : intl.formatMessage(m.notSent)),
    };
  if (msg.state === 'sending') return null;
  switch (msg.routed) {
    case 'request':
      // accepted (their app acknowledges it only then) or answered: the note has done its job
      if (answered || msg.delivery === 'delivered' || msg.delivery === 'read') return null;
      return { tone: 'muted', text: intl.formatMessage(m.sentAsRequest, name) };
    case 'blocked':
      return { tone: 'error', text: intl.formatMessage(m.blocked, name) };
    case 'stake-gate':
      return { tone: 'warn', text: intl.formatMessage(m.stakeGate, { ...name, stake: stake(msg, intl) }) };
    default:
      return null;
  }
}

/**
 * What the sender of a contact request is told once the relay answered: success only when
 * something was queued for the recipient.
 */
export function requestOutcome(
  msg: ChatMessage,
  peerName: string,
  intl: IntlShape,
): { tone: 'success' | 'info' | 'error'; text: string } {
  const name = { name: isolate(peerName, intl) };
  if (msg.state === 'failed')
    return {
      tone: 'error',
      text:
        namedRefusal(msg, peerName, intl) ??
        (msg.error
          ? intl.formatMessage(m.requestNotSentBecause, { error: translateError(intl, msg.error) })
          : intl.formatMessage(m.requestNotSent)),
    };
  if (msg.state === 'sending') return { tone: 'info', text: intl.formatMessage(m.requestWaiting, name) };
  switch (msg.routed) {
    case 'stake-gate':
      return { tone: 'error', text: intl.formatMessage(m.requestStakeGate, { ...name, stake: stake(msg, intl) }) };
    case 'blocked':
      return { tone: 'error', text: intl.formatMessage(m.blocked, name) };
    case 'inbox':
      return { tone: 'success', text: intl.formatMessage(m.requestInbox, name) };
    default:
      return { tone: 'success', text: intl.formatMessage(m.requestSent, name) };
  }
}

export function lastMessagePreview(c: ConversationSummary, intl: IntlShape): string {
  if (!c.lastMessage) return intl.formatMessage(c.kind === 'group' ? m.noMessagesYet : m.sayHello);
  if (c.lastMessage.kind === 'deleted') return intl.formatMessage(m.deleted);
  if (c.lastMessage.kind === 'timer') return intl.formatMessage(m.timerChanged);
  // only files carry no words (a text message has at least one character)
  // isolated: someone's English after an Arabic "You:" keeps its own direction and punctuation
  const text = c.lastMessage.text ? isolate(c.lastMessage.text.replace(/\s+/g, ' '), intl) : intl.formatMessage(m.file);
  return c.lastMessage.fromMe ? intl.formatMessage(m.fromMe, { text }) : text;
}
