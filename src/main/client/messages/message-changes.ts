/**
 * Edits, deletes and disappearing messages on the sending side, and the clock that makes
 * messages disappear (wire format kinds edit, delete, timer; field expiresIn).
 *
 * - edit/delete: only one's own messages; applied here at once and queued in the outbox for
 *   the peer (or the group) and our own other devices, which apply it by the same rule
 *   (message-changes-store.ts).
 * - setTimer: a timer notice in the conversation, sent like a message; from then on our
 *   messages there carry `expiresIn`.
 * - expiry: a message disappears `expiresIn` after it was read on this device (after it was
 *   sent, for our own). One timer is kept for the next message due; when it fires, every
 *   message due goes in one store call (expireMessages) and the app hears `message.removed`.
 */
import type { ChatMessage, ConversationId, DeletedMessage, ConversationSummary } from '../../../shared/domain.js';
import type { Events } from '../../../shared/ipc.js';
import type { LocalStore } from '../store/local-store.js';
import { MessengerError } from '../core/messenger-error.js';
import type { Outbox } from '../core/outbox.js';

/** A one-shot timer; returns its cancel. Injectable so tests drive expiry with a fake clock. */
export type ScheduleTimer = (fn: () => void, ms: number) => () => void;

export const realTimer: ScheduleTimer = (fn, ms) => {
  const t = setTimeout(fn, ms);
  t.unref?.();
  return () => clearTimeout(t);
};

/** setTimeout's longest delay; a later expiry is re-armed when this one fires. */
const MAX_DELAY_MS = 2 ** 31 - 1;

export interface MessageChangesDeps {
  store: LocalStore;
  outbox: Outbox;
  me: () => { address: string };
  now: () => number;
  schedule?: ScheduleTimer;
  onMessage: (event: 'message.new' | 'message.updated', m: ChatMessage) => void;
  onRemoved: (removed: Events['message.removed']) => void;
  onConversation: (id: ConversationId) => void;
  /** something was queued: send it soon */
  onQueued: () => void;
}

export class MessageChanges {
  private cancel: (() => void) | null = null;
  private dueAt: number | null = null;
  private closed = false;

  constructor(private readonly d: MessageChangesDeps) {}

  /** Replaces the text of one of our own messages, here and on every device that has it. */
  edit(a: { conversationId: string; messageId: string; text: string }): ChatMessage {
    const m = this.ownMessage(a.conversationId, a.messageId, 'edit');
    if (a.text.trim() === '')
      throw new MessengerError('bad-argument', 'an edit needs some text (delete the message instead)');
    return this.change(m, { kind: 'edit', of: m.id, text: a.text });
  }

  /**
   * Deletes one of our own messages for everyone: a "message deleted" placeholder stays. One
   * still waiting to go is withdrawn instead (it never leaves, and no placeholder stays): the
   * answer says `removed`, and the app hears `message.removed`.
   */
  delete(a: { conversationId: string; messageId: string }): DeletedMessage {
    const m = this.ownMessage(a.conversationId, a.messageId, 'delete');
    if (m.state === 'sending' && this.d.outbox.withdraw(m.id, m.conversationId)) {
      this.d.onRemoved({ conversationId: m.conversationId, ids: [m.id] });
      this.d.onConversation(m.conversationId);
      return { ...m, text: '', deleted: true, removed: true };
    }
    return this.change(m, { kind: 'delete', of: m.id });
  }

  /** Sets the conversation's disappearing timer (0 = off) and tells the other side with a notice. */
  setTimer(a: { conversationId: string; seconds: number }): ConversationSummary {
    const id = a.conversationId as ConversationId;
    if (!this.d.store.getConversation(id)) throw new MessengerError('not-found', 'no such conversation');
    const notice = this.d.outbox.enqueue(targetOf(id), '', 'text', { timer: a.seconds });
    this.d.onMessage('message.new', notice);
    this.d.onConversation(id);
    this.d.onQueued();
    return this.d.store.getConversation(id)!;
  }

  /** The conversation's timer, for a message about to be sent there (null: off). */
  expiresIn(id: ConversationId): number | null {
    return this.d.store.changes.timer(id) || null;
  }

  /** The conversation is on screen: what it holds with a timer starts counting down. */
  read(id: ConversationId): void {
    if (this.d.store.changes.startExpiry(id, this.d.now()) > 0) this.reschedule();
  }

  /** Removes what is due now and arms the timer for the next. */
  expireDue(): void {
    const removed = this.d.store.changes.expireMessages(this.d.now());
    const byConversation = new Map<ConversationId, string[]>();
    for (const r of removed)
      byConversation.set(r.conversationId, [...(byConversation.get(r.conversationId) ?? []), r.id]);
    for (const [conversationId, ids] of byConversation) {
      this.d.onRemoved({ conversationId, ids });
      this.d.onConversation(conversationId);
    }
    this.dueAt = null;
    this.reschedule();
  }

  /** Arms the timer for the next message due (after a send with a timer, a read, or an arrival). */
  reschedule(): void {
    if (this.closed) return;
    const next = this.d.store.changes.nextExpiry();
    if (next === this.dueAt) return;
    this.cancel?.();
    this.cancel = null;
    this.dueAt = next;
    if (next === null) return;
    this.cancel = (this.d.schedule ?? realTimer)(
      () => {
        this.cancel = null;
        this.expireDue();
      },
      Math.min(MAX_DELAY_MS, Math.max(0, next - this.d.now())),
    );
  }

  close(): void {
    this.closed = true;
    this.cancel?.();
    this.cancel = null;
  }

  private ownMessage(conversationId: string, messageId: string, what: 'edit' | 'delete'): ChatMessage {
    const m = this.d.store.getMessage(messageId.toLowerCase());
    if (!m || m.conversationId !== conversationId)
      throw new MessengerError('not-found', 'no such message in this conversation');
    if (!m.fromMe || m.from !== this.d.me().address)
      throw new MessengerError(
        'bad-argument',
        `only your own messages can be ${what === 'edit' ? 'edited' : 'deleted'}`,
      );
    if (m.deleted) throw new MessengerError('bad-argument', 'that message was deleted');
    if (m.timerSeconds !== null)
      throw new MessengerError('bad-argument', `a timer notice cannot be ${what === 'edit' ? 'edited' : 'deleted'}`);
    return m;
  }

  private change(
    m: ChatMessage,
    body: { kind: 'edit'; of: string; text: string } | { kind: 'delete'; of: string },
  ): ChatMessage {
    const changes = this.d.store.changes;
    changes.inTransaction(() => {
      const queued = this.d.outbox.enqueueChange(targetOf(m.conversationId), body);
      changes.apply(
        { changeId: queued.id, conversationId: m.conversationId, author: m.from, sentAt: queued.sentAt, body },
        this.d.now(),
      );
    });
    const updated = this.d.store.getMessage(m.id)!;
    this.d.onMessage('message.updated', updated);
    this.d.onConversation(m.conversationId);
    this.d.onQueued();
    return updated;
  }
}

function targetOf(id: ConversationId): { kind: 'direct'; peer: string } | { kind: 'group'; groupId: string } {
  if (id.startsWith('direct:')) return { kind: 'direct', peer: id.slice(7) };
  if (id.startsWith('group:')) return { kind: 'group', groupId: id.slice(6) };
  throw new MessengerError('bad-argument', 'unknown conversation id');
}
