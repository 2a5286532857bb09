import type { ChatMessage, ConversationSummary } from '../shared/domain.js';

export function shortAddress(a: string): string {
  return a.length > 12 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a;
}

export function displayName(handle: string | null | undefined, address: string): string {
  return handle ? `@${handle}` : shortAddress(address);
}

const timeFmt = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const dayFmt = new Intl.DateTimeFormat(undefined, { weekday: 'short' });
const dateFmt = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const longDayFmt = new Intl.DateTimeFormat(undefined, { weekday: 'long', month: 'long', day: 'numeric' });
const fullFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function startOfDay(d: Date): number {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/** List time: clock time today, weekday this week, date before. */
export function listTime(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const days = Math.round((startOfDay(now) - startOfDay(d)) / 86_400_000);
  if (days <= 0) return timeFmt.format(d);
  if (days === 1) return 'Yesterday';
  if (days < 7) return dayFmt.format(d);
  return dateFmt.format(d);
}

export function clockTime(iso: string): string {
  return timeFmt.format(new Date(iso));
}

export function fullTime(iso: string): string {
  return fullFmt.format(new Date(iso));
}

export function dayLabel(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const days = Math.round((startOfDay(now) - startOfDay(d)) / 86_400_000);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return longDayFmt.format(d);
}

export function dayKey(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
}

/**
 * A send refused for a named reason (one of the relay's quotas, or the contact's devices
 * changed since they were verified), in words about this conversation; null for any other
 * failure. Each says that nothing went out and what would change it.
 */
export function namedRefusal(m: ChatMessage, peerName: string): string | null {
  const group = m.conversationId.startsWith('group:');
  switch (m.errorCode) {
    case 'recipient-full':
      return group
        ? "Not delivered: a member's inbox on the relay is full, so nobody in the group got it. Try again later."
        : `Not delivered: ${possessive(peerName)} inbox is full. Try again later.`;
    case 'requests-full':
      return `Not delivered: ${peerName} has too many contact requests waiting on the relay. Try again later; once they accept you, your messages always get through.`;
    case 'too-many-requests-pending':
      return `Not delivered: ${peerName} has not yet picked up your earlier requests. Wait until they answer.`;
    case 'storage-full':
      return 'Not delivered: the relay is running out of disk space. Try again later, or tell whoever runs it.';
    case 'safety-number-changed':
      return `Not sent: ${possessive(peerName)} devices changed since you verified their safety number. Verify it again, or send anyway.`;
    default:
      return null;
  }
}

function possessive(name: string): string {
  return name.endsWith('s') ? `${name}'` : `${name}'s`;
}

/** What a sender should read about a message that was not simply delivered. */
export function deliveryNote(m: ChatMessage, peerName: string): { tone: 'muted' | 'warn' | 'error'; text: string } | null {
  if (!m.fromMe) return null;
  if (m.state === 'failed') return { tone: 'error', text: namedRefusal(m, peerName) ?? (m.error ? `Not sent: ${m.error}` : 'Not sent.') };
  if (m.state === 'sending') return null;
  switch (m.routed) {
    case 'request':
      return { tone: 'muted', text: `Sent as a contact request: ${peerName} sees it under Requests and can accept you there.` };
    case 'blocked':
      return { tone: 'error', text: `Not delivered: ${peerName} is not accepting messages from you.` };
    case 'stake-gate':
      return {
        tone: 'warn',
        text: `Not delivered: ${peerName} asks for a refundable ${m.stakeRequired ?? '0.01'} ${m.stakeCurrency ?? 'ETH'} stake from new contacts.`,
      };
    default:
      return null;
  }
}

/**
 * What the sender of a contact request is told once the relay answered: success only when
 * something was queued for the recipient.
 */
export function requestOutcome(m: ChatMessage, peerName: string): { tone: 'success' | 'info' | 'error'; text: string } {
  if (m.state === 'failed') return { tone: 'error', text: namedRefusal(m, peerName) ?? (m.error ? `Request not sent: ${m.error}` : 'Request not sent.') };
  if (m.state === 'sending') return { tone: 'info', text: `Request to ${peerName} is waiting to be sent; it goes out as soon as the relay can be reached.` };
  switch (m.routed) {
    case 'stake-gate':
      return {
        tone: 'error',
        text: `Not delivered: ${peerName} only accepts people they know or who pay a stake (${m.stakeRequired ?? '0.01'} ${m.stakeCurrency ?? 'ETH'}). Open the conversation to pay the stake and send.`,
      };
    case 'blocked':
      return { tone: 'error', text: `Not delivered: ${peerName} is not accepting messages from you.` };
    case 'inbox':
      return { tone: 'success', text: `${peerName} already knows you: your message went straight to their inbox.` };
    default:
      return { tone: 'success', text: `Request sent to ${peerName}.` };
  }
}

export function lastMessagePreview(c: ConversationSummary): string {
  if (!c.lastMessage) return c.kind === 'group' ? 'No messages yet' : 'Say hello';
  // only files carry no words (a text message has at least one character)
  return (c.lastMessage.fromMe ? 'You: ' : '') + (c.lastMessage.text.replace(/\s+/g, ' ') || 'File');
}

const sizeFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/** A file's size as people read it: 820 bytes, 14.2 KB, 3.1 MB (binary multiples, as file managers show them). */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${sizeFormat.format(bytes / 1024)} KB`;
  return `${sizeFormat.format(bytes / (1024 * 1024))} MB`;
}
