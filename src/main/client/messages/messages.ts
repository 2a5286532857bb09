/**
 * The messages of a conversation: reading a page, local search, composing (text, a request,
 * files) into the outbox, retrying a failed one. Edits, deletes and timers are message-changes.ts.
 */
import type { ChatMessage, ConversationId } from '../../../shared/domain.js';
import type { CommandArgs } from '../../../shared/ipc.js';
import { ADDRESS } from '../../../shared/identity-patterns.js';
import { SEARCH_DEFAULT_LIMIT, type MessageSearchHit } from '../../../shared/message-search.js';
import type { Attachments } from '../attachments/attachments.js';
import type { AttachmentRef } from '../attachments/attachment-wire.js';
import type { FeatureContext, FeatureHandlers } from '../core/feature-context.js';
import { MessengerError } from '../core/messenger-error.js';
import type { Outbox, SendOutcome } from '../core/outbox.js';
import { revokedError } from '../core/relay-session.js';
import type { Signals } from '../conversations/receipts-and-typing.js';
import type { Trust } from '../trust/trust.js';
import type { MessageChanges } from './message-changes.js';

type MessageCommands =
  | 'messages.list'
  | 'messages.send'
  | 'messages.retry'
  | 'messages.edit'
  | 'messages.delete'
  | 'conversations.setTimer'
  | 'messages.search';

export interface MessagesDeps extends FeatureContext {
  outbox: Outbox;
  changes: MessageChanges;
  trust: Trust;
  signals: Signals;
  attachments: Attachments;
  session: { hasCredential(): boolean; isRevoked(): boolean };
  /** tells the sync loop there is something to send */
  announce(): void;
}

export class Messages {
  constructor(private readonly ctx: MessagesDeps) {}

  handlers(): FeatureHandlers<MessageCommands> {
    return {
      'messages.list': async (a) => this.listMessages(a),
      'messages.send': async (a) => this.send(a),
      'messages.retry': async (a) => this.retry(a),
      'messages.edit': async (a) => this.ctx.changes.edit(a),
      'messages.delete': async (a) => this.ctx.changes.delete(a),
      'conversations.setTimer': async (a) => this.ctx.changes.setTimer(a),
      'messages.search': async (a) => this.search(a),
    };
  }

  /**
   * A page of a conversation, oldest first: the `limit` (default 200) newest messages, or
   * with `before` (a message id) the `limit` messages just older than that one, or with
   * `around` (a message id) the `limit` older ones, it and the newer ones (to open at it).
   */
  listMessages(a: CommandArgs<'messages.list'>): ChatMessage[] {
    if (a.before && a.around)
      throw new MessengerError('bad-argument', 'messages.list takes before or around, not both');
    if (!a.around)
      return this.ctx.store.listMessages(a.conversationId as ConversationId, a.before ?? null, a.limit ?? 200);
    const page = this.ctx.store.listMessagesAround(a.conversationId as ConversationId, a.around, a.limit ?? 200);
    if (!page) throw new MessengerError('not-found', 'no such message in this conversation');
    return page;
  }

  /** Local full-text search (every word, as a prefix), newest first; across conversations or in one. */
  search(a: CommandArgs<'messages.search'>): MessageSearchHit[] {
    return this.ctx.store.search.search(a.query, {
      conversationId: (a.conversationId as ConversationId | undefined) ?? null,
      limit: a.limit ?? SEARCH_DEFAULT_LIMIT,
    });
  }

  /**
   * Stores the message (state `sending`) and returns at once; the outbox sends it in the
   * background and `message.updated` reports the routing. Use `sendAndWait` to await it.
   */
  send(a: CommandArgs<'messages.send'>): ChatMessage {
    const m = this.enqueue(a.conversationId as ConversationId, a.text, a.asRequest === true);
    void this.kickOutbox();
    return m;
  }

