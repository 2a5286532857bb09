/**
 * The client's local database (better-sqlite3, one file in the profile folder): profile
 * settings, contacts, groups, conversations, messages, contact requests, the outbox, pending
 * acks and the certified-device cache. Every SQL statement of the client lives here,
 * prepared once when the store opens. Multi-row changes are single transactions, which is
 * what lets the sync loop promise "commit, then ack": a crash leaves either nothing or all.
 */
import { AttachmentStore } from '../attachments/attachment-store.js';
import type { AttachmentRef } from '../attachments/attachment-wire.js';
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { openDatabase, type OpenDatabaseOptions } from '../../sqlite/open-database.js';
import type { Routed, StakeCurrency } from '../../../shared/api/common.js';
import type { GroupSummary } from '../../../shared/api/groups.js';
import type {
  ChatMessage, ContactRequest, ConversationId, ConversationSummary, DeliveryState, GroupInfo, MessageState, ReceiptState,
} from '../../../shared/domain.js';
import { MIGRATIONS } from './local-store-migrations.js';
import { MessageChangesStore } from '../messages/message-changes-store.js';
import type { ControlBody } from '../messages/message-control.js';
import { TrustStore } from '../trust/trust-store.js';
import { MessageSearchStore } from './local-store-search.js';
import { BackupStore } from '../backup/backup-store.js';
import { HistoryMergeStore } from '../history/history-store.js';

export type StoreOpenOptions = Pick<OpenDatabaseOptions, 'key' | 'afterEncryptStep'>;

export type ContactState = 'known' | 'allowed' | 'requested' | 'blocked';

export interface ContactRow {
  address: string;
  handle: string | null;
  verified: boolean;
  state: ContactState;
}

/** A group as the relay summarises it, plus what this client knows as a member. */
export interface GroupRecord extends GroupSummary {
  creator: string | null;
  members: string[] | null;
  isMember: boolean;
}

export interface OutboxRow {
  messageId: string;
  conversationId: ConversationId;
  payload: string;
  asRequest: boolean;
  attempts: number;
  nextAttemptMs: number;
  lastError: string | null;
}

export interface CertifiedDevice {
  publicKey: string;
  certificate: string;
  createdAt: string;
  fetchedMs: number;
}

/** A message that passed every check, ready to be stored. */
export interface IncomingMessage {
  id: string;
  envelopeId: string;
  conversationId: ConversationId;
  conversationKind: 'direct' | 'group';
  peer: string;
  author: string;
  fromMe: boolean;
  kind: 'text' | 'request';
  text: string;
  sentAt: string;
  receivedAt: string;
  routed: 'inbox' | 'request';
  via: 'group-token' | 'api-key' | null;
  /** the relay's name for the bot token that posted (bot posts only), already cleaned */
  botName: string | null;
  /** a direct message from someone we have not accepted, routed as a request */
  isRequest: boolean;
  /** an edit, delete or timer (message-control.ts) */
  control?: ControlBody | null;
  /** the sender's disappearing timer (seconds) */
  expiresIn?: number | null;
  /** an attachment message's files, to fetch */
  files?: AttachmentRef[] | null;
}

export interface AppliedIncoming {
  /** only the messages that were new (redeliveries are silently skipped) */
  messages: ChatMessage[];
  requests: ContactRequest[];
  conversations: ConversationId[];
  /** messages an edit or delete changed */
  changed: ChatMessage[];
  /** edits and deletes refused (not by the author of the message they name) */
  refused: Array<{ envelopeId: string; author: string; reason: string }>;
}

export interface OutgoingMessage {
  id: string;
  conversationId: ConversationId;
  kind: 'direct' | 'group';
  peer: string;
  author: string;
  messageKind: 'text' | 'request';
  text: string;
  sentAt: string;
  payload: string;
  asRequest: boolean;
  nowMs: number;
  /** the conversation's disappearing timer when sent */
  expiresIn?: number | null;
  /** a timer notice: the seconds set */
  timerSeconds?: number | null;
  /** an attachment message's files, already uploaded */
  files?: AttachmentRef[];
}

interface MessageRowDb {
  seq: number;
  id: string;
  conversation_id: string;
  author: string;
  from_me: number;
  kind: 'text' | 'request';
  text: string;
  sent_at: string;
  received_at: string | null;
  state: MessageState;
  routed: Routed | null;
  stake_required: string | null;
  stake_currency: StakeCurrency | null;
  via: 'group-token' | 'api-key' | null;
  bot_name: string | null;
  error: string | null;
  error_code: string | null;
  peer_state: ReceiptState | null;
  edited_at: string | null;
  deleted_at: string | null;
  timer_seconds: number | null;
  expires_in: number | null;
  expires_at_ms: number | null;
  author_handle: string | null;
}

