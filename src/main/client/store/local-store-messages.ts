/**
 * LocalStore's message writes: an outgoing message with its outbox entry, queued changes, the
 * relay's answer, the peer's receipts, failures and retries, and verified incoming messages with
 * their pending acks. A write of more than one row is one transaction (applyIncoming's is opened
 * by LocalStore around storeIncoming), which is what lets the sync loop promise "commit, then
 * ack".
 */
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { Routed, StakeCurrency } from '../../../shared/api/common.js';
import type { ChatMessage, ContactRequest, ConversationId } from '../../../shared/domain.js';
import type { AttachmentStore } from '../attachments/attachment-store.js';
import type { MessageChangesStore } from '../messages/message-changes-store.js';
import type {
  AppliedIncoming,
  ContactRow,
  IncomingMessage,
  MessageRowDb,
  OutgoingMessage,
} from './local-store-rows.js';
import type { LocalStatements } from './local-store-sql.js';

/** What the writes need of LocalStore: its connection, statements and sub-stores, and the reads they answer with. */
export interface MessageWriteContext {
  db: Database.Database;
  s: LocalStatements;
  changes: MessageChangesStore;
  attachments: AttachmentStore;
  getContact(address: string): ContactRow | null;
  getMessage(id: string): ChatMessage | null;
  getRequest(address: string): ContactRequest | null;
}

/** The relay's answer to a send, as markSent records it. */
export interface RelayAnswer {
  routed: Routed | null;
  stakeRequired: string | null;
  stakeCurrency: StakeCurrency | null;
  via: 'group-token' | 'api-key' | null;
  deliveries: unknown;
}

/** Stores a new outgoing message and its outbox entry together. */
export function insertOutgoing(c: MessageWriteContext, m: OutgoingMessage): ChatMessage {
  c.db.transaction(() => {
    c.s.ensureConversation.run({ id: m.conversationId, kind: m.kind, peer: m.peer, at: m.sentAt });
    const info = c.s.insertMessage.run({
      id: m.id,
      conv: m.conversationId,
      author: m.author,
      from_me: 1,
      kind: m.messageKind,
      text: m.text,
      sent_at: m.sentAt,
      received_at: null,
      state: 'sending',
      routed: null,
      via: null,
      bot_name: null,
      envelope_id: null,
      shown: 1,
    });
    c.s.touchConversation.run({ id: m.conversationId, seq: info.lastInsertRowid, at: m.sentAt, unread: 0 });
    c.changes.noteInserted(
      { ...m, fromMe: true, expiresIn: m.expiresIn ?? null, timerSeconds: m.timerSeconds ?? null },
      m.nowMs,
    );
    c.s.insertOutbox.run({
      message_id: m.id,
      conv: m.conversationId,
      payload: m.payload,
      as_request: m.asRequest ? 1 : 0,
      next: m.nowMs,
      queued: m.nowMs,
    });
    if (m.files) c.attachments.insert(m.id, m.files, 'sent');
    if (m.kind === 'direct') c.s.contactKnown.run({ address: m.peer, now: m.nowMs });
  })();
  return c.getMessage(m.id)!;
}

/** Queues an edit or delete of our own for sending: an outbox entry with no message row of its own. */
export function queueChange(
  c: MessageWriteContext,
  e: { id: string; conversationId: ConversationId; payload: string; nowMs: number },
): void {
  c.s.insertOutbox.run({
    message_id: e.id,
    conv: e.conversationId,
    payload: e.payload,
    as_request: 0,
    next: e.nowMs,
    queued: e.nowMs,
  });
}

/** Records the relay's answer and takes the message out of the outbox. */
export function markSent(c: MessageWriteContext, id: string, r: RelayAnswer): void {
  c.db.transaction(() => {
    c.s.markSent.run({
      id,
      routed: r.routed,
      stake_required: r.stakeRequired,
      stake_currency: r.stakeCurrency,
      via: r.via,
      deliveries: JSON.stringify(r.deliveries),
    });
    c.s.deleteOutbox.run(id);
  })();
}

/** Moves own messages of a conversation on to a peer state (delivered, read); the ids whose state changed. */
export function movePeerState(
  c: MessageWriteContext,
  statement: Statement,
  conversationId: ConversationId,
  ids: readonly string[],
): string[] {
  const changed: string[] = [];
  c.db.transaction(() => {
    for (const id of new Set(ids.map((i) => i.toLowerCase())))
      if (statement.run(id, conversationId).changes > 0) changed.push(id);
  })();
  return changed;
}