  /** Stores the message and makes one send attempt now; the outcome carries the per-device routing. */
  async sendAndWait(
    conversationId: ConversationId,
    text: string,
    asRequest = false,
    files?: AttachmentRef[],
  ): Promise<{ message: ChatMessage; outcome: SendOutcome }> {
    const m = this.enqueue(conversationId, text, asRequest, files);
    const outcomes = await this.ctx.outbox.flush(true);
    const outcome = outcomes.find((o) => o.messageId === m.id) ?? {
      messageId: m.id,
      state: 'queued' as const,
      routed: null,
      stakeRequired: null,
      stakeCurrency: null,
      deliveries: [],
      error: null,
    };
    return { message: this.ctx.store.getMessage(m.id)!, outcome };
  }

  /** Uploads the files (encrypted) and sends an attachment message with them; `text` is its caption, `previews` the images' (the app's). */
  async sendFiles(
    conversationId: ConversationId,
    paths: string[],
    text = '',
    onProgress?: (file: number, done: number, total: number) => void,
    previews?: Array<string | undefined>,
  ): Promise<{ message: ChatMessage; outcome: SendOutcome }> {
    this.ctx.ready();
    const refs = await this.ctx.attachments.upload(paths, onProgress);
    return this.sendAndWait(
      conversationId,
      text,
      false,
      refs.map((r, i) => (previews?.[i] ? { ...r, preview: previews[i] } : r)),
    );
  }

  retry(a: CommandArgs<'messages.retry'>): ChatMessage {
    if (!this.ctx.outbox.retry(a.messageId))
      throw new MessengerError('not-found', 'no failed message of yours with that id');
    const m = this.ctx.store.getMessage(a.messageId)!;
    this.ctx.emit('message.updated', m);
    void this.kickOutbox();
    return m;
  }

  /** Sends what is in the outbox now (all of it with `force`, else only what is due). */
  flushOutbox(force = false): Promise<SendOutcome[]> {
    this.ctx.ready();
    return this.ctx.outbox.flush(force);
  }

  /** A send attempt now when signed in (a queued edit or delete too); the loop retries what fails. */
  async kickOutbox(): Promise<void> {
    if (!this.ctx.session.hasCredential()) return;
    try {
      await this.ctx.outbox.flush(false);
    } catch {
      // the outbox keeps the message; the loop retries
    }
    this.ctx.announce();
  }

  private enqueue(
    conversationId: ConversationId,
    text: string,
    asRequest: boolean,
    files?: AttachmentRef[],
  ): ChatMessage {
    const { store, outbox, changes } = this.ctx;
    this.ctx.me();
    // queued for a relay that will never take it again would read as "waiting", not as refused
    if (this.ctx.session.isRevoked()) throw revokedError();
    let m: ChatMessage;
    if (conversationId.startsWith('direct:')) {
      const peer = conversationId.slice(7);
      if (!ADDRESS.test(peer)) throw new MessengerError('bad-argument', 'not a direct conversation id');
      // replying to a pending request answers it: the relay counts the reply as "has written before"
      if (store.getContact(peer.toLowerCase())?.state === 'requested')
        store.acceptRequest(peer.toLowerCase(), this.ctx.nowMs());
      this.ctx.trust.assertMaySend(peer);
      m = outbox.enqueue({ kind: 'direct', peer: peer.toLowerCase() }, text, asRequest && !files ? 'request' : 'text', {
        expiresIn: changes.expiresIn(conversationId),
        files,
      });
      this.ctx.signals.messageSent(peer.toLowerCase());
    } else if (conversationId.startsWith('group:')) {
      if (asRequest) throw new MessengerError('bad-argument', 'a group message cannot be a contact request');
      m = outbox.enqueue({ kind: 'group', groupId: conversationId.slice(6).toLowerCase() }, text, 'text', {
        expiresIn: changes.expiresIn(conversationId),
        files,
      });
    } else throw new MessengerError('bad-argument', 'unknown conversation id');
    this.ctx.emit('message.new', m);
    this.ctx.emitConversation(m.conversationId);
    changes.reschedule();
    this.ctx.announce();
    return m;
  }
}