interface ConversationRowDb {
  id: string;
  kind: 'direct' | 'group';
  peer: string;
  unread: number;
  updated_at: string;
  muted: number;
  timer_seconds: number;
  contact_handle: string | null;
  contact_verified: number | null;
  group_name: string | null;
  group_verified: number | null;
  last_text: string | null;
  last_sent_at: string | null;
  last_from_me: number | null;
}

interface GroupRowDb {
  id: string;
  name: string;
  is_public: number;
  verified: number;
  has_password: number;
  avatar: string | null;
  member_count: number;
  created_at: string;
  creator: string | null;
  members: string | null;
  is_member: number;
}

/** The most messages from a jumped-to message up to the newest (more would be a very long list to hand over). */
export const AROUND_NEWER_MAX = 20_000;

export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

const MESSAGE_COLUMNS = `m.seq, m.id, m.conversation_id, m.author, m.from_me, m.kind, m.text, m.sent_at, m.received_at, m.state,
  m.routed, m.stake_required, m.stake_currency, m.via, m.bot_name, m.error, m.error_code, m.peer_state,
  m.edited_at, m.deleted_at, m.timer_seconds, m.expires_in, m.expires_at_ms, c.handle AS author_handle`;

const CONVERSATION_SELECT = `
  SELECT v.id, v.kind, v.peer, v.unread, v.updated_at, v.muted, v.timer_seconds,
    c.handle AS contact_handle, c.verified AS contact_verified, g.name AS group_name, g.verified AS group_verified,
    CASE WHEN m.deleted_at IS NOT NULL THEN 'Message deleted' WHEN m.timer_seconds IS NOT NULL THEN 'Disappearing messages changed' ELSE m.text END AS last_text, m.sent_at AS last_sent_at, m.from_me AS last_from_me
  FROM conversations v
  LEFT JOIN contacts c ON v.kind = 'direct' AND c.address = v.peer
  LEFT JOIN groups g ON v.kind = 'group' AND g.id = v.peer
  LEFT JOIN messages m ON m.seq = v.last_message_seq`;

export class LocalStore {
  // not readonly: switchTo() puts another connection (and its statements) in place
  private db!: Database.Database;
  private s!: ReturnType<typeof prepareAll>;
  /** full-text search over the messages (local-store-search.ts) */
  search!: MessageSearchStore;
  /** files of attachment messages, written in the same transactions as their messages */
  attachments!: AttachmentStore;
  private applyIncomingTx!: (items: IncomingMessage[], ackIds: string[], nowMs: number) => AppliedIncoming;
  /** edits, deletes and disappearing messages */
  changes!: MessageChangesStore;
  /** device sets, verified marks and device notices (safety numbers) */
  trust!: TrustStore;
  /** whole tables, page by page, for backups and history archives */
  backup!: BackupStore;
  /** a history archive from another device merged in (history-store.ts) */
  historyMerge!: HistoryMergeStore;

  /** what this store has open, to go back to if switchTo() fails */
  private opened!: { file: string; opts: StoreOpenOptions };

  private constructor(db: Database.Database, opened: { file: string; opts: StoreOpenOptions }) {
    this.attach(db, opened);
  }

  private attach(db: Database.Database, opened: { file: string; opts: StoreOpenOptions }): void {
    this.opened = opened;
    this.db = db;
    this.s = prepareAll(db);
    this.changes = new MessageChangesStore(db);
    this.trust = new TrustStore(db);
    this.search = new MessageSearchStore(db);
    this.attachments = new AttachmentStore(db);
    this.backup = new BackupStore(db);
    this.historyMerge = new HistoryMergeStore(db, this.backup);
    this.applyIncomingTx = db.transaction((items: IncomingMessage[], ackIds: string[], nowMs: number) => this.applyIncomingInner(items, ackIds, nowMs));
  }

  /**
   * Closes this connection and opens `file` in its place, for everyone holding this store: the
   * encrypted profile database opens only once the vault gives its key (profile-database.ts).
   * If it does not open (a wrong key…), the previous file is opened again and the error thrown.
   */
  switchTo(file: string, opts: StoreOpenOptions = {}): void {
    const previous = this.opened;
    this.close();
    try {
      this.attach(openDatabase(file, { migrations: MIGRATIONS, owner: 'client', ...opts }), { file, opts });
    } catch (e) {
      this.attach(openDatabase(previous.file, { migrations: MIGRATIONS, owner: 'client', ...previous.opts }), previous);
      throw e;
    }
  }

  /** A store in memory only, for while the profile's own (encrypted) database is locked. */
  static inMemory(): LocalStore {
    return LocalStore.open(':memory:');
  }

  /** Every profile setting, to carry those written while locked (in memory) into the real database. */
  allSettings(): Array<{ key: string; value: string }> {
    return this.s.allSettings.all() as Array<{ key: string; value: string }>;
  }

