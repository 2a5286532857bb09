/**
 * The local database on its own: migrations by user_version (a newer file is refused), the
 * durability pragmas, deduplication by message id, pending acks in the same commit, and an
 * outbox that survives reopening.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SchemaTooNewError } from '../../../sqlite/migrations.js';
import { LocalStore, type IncomingMessage } from '../local-store.js';
import { MIGRATIONS } from '../local-store-migrations.js';
import { cleanup, tempDir } from '../../test/harness.js';

afterAll(cleanup);

const ME = '0x' + '11'.repeat(20);
const PEER = '0x' + '22'.repeat(20);

function incoming(id: string, over: Partial<IncomingMessage> = {}): IncomingMessage {
  return {
    id,
    envelopeId: globalThis.crypto.randomUUID(),
    conversationId: `direct:${PEER}`,
    conversationKind: 'direct',
    peer: PEER,
    author: PEER,
    fromMe: false,
    kind: 'text',
    text: `text ${id.slice(0, 4)}`,
    sentAt: new Date(Date.UTC(2026, 0, 1, 0, 0, Number.parseInt(id.slice(0, 2), 16) % 60)).toISOString(),
    receivedAt: new Date().toISOString(),
    routed: 'inbox',
    via: null,
    botName: null,
    isRequest: false,
    ...over,
  };
}

describe('local store', () => {
  it('migrates to the latest version with WAL, synchronous=FULL and foreign keys', () => {
    const file = join(tempDir('store'), 'client.db');
    const store = LocalStore.open(file);
    store.close();
    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    // the pragmas that are per connection are checked on a connection the store opened
    const again = LocalStore.open(file);
    const raw = (again as unknown as { db: Database.Database }).db;
    expect(raw.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(raw.pragma('foreign_keys', { simple: true })).toBe(1);
    again.close();
  });

  it('refuses a database written by a newer version', () => {
    const file = join(tempDir('store'), 'client.db');
    const db = new Database(file);
    db.pragma(`user_version = ${MIGRATIONS.at(-1)!.version + 1}`);
    db.close();
    expect(() => LocalStore.open(file)).toThrow(SchemaTooNewError);
  });

  it('stores a redelivered message once and records acks in the same commit', () => {
    const store = LocalStore.open(join(tempDir('store'), 'client.db'));
    const a = incoming('0a000000-0000-4000-8000-000000000001');
    const b = incoming('0b000000-0000-4000-8000-000000000002');
    const first = store.applyIncoming([a, b], [a.envelopeId, b.envelopeId], 1);
    expect(first.messages.map((m) => m.id)).toEqual([a.id, b.id]);
    expect(store.pendingAcks().sort()).toEqual([a.envelopeId, b.envelopeId].sort());
    const again = store.applyIncoming([{ ...a, envelopeId: 'other' }], ['other'], 2);
    expect(again.messages).toEqual([]);
    expect(store.listMessages(`direct:${PEER}`, null, 10).map((m) => m.id)).toEqual([a.id, b.id]);
    expect(store.unshownMessages().map((m) => m.id)).toEqual([a.id, b.id]);
    store.markShown(store.unshownMessages()[0].seq);
    expect(store.unshownMessages().map((m) => m.id)).toEqual([b.id]);
    store.clearPendingAcks([a.envelopeId, b.envelopeId, 'other']);
    expect(store.pendingAcks()).toEqual([]);
    const conv = store.getConversation(`direct:${PEER}`)!;
    expect(conv).toMatchObject({ unread: 2, lastMessage: { text: b.text, fromMe: false } });
    store.close();
  });

  it("keeps a bot post's name beside its via, and null for everyone else", () => {
    const store = LocalStore.open(join(tempDir('store'), 'client.db'));
    const bot = incoming('0c000000-0000-4000-8000-000000000003', { via: 'group-token', botName: 'deploy-notifier' });
    const person = incoming('0d000000-0000-4000-8000-000000000004');
    expect(store.applyIncoming([bot, person], [], 1).messages.map((m) => [m.via, m.botName])).toEqual([
      ['group-token', 'deploy-notifier'],
      [null, null],
    ]);
    expect(store.listMessages(`direct:${PEER}`, null, 10).map((m) => m.botName)).toEqual(['deploy-notifier', null]);
    store.close();
  });

  it('turns routed requests into one request per sender until accepted, and drops blocked senders', () => {
    const store = LocalStore.open(join(tempDir('store'), 'client.db'));
    const r1 = incoming('0c000000-0000-4000-8000-000000000003', {
      routed: 'request',
      isRequest: true,
      kind: 'request',
      text: 'hi, it is me',
    });
    const r2 = incoming('0d000000-0000-4000-8000-000000000004', { routed: 'request', isRequest: true });
    const applied = store.applyIncoming([r1, r2], [], 1);
    expect(applied.requests).toHaveLength(1);
    expect(store.listRequests()).toEqual([
      expect.objectContaining({ address: PEER, intro: 'hi, it is me', messageCount: 2 }),
    ]);
    expect(store.listConversations()).toEqual([]);
    store.acceptRequest(PEER, 2);
    expect(store.listRequests()).toEqual([]);
    expect(store.listConversations().map((c) => c.id)).toEqual([`direct:${PEER}`]);
    store.blockContact(PEER, 3);
    expect(store.applyIncoming([incoming('0e000000-0000-4000-8000-000000000005')], [], 4).messages).toEqual([]);
    store.close();
  });

  it('keeps the outbox across reopening, with backoff and requeue', () => {
    const file = join(tempDir('store'), 'client.db');
    let store = LocalStore.open(file);
    const m = store.insertOutgoing({
      id: '0f000000-0000-4000-8000-000000000006',
      conversationId: `direct:${PEER}`,
      kind: 'direct',
      peer: PEER,
      author: ME,
      messageKind: 'text',
      text: 'pending',
      sentAt: new Date().toISOString(),
      payload: '{}',
      asRequest: false,
      nowMs: 100,
    });
    expect(m.state).toBe('sending');
    store.deferOutbox(m.id, 1, 5000, 'relay down');
    store.close();
    store = LocalStore.open(file);
    expect(store.outboxCount()).toBe(1);
    expect(store.dueOutbox(4999)).toEqual([]);
    expect(store.dueOutbox(5000)).toEqual([
      expect.objectContaining({ messageId: m.id, attempts: 1, lastError: 'relay down' }),
    ]);
    store.markFailed(m.id, 'refused');
    expect(store.outboxCount()).toBe(0);
    expect(store.getMessage(m.id)).toMatchObject({ state: 'failed', error: 'refused' });
    expect(store.requeue(m.id, '{}', false, 6000)).toBe(true);
    expect(store.getMessage(m.id)).toMatchObject({ state: 'sending', error: null });
    expect(store.outboxCount()).toBe(1);
    store.close();
  });

  it('sends an entry still in its backoff along with, and before, a later due entry of its conversation', () => {
    const store = LocalStore.open(join(tempDir('store'), 'client.db'));
    const queue = (id: string, peer: string, nowMs: number) =>
      store.insertOutgoing({
        id,
        conversationId: `direct:${peer}`,
        kind: 'direct',
        peer,
        author: ME,
        messageKind: 'text',
        text: id,
        sentAt: new Date().toISOString(),
        payload: '{}',
        asRequest: false,
        nowMs,
      });
    const OTHER = '0x' + '77'.repeat(20);
    const first = queue('0f000000-0000-4000-8000-000000000011', PEER, 100);
    const elsewhere = queue('0f000000-0000-4000-8000-000000000012', OTHER, 150);
    store.deferOutbox(first.id, 1, 5000, 'relay down');
    store.deferOutbox(elsewhere.id, 1, 5000, 'relay down');
    expect(store.dueOutbox(1000)).toEqual([]);
    const second = queue('0f000000-0000-4000-8000-000000000013', PEER, 200);
    // the other conversation's entry keeps its backoff; this one's earlier entry goes first
    expect(store.dueOutbox(1000).map((r) => r.messageId)).toEqual([first.id, second.id]);
    expect(store.dueOutbox(5000).map((r) => r.messageId)).toEqual([first.id, elsewhere.id, second.id]);
    store.close();
  });

  it('moves own messages sending → sent → delivered → read by the peer, never backwards, and only in their conversation', () => {
    const store = LocalStore.open(join(tempDir('store'), 'client.db'));
    const own = (id: string, conversationId: `direct:${string}` = `direct:${PEER}`) =>
      store.insertOutgoing({
        id,
        conversationId,
        kind: 'direct',
        peer: conversationId.slice(7),
        author: ME,
        messageKind: 'text',
        text: 'hi',
        sentAt: new Date().toISOString(),
        payload: '{}',
        asRequest: false,
        nowMs: 1,
      });
    const a = own('1a000000-0000-4000-8000-000000000001');
    const b = own('1b000000-0000-4000-8000-000000000002');
    const elsewhere = own('1c000000-0000-4000-8000-000000000003', `direct:0x${'33'.repeat(20)}`);
    const theirs = incoming('1d000000-0000-4000-8000-000000000004');
    store.applyIncoming([theirs], [], 1);
    const delivery = (id: string) => store.getMessage(id)!.delivery;
    expect(delivery(a.id)).toBe('sending');
    store.markSent(a.id, { routed: 'inbox', stakeRequired: null, stakeCurrency: null, via: 'api-key', deliveries: [] });
    expect(delivery(a.id)).toBe('sent');
    expect(delivery(theirs.id)).toBeNull();

    // ids upper-cased and repeated count once; the other conversation's and the peer's own message are untouched
    expect(store.markDelivered(`direct:${PEER}`, [a.id.toUpperCase(), a.id, elsewhere.id, theirs.id])).toEqual([a.id]);
    expect([delivery(a.id), delivery(elsewhere.id), delivery(theirs.id)]).toEqual(['delivered', 'sending', null]);
    expect(store.markReadByPeer(`direct:${PEER}`, [a.id, b.id])).toEqual([a.id, b.id]);
    expect([delivery(a.id), delivery(b.id)]).toEqual(['read', 'read']);
    // a late delivered receipt does not take a read back, nor does a second read change anything
    expect(store.markDelivered(`direct:${PEER}`, [a.id, b.id])).toEqual([]);
    expect(store.markReadByPeer(`direct:${PEER}`, [a.id])).toEqual([]);
    expect(
      store
        .listMessages(`direct:${PEER}`, null, 10)
        .filter((m) => m.fromMe)
        .map((m) => m.delivery),
    ).toEqual(['read', 'read']);
    store.close();
  });
});
