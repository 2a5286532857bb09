/**
 * The client's local database (better-sqlite3, one file in the profile folder): profile
 * settings, contacts, groups, conversations, messages, contact requests, the outbox, pending
 * acks and the certified-device cache. Its statements are in local-store-sql.ts (prepared
 * once when the store opens), its rows and records in local-store-rows.ts, its writes of
 * messages in and out in local-store-messages.ts; the feature tables have sub-stores of their
 * own over the same connection (attachments/, messages/, trust/, backup/, history/ *-store.ts).
 * Multi-row changes are single transactions, which is what lets the sync loop promise "commit,
 * then ack": a crash leaves either nothing or all.
 */
import { AttachmentStore } from '../attachments/attachment-store.js';
import type Database from 'better-sqlite3';
import type { ChatMessage, ContactRequest, ConversationId, ConversationSummary } from '../../../shared/domain.js';
import { openDatabase, type OpenDatabaseOptions } from '../../sqlite/open-database.js';
import {
  AROUND_NEWER_MAX,
  conversationFromRow,
  groupFromRow,
  messageFromRow,
  outboxFromRow,
  requestFromRow,
  type AppliedIncoming,
  type CertifiedDevice,
  type ContactRow,
  type ContactState,
  type ConversationRowDb,
  type GroupRecord,
  type GroupRowDb,
  type IncomingMessage,
  type MessageRowDb,
  type OutboxRow,
  type OutgoingMessage,
  type RequestRowDb,
} from './local-store-rows.js';
import { prepareAll, type LocalStatements } from './local-store-sql.js';
import * as messageWrites from './local-store-messages.js';
import type { MessageWriteContext, RelayAnswer } from './local-store-messages.js';
import { MIGRATIONS } from './local-store-migrations.js';
import { MessageChangesStore } from '../messages/message-changes-store.js';
import { TrustStore } from '../trust/trust-store.js';
import { MessageSearchStore } from './local-store-search.js';
import { BackupStore } from '../backup/backup-store.js';
import { HistoryMergeStore } from '../history/history-store.js';
import { RelationshipStore } from '../contacts/relationship-store.js';
import { MembershipStore } from '../groups/membership-store.js';
import { shownInChats } from '../contacts/relationship.js';

export type StoreOpenOptions = Pick<OpenDatabaseOptions, 'key' | 'afterEncryptStep'>;

export {
  AROUND_NEWER_MAX,
  groupInfoOf,
  shortAddress,
  type AppliedIncoming,
  type CertifiedDevice,
  type ContactRow,
  type ContactState,
  type GroupRecord,
  type IncomingMessage,
  type OutboxRow,
  type OutgoingMessage,
} from './local-store-rows.js';
export { LOCAL_STORE_SQL } from './local-store-sql.js';

export class LocalStore {
  // not readonly: switchTo() puts another connection (and its statements) in place
  private db!: Database.Database;
  private s!: LocalStatements;
  /** what the message writes (local-store-messages.ts) use of this store */
  private writes!: MessageWriteContext;
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
  /** who someone is to me, and blocks (contacts/relationship-store.ts) */
  relationships!: RelationshipStore;
  /** taken out of a group (groups/membership-store.ts) */
  membership!: MembershipStore;

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
    this.writes = {
      db,
      s: this.s,
      changes: this.changes,
      attachments: this.attachments,
      getContact: (address) => this.getContact(address),
      getMessage: (id) => this.getMessage(id),
      getRequest: (address) => this.getRequest(address),
    };
    this.relationships = new RelationshipStore(db);
    this.membership = new MembershipStore(db);
    this.applyIncomingTx = db.transaction((items: IncomingMessage[], ackIds: string[], nowMs: number) =>
      messageWrites.storeIncoming(this.writes, items, ackIds, nowMs),
    );
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
    const r = this.s.getContact.get(address) as
      { address: string; handle: string | null; verified: number; state: ContactState } | undefined;
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
    const r = this.s.contactByHandle.get(handle.toLowerCase()) as
      { address: string; handle: string | null; verified: number; state: ContactState } | undefined;
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

  /** Conversations to show in Chats (contacts/relationship.ts says whose), newest first. */
  listConversations(): ConversationSummary[] {
    return (this.s.listConversations.all() as ConversationRowDb[]).map((r) => this.summary(r)).filter(shownInChats);
  }

  getConversation(id: ConversationId): ConversationSummary | null {
    const r = this.s.getConversation.get(id) as ConversationRowDb | undefined;
    return r ? this.summary(r) : null;
  }

  private summary(r: ConversationRowDb): ConversationSummary {
    return conversationFromRow(r, r.kind === 'direct' ? this.relationships.of(r.peer) : null);
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
    const anchor = before
      ? (this.s.messageOrder.get(before) as { sent_at: string; seq: number } | undefined)
      : undefined;
    if (anchor)
      rows = this.s.listMessagesBefore.all({
        conv: conversationId,
        sent_at: anchor.sent_at,
        seq: anchor.seq,
        limit,
      }) as MessageRowDb[];
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
    return messageWrites.insertOutgoing(this.writes, m);
  }

  /** Queues an edit or delete of our own for sending: an outbox entry with no message row of its own. */
  queueChange(e: { id: string; conversationId: ConversationId; payload: string; nowMs: number }): void {
    messageWrites.queueChange(this.writes, e);
  }

  /** Records the relay's answer and takes the message out of the outbox. */
  markSent(id: string, r: RelayAnswer): void {
    messageWrites.markSent(this.writes, id, r);
  }

  /**
   * The peer's device stored these own messages of this conversation (a `delivered` receipt).
   * Only moves forward: a read message stays read. Ids of other conversations, of messages
   * not ours or unknown are ignored. Returns the ids whose state changed.
   */
  markDelivered(conversationId: ConversationId, ids: readonly string[]): string[] {
    return messageWrites.movePeerState(this.writes, this.s.markPeerDelivered, conversationId, ids);
  }

  /** The peer has seen these own messages (a `read` receipt); the same rules as markDelivered. */
  markReadByPeer(conversationId: ConversationId, ids: readonly string[]): string[] {
    return messageWrites.movePeerState(this.writes, this.s.markPeerRead, conversationId, ids);
  }

  markFailed(id: string, error: string, code: string | null = null): void {
    messageWrites.markFailed(this.writes, id, error, code);
  }

  /** Puts a failed message back in the outbox; false if it is not ours or not failed. */
  requeue(id: string, payload: string, asRequest: boolean, nowMs: number): boolean {
    return messageWrites.requeue(this.writes, id, payload, asRequest, nowMs);
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
    this.relationships.block(address, nowMs);
  }

  // ---- certified devices ----

  certifiedDevices(address: string): CertifiedDevice[] {
    return (
      this.s.certifiedDevices.all(address) as Array<{
        public_key: string;
        certificate: string;
        created_at: string;
        fetched_ms: number;
      }>
    ).map((r) => ({
      publicKey: r.public_key,
      certificate: r.certificate,
      createdAt: r.created_at,
      fetchedMs: r.fetched_ms,
    }));
  }

  /** Replaces the cached device set of an address with a freshly fetched, verified one. */
  replaceCertifiedDevices(
    address: string,
    devices: Array<{ publicKey: string; certificate: string; createdAt: string }>,
    nowMs: number,
  ): void {
    this.db.transaction(() => {
      this.s.deleteCertifiedDevices.run(address);
      for (const d of devices)
        this.s.insertCertifiedDevice.run(address, d.publicKey, d.certificate, d.createdAt, nowMs);
    })();
  }
}