  /** Opens (creating if needed) and migrates the database file; with a key, encrypted (a clear file is encrypted in place first). */
  static open(file: string, opts: StoreOpenOptions = {}): LocalStore {
    return new LocalStore(openDatabase(file, { migrations: MIGRATIONS, owner: 'client', ...opts }), { file, opts });
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  // ---- profile settings ----

  getSetting(key: string): string | null {
    const row = this.s.getSetting.get(key) as { value: string } | undefined;
    return row ? row.value : null;
  }

  setSetting(key: string, value: string | null): void {
    if (value === null) this.s.deleteSetting.run(key);
    else this.s.setSetting.run(key, value);
  }

  // ---- contacts ----

  getContact(address: string): ContactRow | null {
    const r = this.s.getContact.get(address) as { address: string; handle: string | null; verified: number; state: ContactState } | undefined;
    return r ? { address: r.address, handle: r.handle, verified: r.verified === 1, state: r.state } : null;
  }

  setContactState(address: string, state: ContactState, nowMs: number): void {
    this.s.upsertContactState.run({ address, state, now: nowMs });
  }

  /** Remembers a handle learned from the directory; never changes the contact's state. */
  setContactHandle(address: string, handle: string | null, verified: boolean, nowMs: number): void {
    this.s.upsertContactHandle.run({ address, handle, verified: verified ? 1 : 0, now: nowMs });
  }

  findContactByHandle(handle: string): ContactRow | null {
    const r = this.s.contactByHandle.get(handle.toLowerCase()) as { address: string; handle: string | null; verified: number; state: ContactState } | undefined;
    return r ? { address: r.address, handle: r.handle, verified: r.verified === 1, state: r.state } : null;
  }

  // ---- groups ----

  upsertGroup(g: GroupRecord, nowMs: number): void {
    this.s.upsertGroup.run({
      id: g.id,
      name: g.name,
      is_public: g.isPublic ? 1 : 0,
      verified: g.verified ? 1 : 0,
      has_password: g.hasPassword ? 1 : 0,
      avatar: g.avatar,
      member_count: g.memberCount,
      created_at: g.createdAt,
      creator: g.creator,
      members: g.members === null ? null : JSON.stringify(g.members),
      is_member: g.isMember ? 1 : 0,
      fetched_ms: nowMs,
    });
  }

  getGroup(id: string): GroupRecord | null {
    const r = this.s.getGroup.get(id) as GroupRowDb | undefined;
    return r ? groupFromRow(r) : null;
  }

  setGroupMembership(id: string, isMember: boolean): void {
    this.s.setGroupMembership.run(isMember ? 1 : 0, id);
  }

  // ---- conversations ----

  ensureConversation(id: ConversationId, kind: 'direct' | 'group', peer: string, at: string): void {
    this.s.ensureConversation.run({ id, kind, peer, at });
  }

  /** Conversations to show: groups, and direct ones with anyone not pending or blocked; newest first. */
  listConversations(): ConversationSummary[] {
    return (this.s.listConversations.all() as ConversationRowDb[]).map(conversationFromRow);
  }

  getConversation(id: ConversationId): ConversationSummary | null {
    const r = this.s.getConversation.get(id) as ConversationRowDb | undefined;
    return r ? conversationFromRow(r) : null;
  }

  markRead(id: ConversationId): void {
    this.s.markRead.run(id);
  }

  setMuted(id: ConversationId, muted: boolean): void {
    this.s.setMuted.run(muted ? 1 : 0, id);
  }

  // ---- messages ----

  getMessage(id: string): ChatMessage | null {
    const r = this.s.getMessage.get(id) as MessageRowDb | undefined;
    return r ? messageFromRow(r) : null;
  }

  /** The newest `limit` messages older than `before` (a message id), oldest first. */
  listMessages(conversationId: ConversationId, before: string | null, limit: number): ChatMessage[] {
    let rows: MessageRowDb[];
    const anchor = before ? (this.s.messageOrder.get(before) as { sent_at: string; seq: number } | undefined) : undefined;
    if (anchor) rows = this.s.listMessagesBefore.all({ conv: conversationId, sent_at: anchor.sent_at, seq: anchor.seq, limit }) as MessageRowDb[];
    else rows = this.s.listMessages.all({ conv: conversationId, limit }) as MessageRowDb[];
    return rows.reverse().map(messageFromRow);
  }

  /**
   * The page that opens a conversation at one of its messages (a search hit): the `older`
   * messages before it, it, and every newer one up to AROUND_NEWER_MAX, oldest first; so the
   * list reaches the newest message as it does when opened normally, and pages back from there.
   * Null when the message is not in this conversation.
   */
  listMessagesAround(conversationId: ConversationId, id: string, older: number): ChatMessage[] | null {
    const anchor = this.s.messageOrder.get(id) as { sent_at: string; seq: number; conversation_id: string } | undefined;
    if (!anchor || anchor.conversation_id !== conversationId) return null;
    const at = { conv: conversationId, sent_at: anchor.sent_at, seq: anchor.seq };
    const before = (this.s.listMessagesBefore.all({ ...at, limit: older }) as MessageRowDb[]).reverse();
    const from = this.s.listMessagesFrom.all({ ...at, limit: AROUND_NEWER_MAX }) as MessageRowDb[];
    return [...before, ...from].map(messageFromRow);
  }

  /** Messages the headless client has not printed yet, in arrival order. */
  unshownMessages(): Array<ChatMessage & { seq: number }> {
    return (this.s.unshown.all() as MessageRowDb[]).map((r) => ({ ...messageFromRow(r), seq: r.seq }));
  }

  markShown(seq: number): void {
    this.s.markShown.run(seq);
  }

  /** Stores a new outgoing message and its outbox entry together. */
  insertOutgoing(m: OutgoingMessage): ChatMessage {
    this.db.transaction(() => {
      this.s.ensureConversation.run({ id: m.conversationId, kind: m.kind, peer: m.peer, at: m.sentAt });
      const info = this.s.insertMessage.run({
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
      this.s.touchConversation.run({ id: m.conversationId, seq: info.lastInsertRowid, at: m.sentAt, unread: 0 });
      this.changes.noteInserted({ ...m, fromMe: true, expiresIn: m.expiresIn ?? null, timerSeconds: m.timerSeconds ?? null }, m.nowMs);
      this.s.insertOutbox.run({ message_id: m.id, conv: m.conversationId, payload: m.payload, as_request: m.asRequest ? 1 : 0, next: m.nowMs, queued: m.nowMs });
      if (m.files) this.attachments.insert(m.id, m.files, 'sent');
      if (m.kind === 'direct') this.s.contactKnown.run({ address: m.peer, now: m.nowMs });
    })();
    return this.getMessage(m.id)!;
  }

  /** Queues an edit or delete of our own for sending: an outbox entry with no message row of its own. */
  queueChange(e: { id: string; conversationId: ConversationId; payload: string; nowMs: number }): void {
    this.s.insertOutbox.run({ message_id: e.id, conv: e.conversationId, payload: e.payload, as_request: 0, next: e.nowMs, queued: e.nowMs });
  }

  /** Records the relay's answer and takes the message out of the outbox. */
  markSent(id: string, r: { routed: Routed | null; stakeRequired: string | null; stakeCurrency: StakeCurrency | null; via: 'group-token' | 'api-key' | null; deliveries: unknown }): void {
    this.db.transaction(() => {
      this.s.markSent.run({ id, routed: r.routed, stake_required: r.stakeRequired, stake_currency: r.stakeCurrency, via: r.via, deliveries: JSON.stringify(r.deliveries) });
      this.s.deleteOutbox.run(id);
    })();
  }

  /**
   * The peer's device stored these own messages of this conversation (a `delivered` receipt).
   * Only moves forward: a read message stays read. Ids of other conversations, of messages
   * not ours or unknown are ignored. Returns the ids whose state changed.
   */
  markDelivered(conversationId: ConversationId, ids: readonly string[]): string[] {
    return this.movePeerState(this.s.markPeerDelivered, conversationId, ids);
  }

  /** The peer has seen these own messages (a `read` receipt); the same rules as markDelivered. */
  markReadByPeer(conversationId: ConversationId, ids: readonly string[]): string[] {
    return this.movePeerState(this.s.markPeerRead, conversationId, ids);
  }

  private movePeerState(statement: Statement, conversationId: ConversationId, ids: readonly string[]): string[] {
    const changed: string[] = [];
    this.db.transaction(() => {
      for (const id of new Set(ids.map((i) => i.toLowerCase()))) if (statement.run(id, conversationId).changes > 0) changed.push(id);
    })();
    return changed;
  }

  markFailed(id: string, error: string, code: string | null = null): void {
    this.db.transaction(() => {
      this.s.markFailed.run(error, code, id);
      this.s.deleteOutbox.run(id);
    })();
  }

  /** Puts a failed message back in the outbox; false if it is not ours or not failed. */
  requeue(id: string, payload: string, asRequest: boolean, nowMs: number): boolean {
    return this.db.transaction(() => {
      const msg = this.s.getMessage.get(id) as MessageRowDb | undefined;
      // a failed message, or one a stake gate held back (re-sent with a stake)
      const held = msg?.state === 'sent' && msg.routed === 'stake-gate';
      if (!msg || msg.from_me !== 1 || (msg.state !== 'failed' && !held)) return false;
      this.s.markSending.run(id);
      this.s.insertOutbox.run({ message_id: id, conv: msg.conversation_id, payload, as_request: asRequest ? 1 : 0, next: nowMs, queued: nowMs });
      return true;
    })();
  }

  // ---- outbox ----

  dueOutbox(nowMs: number, limit = 100): OutboxRow[] {
    return (this.s.dueOutbox.all({ now: nowMs, limit }) as Array<Record<string, unknown>>).map(outboxFromRow);
  }

  getOutbox(messageId: string): OutboxRow | null {
    const r = this.s.getOutbox.get(messageId) as Record<string, unknown> | undefined;
    return r ? outboxFromRow(r) : null;
  }

  deferOutbox(messageId: string, attempts: number, nextAttemptMs: number, error: string): void {
    this.s.deferOutbox.run({ id: messageId, attempts, next: nextAttemptMs, error });
  }

  outboxCount(): number {
    return (this.s.outboxCount.get() as { n: number }).n;
  }

  /** When the earliest outbox entry is due, or null when it is empty. */
  nextOutboxDue(): number | null {
    const r = this.s.nextOutboxDue.get() as { next: number | null };
    return r.next;
  }

  // ---- incoming ----

  /**
   * Stores verified incoming messages, skipping ones already stored, and records the envelope
   * ids as pending acks, all in one transaction: once this returns the messages are durable,
   * and only then may the caller ack.
   */
  applyIncoming(items: IncomingMessage[], ackIds: string[], nowMs: number): AppliedIncoming {
    return this.applyIncomingTx(items, ackIds, nowMs);
  }

  private applyIncomingInner(items: IncomingMessage[], ackIds: string[], nowMs: number): AppliedIncoming {
    const inserted: string[] = [];
    const requestAddrs = new Set<string>();
    const convs = new Set<ConversationId>();
    const changed = new Set<string>();
    const refused: AppliedIncoming['refused'] = [];
    for (const it of items) {
      const contact = it.conversationKind === 'direct' && !it.fromMe ? this.getContact(it.author) : null;
      // a sender we blocked after they wrote: drop what is still in flight
      if (contact?.state === 'blocked') continue;
      if (it.control && it.control.kind !== 'timer') {
        const out = this.changes.apply({ changeId: it.id, conversationId: it.conversationId, author: it.author, sentAt: it.sentAt, body: it.control }, nowMs);
        if ('applied' in out) changed.add(out.applied);
        if ('refused' in out) refused.push({ envelopeId: it.envelopeId, author: it.author, reason: out.refused });
        continue;
      }
      this.s.ensureConversation.run({ id: it.conversationId, kind: it.conversationKind, peer: it.peer, at: it.sentAt });
      const info = this.s.insertMessage.run({
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
      for (const reason of this.changes.noteInserted({ ...it, expiresIn: it.expiresIn ?? null, timerSeconds }, nowMs)) refused.push({ envelopeId: it.envelopeId, author: it.author, reason });
      // our own other device's files too: this device has no copy of them
      if (it.files) this.attachments.insert(it.id, it.files, 'pending');
      const pending = it.isRequest && contact?.state !== 'allowed';
      this.s.touchConversation.run({ id: it.conversationId, seq: info.lastInsertRowid, at: it.sentAt, unread: it.fromMe ? 0 : 1 });
      convs.add(it.conversationId);
      if (it.conversationKind === 'direct' && !it.fromMe) {
        if (pending) {
          this.s.upsertContactState.run({ address: it.author, state: 'requested', now: nowMs });
          this.s.upsertRequest.run({ address: it.author, intro: it.text, received_at: it.receivedAt });
          requestAddrs.add(it.author);
        } else {
          this.s.contactKnown.run({ address: it.author, now: nowMs });
        }
      }
    }
    for (const id of ackIds) this.s.insertPendingAck.run(id, nowMs);
    return {
      messages: inserted.map((id) => this.getMessage(id)!),
      requests: [...requestAddrs].map((a) => this.getRequest(a)!).filter(Boolean),
      conversations: [...convs],
      changed: [...changed].map((id) => this.getMessage(id)!),
      refused,
    };
  }

  // ---- pending acks ----

  pendingAcks(limit = 500): string[] {
    return (this.s.pendingAcks.all(limit) as Array<{ envelope_id: string }>).map((r) => r.envelope_id);
  }

  clearPendingAcks(ids: string[]): void {
    this.db.transaction(() => {
      for (const id of ids) this.s.deletePendingAck.run(id);
    })();
  }

  // ---- contact requests ----

  listRequests(): ContactRequest[] {
    return (this.s.listRequests.all() as RequestRowDb[]).map(requestFromRow);
  }

  getRequest(address: string): ContactRequest | null {
    const r = this.s.getRequest.get(address) as RequestRowDb | undefined;
    return r ? requestFromRow(r) : null;
  }

  /** Accepting keeps the conversation (it now shows in the list). */
  acceptRequest(address: string, nowMs: number): void {
    this.db.transaction(() => {
      this.s.deleteRequest.run(address);
      this.s.upsertContactState.run({ address, state: 'allowed', now: nowMs });
    })();
  }

  /** Declining forgets the sender and everything they wrote. */
  declineRequest(address: string): void {
    this.db.transaction(() => {
      this.s.deleteRequest.run(address);
      this.s.deleteConversation.run(`direct:${address}`);
      this.s.deleteContact.run(address);
    })();
  }

  blockContact(address: string, nowMs: number): void {
    this.db.transaction(() => {
      this.s.deleteRequest.run(address);
      this.s.upsertContactState.run({ address, state: 'blocked', now: nowMs });
    })();
  }

  // ---- certified devices ----

  certifiedDevices(address: string): CertifiedDevice[] {
    return (this.s.certifiedDevices.all(address) as Array<{ public_key: string; certificate: string; created_at: string; fetched_ms: number }>).map((r) => ({
      publicKey: r.public_key,
      certificate: r.certificate,
      createdAt: r.created_at,
      fetchedMs: r.fetched_ms,
    }));
  }

  /** Replaces the cached device set of an address with a freshly fetched, verified one. */
  replaceCertifiedDevices(address: string, devices: Array<{ publicKey: string; certificate: string; createdAt: string }>, nowMs: number): void {
    this.db.transaction(() => {
      this.s.deleteCertifiedDevices.run(address);
      for (const d of devices) this.s.insertCertifiedDevice.run(address, d.publicKey, d.certificate, d.createdAt, nowMs);
    })();
  }
}

interface RequestRowDb {
  address: string;
  intro: string;
  received_at: string;
  message_count: number;
  handle: string | null;
  verified: number | null;
}

function requestFromRow(r: RequestRowDb): ContactRequest {
  return { address: r.address, handle: r.handle, verified: r.verified === 1, intro: r.intro, receivedAt: r.received_at, messageCount: r.message_count };
}

function messageFromRow(r: MessageRowDb): ChatMessage {
  return {
    id: r.id,
    conversationId: r.conversation_id as ConversationId,
    from: r.author,
    fromMe: r.from_me === 1,
    fromHandle: r.author_handle,
    kind: r.kind,
    text: r.text,
    sentAt: r.sent_at,
    receivedAt: r.received_at,
    state: r.state,
    delivery: deliveryOf(r),
    routed: r.routed,
    stakeRequired: r.stake_required,
    stakeCurrency: r.stake_currency,
    via: r.via,
    botName: r.bot_name,
    error: r.error,
    errorCode: r.error_code,
    editedAt: r.edited_at,
    deleted: r.deleted_at !== null,
    timerSeconds: r.timer_seconds,
    expiresIn: r.expires_in,
    expiresAt: r.expires_at_ms === null ? null : new Date(r.expires_at_ms).toISOString(),
  };
}

function deliveryOf(r: MessageRowDb): DeliveryState | null {
  if (r.from_me !== 1) return null;
  return r.peer_state ?? (r.state === 'sent' ? 'sent' : 'sending');
}

function conversationFromRow(r: ConversationRowDb): ConversationSummary {
  const title = r.kind === 'group' ? (r.group_name ?? 'Group') : r.contact_handle ? `@${r.contact_handle}` : shortAddress(r.peer);
  return {
    id: r.id as ConversationId,
    kind: r.kind,
    peer: r.peer,
    title,
    verified: r.kind === 'group' ? r.group_verified === 1 : r.contact_verified === 1,
    lastMessage: r.last_text === null ? null : { text: r.last_text, at: r.last_sent_at!, fromMe: r.last_from_me === 1 },
    unread: r.unread,
    updatedAt: r.updated_at,
    muted: r.muted === 1,
    timerSeconds: r.timer_seconds,
  };
}

function groupFromRow(r: GroupRowDb): GroupRecord {
  return {
    id: r.id,
    name: r.name,
    isPublic: r.is_public === 1,
    verified: r.verified === 1,
    hasPassword: r.has_password === 1,
    avatar: r.avatar,
    memberCount: r.member_count,
    createdAt: r.created_at,
    creator: r.creator,
    members: r.members === null ? null : (JSON.parse(r.members) as string[]),
    isMember: r.is_member === 1,
  };
}

export function groupInfoOf(g: GroupRecord, me: string): GroupInfo {
  const info: GroupInfo = {
    id: g.id,
    name: g.name,
    isPublic: g.isPublic,
    verified: g.verified,
    hasPassword: g.hasPassword,
    avatar: g.avatar,
    memberCount: g.memberCount,
    createdAt: g.createdAt,
    isMember: g.isMember,
    isCreator: g.creator === me,
  };
  if (g.isMember && g.creator !== null) info.creatorAddress = g.creator;
  if (g.isMember && g.members !== null) info.members = g.members;
  return info;
}

function outboxFromRow(r: Record<string, unknown>): OutboxRow {
  return {
    messageId: r.message_id as string,
    conversationId: r.conversation_id as ConversationId,
    payload: r.payload as string,
    asRequest: r.as_request === 1,
    attempts: r.attempts as number,
    nextAttemptMs: r.next_attempt_ms as number,
    lastError: (r.last_error as string | null) ?? null,
  };
}

/** Every statement of the local store, prepared once per connection (exported for the query-plan test). */
export const LOCAL_STORE_SQL = {
  getSetting: 'SELECT value FROM profile WHERE key = ?',
  setSetting: 'INSERT INTO profile (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  deleteSetting: 'DELETE FROM profile WHERE key = ?',
  allSettings: 'SELECT key, value FROM profile',

  getContact: 'SELECT address, handle, verified, state FROM contacts WHERE address = ?',
  contactByHandle: 'SELECT address, handle, verified, state FROM contacts WHERE handle = ?',
  upsertContactState: `INSERT INTO contacts (address, state, updated_ms) VALUES (@address, @state, @now)
    ON CONFLICT (address) DO UPDATE SET state = excluded.state, updated_ms = excluded.updated_ms`,
  // 'known' never overrides a decision (allowed, requested or blocked)
  contactKnown: `INSERT INTO contacts (address, state, updated_ms) VALUES (@address, 'known', @now) ON CONFLICT (address) DO NOTHING`,
  upsertContactHandle: `INSERT INTO contacts (address, handle, verified, state, updated_ms) VALUES (@address, @handle, @verified, 'known', @now)
    ON CONFLICT (address) DO UPDATE SET handle = excluded.handle, verified = excluded.verified`,
  deleteContact: 'DELETE FROM contacts WHERE address = ?',

  upsertGroup: `INSERT INTO groups (id, name, is_public, verified, has_password, avatar, member_count, created_at, creator, members, is_member, fetched_ms)
    VALUES (@id, @name, @is_public, @verified, @has_password, @avatar, @member_count, @created_at, @creator, @members, @is_member, @fetched_ms)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, is_public = excluded.is_public, verified = excluded.verified,
      has_password = excluded.has_password, avatar = excluded.avatar, member_count = excluded.member_count,
      created_at = excluded.created_at, creator = COALESCE(excluded.creator, groups.creator),
      members = COALESCE(excluded.members, groups.members), is_member = excluded.is_member, fetched_ms = excluded.fetched_ms`,
  getGroup: 'SELECT * FROM groups WHERE id = ?',
  setGroupMembership: 'UPDATE groups SET is_member = ? WHERE id = ?',

  ensureConversation: `INSERT INTO conversations (id, kind, peer, updated_at) VALUES (@id, @kind, @peer, @at) ON CONFLICT (id) DO NOTHING`,
  touchConversation: `UPDATE conversations SET
      last_message_seq = CASE WHEN last_message_seq IS NULL OR @at >= (SELECT sent_at FROM messages WHERE seq = last_message_seq) THEN @seq ELSE last_message_seq END,
      updated_at = MAX(updated_at, @at), unread = unread + @unread
    WHERE id = @id`,
  listConversations: `${CONVERSATION_SELECT}
    WHERE v.kind = 'group' OR c.state IS NULL OR c.state IN ('known', 'allowed')
    ORDER BY v.updated_at DESC, v.id`,
  getConversation: `${CONVERSATION_SELECT} WHERE v.id = ?`,
  markRead: 'UPDATE conversations SET unread = 0 WHERE id = ?',
  setMuted: 'UPDATE conversations SET muted = ? WHERE id = ?',
  deleteConversation: 'DELETE FROM conversations WHERE id = ?',

  insertMessage: `INSERT INTO messages (id, conversation_id, author, from_me, kind, text, sent_at, received_at, state, routed, via, bot_name, envelope_id, shown)
    VALUES (@id, @conv, @author, @from_me, @kind, @text, @sent_at, @received_at, @state, @routed, @via, @bot_name, @envelope_id, @shown)
    ON CONFLICT (id) DO NOTHING`,
  getMessage: `SELECT ${MESSAGE_COLUMNS} FROM messages m LEFT JOIN contacts c ON c.address = m.author WHERE m.id = ?`,
  messageOrder: 'SELECT sent_at, seq, conversation_id FROM messages WHERE id = ?',
  listMessages: `SELECT ${MESSAGE_COLUMNS} FROM messages m LEFT JOIN contacts c ON c.address = m.author
    WHERE m.conversation_id = @conv ORDER BY m.sent_at DESC, m.seq DESC LIMIT @limit`,
  listMessagesBefore: `SELECT ${MESSAGE_COLUMNS} FROM messages m LEFT JOIN contacts c ON c.address = m.author
    WHERE m.conversation_id = @conv AND (m.sent_at < @sent_at OR (m.sent_at = @sent_at AND m.seq < @seq))
    ORDER BY m.sent_at DESC, m.seq DESC LIMIT @limit`,
  listMessagesFrom: `SELECT ${MESSAGE_COLUMNS} FROM messages m LEFT JOIN contacts c ON c.address = m.author
    WHERE m.conversation_id = @conv AND (m.sent_at > @sent_at OR (m.sent_at = @sent_at AND m.seq >= @seq))
    ORDER BY m.sent_at, m.seq LIMIT @limit`,
  unshown: `SELECT ${MESSAGE_COLUMNS} FROM messages m LEFT JOIN contacts c ON c.address = m.author WHERE m.shown = 0 ORDER BY m.seq`,
  markShown: 'UPDATE messages SET shown = 1 WHERE seq = ?',
  markSent: `UPDATE messages SET state = 'sent', routed = @routed, stake_required = @stake_required, stake_currency = @stake_currency,
    via = @via, deliveries = @deliveries, error = NULL, error_code = NULL WHERE id = @id`,
  markFailed: `UPDATE messages SET state = 'failed', error = ?, error_code = ? WHERE id = ?`,
  markPeerDelivered: `UPDATE messages SET peer_state = 'delivered' WHERE id = ? AND conversation_id = ? AND from_me = 1 AND peer_state IS NULL`,
  markPeerRead: `UPDATE messages SET peer_state = 'read' WHERE id = ? AND conversation_id = ? AND from_me = 1 AND (peer_state IS NULL OR peer_state = 'delivered')`,
  markSending: `UPDATE messages SET state = 'sending', error = NULL, error_code = NULL WHERE id = ?`,

  insertOutbox: `INSERT INTO outbox (message_id, conversation_id, payload, as_request, attempts, next_attempt_ms, queued_ms)
    VALUES (@message_id, @conv, @payload, @as_request, 0, @next, @queued)
    ON CONFLICT (message_id) DO UPDATE SET attempts = 0, next_attempt_ms = excluded.next_attempt_ms, last_error = NULL`,
  getOutbox: 'SELECT * FROM outbox WHERE message_id = ?',
  // Due, or queued before a due entry of its conversation (still in its backoff): it goes along,
  // first, so a conversation's messages never overtake one another after a failed try.
  dueOutbox: `SELECT * FROM outbox o WHERE EXISTS (
      SELECT 1 FROM outbox l WHERE l.conversation_id = o.conversation_id AND l.next_attempt_ms <= @now
        AND (l.queued_ms, l.message_id) >= (o.queued_ms, o.message_id))
    ORDER BY queued_ms, message_id LIMIT @limit`,
  deferOutbox: 'UPDATE outbox SET attempts = @attempts, next_attempt_ms = @next, last_error = @error WHERE message_id = @id',
  deleteOutbox: 'DELETE FROM outbox WHERE message_id = ?',
  outboxCount: 'SELECT COUNT(*) AS n FROM outbox',
  nextOutboxDue: 'SELECT MIN(next_attempt_ms) AS next FROM outbox',

  insertPendingAck: 'INSERT INTO pending_acks (envelope_id, added_ms) VALUES (?, ?) ON CONFLICT (envelope_id) DO NOTHING',
  pendingAcks: 'SELECT envelope_id FROM pending_acks ORDER BY added_ms LIMIT ?',
  deletePendingAck: 'DELETE FROM pending_acks WHERE envelope_id = ?',

  upsertRequest: `INSERT INTO requests (address, intro, received_at, message_count) VALUES (@address, @intro, @received_at, 1)
    ON CONFLICT (address) DO UPDATE SET message_count = requests.message_count + 1`,
  listRequests: `SELECT r.address, r.intro, r.received_at, r.message_count, c.handle, c.verified
    FROM requests r LEFT JOIN contacts c ON c.address = r.address ORDER BY r.received_at DESC`,
  getRequest: `SELECT r.address, r.intro, r.received_at, r.message_count, c.handle, c.verified
    FROM requests r LEFT JOIN contacts c ON c.address = r.address WHERE r.address = ?`,
  deleteRequest: 'DELETE FROM requests WHERE address = ?',

  certifiedDevices: 'SELECT public_key, certificate, created_at, fetched_ms FROM certified_devices WHERE address = ? ORDER BY created_at',
  deleteCertifiedDevices: 'DELETE FROM certified_devices WHERE address = ?',
  insertCertifiedDevice: 'INSERT INTO certified_devices (address, public_key, certificate, created_at, fetched_ms) VALUES (?, ?, ?, ?, ?)',
};

function prepareAll(db: Database.Database): Record<keyof typeof LOCAL_STORE_SQL, Statement> {
  return Object.fromEntries(Object.entries(LOCAL_STORE_SQL).map(([name, sql]) => [name, db.prepare(sql)])) as Record<keyof typeof LOCAL_STORE_SQL, Statement>;
}