export function markFailed(c: MessageWriteContext, id: string, error: string, code: string | null = null): void {
  c.db.transaction(() => {
    c.s.markFailed.run(error, code, id);
    c.s.deleteOutbox.run(id);
  })();
}

/** Puts a failed message back in the outbox; false if it is not ours or not failed. */
export function requeue(
  c: MessageWriteContext,
  id: string,
  payload: string,
  asRequest: boolean,
  nowMs: number,
): boolean {
  return c.db.transaction(() => {
    const msg = c.s.getMessage.get(id) as MessageRowDb | undefined;
    // a failed message, or one a stake gate held back (re-sent with a stake)
    const held = msg?.state === 'sent' && msg.routed === 'stake-gate';
    if (!msg || msg.from_me !== 1 || (msg.state !== 'failed' && !held)) return false;
    c.s.markSending.run(id);
    c.s.insertOutbox.run({
      message_id: id,
      conv: msg.conversation_id,
      payload,
      as_request: asRequest ? 1 : 0,
      next: nowMs,
      queued: nowMs,
    });
    return true;
  })();
}

/** Verified incoming messages stored and their envelopes recorded as pending acks; inside the caller's transaction. */
export function storeIncoming(
  c: MessageWriteContext,
  items: IncomingMessage[],
  ackIds: string[],
  nowMs: number,
): AppliedIncoming {
  const inserted: string[] = [];
  const requestAddrs = new Set<string>();
  const convs = new Set<ConversationId>();
  const changed = new Set<string>();
  const refused: AppliedIncoming['refused'] = [];
  for (const it of items) {
    const contact = !it.fromMe && it.via !== 'group-token' ? c.getContact(it.author) : null;
    // someone we blocked makes no conversation: what they still had in flight to us, and what
    // they write in a group we share, is dropped (and acked)
    if (contact?.state === 'blocked') continue;
    if (it.control && it.control.kind !== 'timer') {
      const out = c.changes.apply(
        {
          changeId: it.id,
          conversationId: it.conversationId,
          author: it.author,
          sentAt: it.sentAt,
          body: it.control,
        },
        nowMs,
      );
      if ('applied' in out) changed.add(out.applied);
      if ('refused' in out) refused.push({ envelopeId: it.envelopeId, author: it.author, reason: out.refused });
      continue;
    }
    c.s.ensureConversation.run({ id: it.conversationId, kind: it.conversationKind, peer: it.peer, at: it.sentAt });
    const info = c.s.insertMessage.run({
      id: it.id,
      conv: it.conversationId,
      author: it.author,
      from_me: it.fromMe ? 1 : 0,
      kind: it.kind,
      text: it.text,
      sent_at: it.sentAt,
      received_at: it.receivedAt,
      state: 'sent',
      routed: it.routed,
      via: it.via,
      bot_name: it.botName,
      envelope_id: it.envelopeId,
      shown: 0,
    });
    if (info.changes === 0) continue; // redelivery of a message we already hold
    inserted.push(it.id);
    const timerSeconds = it.control?.kind === 'timer' ? it.control.seconds : null;
    for (const reason of c.changes.noteInserted({ ...it, expiresIn: it.expiresIn ?? null, timerSeconds }, nowMs))
      refused.push({ envelopeId: it.envelopeId, author: it.author, reason });
    // our own other device's files too: this device has no copy of them
    if (it.files) c.attachments.insert(it.id, it.files, 'pending');
    const pending = it.isRequest && contact?.state !== 'allowed';
    c.s.touchConversation.run({
      id: it.conversationId,
      seq: info.lastInsertRowid,
      at: it.sentAt,
      unread: it.fromMe ? 0 : 1,
    });
    convs.add(it.conversationId);
    if (it.conversationKind === 'direct' && !it.fromMe) {
      if (pending) {
        c.s.upsertContactState.run({ address: it.author, state: 'requested', now: nowMs });
        c.s.upsertRequest.run({ address: it.author, intro: it.text, received_at: it.receivedAt });
        requestAddrs.add(it.author);
      } else {
        c.s.contactKnown.run({ address: it.author, now: nowMs });
      }
    }
  }
  for (const id of ackIds) c.s.insertPendingAck.run(id, nowMs);
  return {
    messages: inserted.map((id) => c.getMessage(id)!),
    requests: [...requestAddrs].map((a) => c.getRequest(a)!).filter(Boolean),
    conversations: [...convs],
    changed: [...changed].map((id) => c.getMessage(id)!),
    refused,
  };
}
