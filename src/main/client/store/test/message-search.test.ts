/**
 * Local search on its own: the FTS5 index follows every way a message row is written, changed
 * or removed (triggers), migration 7 indexes the messages stored before it, hits come newest
 * first with the matched words marked, and whatever a person types is searched as text: FTS5
 * syntax in it is never obeyed and never an error.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../sqlite/migrations.js';
import { MATCH_END, MATCH_START, ftsQuery, snippetParts } from '../../../../shared/message-search.js';
import { LocalStore, type IncomingMessage } from '../local-store.js';
import { MESSAGE_SEARCH_SQL } from '../local-store-search.js';
import { explain } from '../../../sqlite/test/query-plan.js';
import { MIGRATIONS } from '../local-store-migrations.js';
import { Messenger } from '../../core/messenger.js';
import { cleanup, tempDir } from '../../test/harness.js';

afterAll(cleanup);

const ME = '0x' + '11'.repeat(20);
const PEER = '0x' + '22'.repeat(20);
const OTHER = '0x' + '33'.repeat(20);
const STRANGER = '0x' + '44'.repeat(20);

let n = 0;
function incoming(text: string, over: Partial<IncomingMessage> = {}): IncomingMessage {
  n += 1;
  const peer = over.author ?? PEER;
  return {
    id: globalThis.crypto.randomUUID(),
    envelopeId: globalThis.crypto.randomUUID(),
    conversationId: `direct:${peer}`,
    conversationKind: 'direct',
    peer,
    author: peer,
    fromMe: false,
    kind: 'text',
    text,
    sentAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
    receivedAt: new Date().toISOString(),
    routed: 'inbox',
    via: null,
    botName: null,
    isRequest: false,
    ...over,
  };
}

function openStore(): { store: LocalStore; db: Database.Database } {
  const store = LocalStore.open(join(tempDir('search'), 'client.db'));
  return { store, db: (store as unknown as { db: Database.Database }).db };
}

const ids = (hits: Array<{ messageId: string }>) => hits.map((h) => h.messageId);

describe('message search', () => {
  it('finds received and sent messages, newest first, with the matched words marked', () => {
    const { store } = openStore();
    const older = incoming('Lunch at the station tomorrow?');
    const newer = incoming('The train is late, lunch moves to one', {
      author: OTHER,
      conversationId: `direct:${OTHER}`,
      peer: OTHER,
    });
    store.applyIncoming([older, newer], [], 1);
    const mine = store.insertOutgoing({
      id: globalThis.crypto.randomUUID(),
      conversationId: `direct:${PEER}`,
      kind: 'direct',
      peer: PEER,
      author: ME,
      messageKind: 'text',
      text: 'Lunch sounds good',
      sentAt: new Date(Date.UTC(2026, 0, 2)).toISOString(),
      payload: '{}',
      asRequest: false,
      nowMs: 2,
    });

    const hits = store.search.search('lunch', { limit: 10 });
    expect(ids(hits)).toEqual([mine.id, newer.id, older.id]);
    expect(hits[0]).toEqual({
      messageId: mine.id,
      conversationId: `direct:${PEER}`,
      from: ME,
      fromHandle: null,
      fromMe: true,
      sentAt: mine.sentAt,
      snippet: `${MATCH_START}Lunch${MATCH_END} sounds good`,
    });
    expect(snippetParts(hits[2].snippet)).toEqual([
      { text: 'Lunch', match: true },
      { text: ' at the station tomorrow?', match: false },
    ]);

    // every word must match, each as a prefix; one conversation; a limit
    expect(ids(store.search.search('lun sta', { limit: 10 }))).toEqual([older.id]);
    expect(ids(store.search.search('lunch', { conversationId: `direct:${PEER}`, limit: 10 }))).toEqual([
      mine.id,
      older.id,
    ]);
    expect(ids(store.search.search('lunch', { limit: 2 }))).toEqual([mine.id, newer.id]);
    expect(store.search.search('dinner', { limit: 10 })).toEqual([]);
    store.close();
  });

  it('keeps the index in step when a text changes and when messages are removed', () => {
    const { store, db } = openStore();
    const a = incoming('meet at the old harbour');
    const b = incoming('bring the harbour map', {
      author: STRANGER,
      conversationId: `direct:${STRANGER}`,
      peer: STRANGER,
      routed: 'request',
      isRequest: true,
    });
    store.applyIncoming([a, b], [], 1);
    // a stranger's pending request is not listed, so it is not a result either
    expect(ids(store.search.search('harbour', { limit: 10 }))).toEqual([a.id]);
    store.acceptRequest(STRANGER, 2);
    expect(ids(store.search.search('harbour', { limit: 10 }))).toEqual([b.id, a.id]);

    // an edit (whichever module writes it) reaches the index through the update trigger
    db.prepare('UPDATE messages SET text = ? WHERE id = ?').run('meet at the new marina', a.id);
    expect(ids(store.search.search('harbour', { limit: 10 }))).toEqual([b.id]);
    expect(ids(store.search.search('marina', { limit: 10 }))).toEqual([a.id]);
    // a change of another column leaves the index alone
    db.prepare(`UPDATE messages SET state = 'failed' WHERE id = ?`).run(a.id);
    expect(ids(store.search.search('marina', { limit: 10 }))).toEqual([a.id]);

    // a deleted or expired message leaves the index with its row
    db.prepare('DELETE FROM messages WHERE id = ?').run(a.id);
    expect(store.search.search('marina', { limit: 10 })).toEqual([]);
    // and a conversation's cascade takes its messages' words too
    store.declineRequest(STRANGER);
    expect(store.search.search('harbour', { limit: 10 })).toEqual([]);
    expect(
      db.prepare(`SELECT COUNT(*) AS n FROM messages_fts WHERE messages_fts MATCH 'harbour OR marina'`).get(),
    ).toEqual({ n: 0 });
    // the index agrees with its content table
    expect(() =>
      db.prepare(`INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)`).run(),
    ).not.toThrow();
    store.close();
  });

  it('indexes the messages stored before the search migration', () => {
    const file = join(tempDir('search-migrate'), 'client.db');
    const db = new Database(file);
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 7),
      'client',
    );
    db.prepare(
      `INSERT INTO conversations (id, kind, peer, updated_at) VALUES (?, 'direct', ?, '2026-01-01T00:00:00Z')`,
    ).run(`direct:${PEER}`, PEER);
    const insert = db.prepare(
      `INSERT INTO messages (id, conversation_id, author, from_me, kind, text, sent_at, state, shown) VALUES (?, ?, ?, 0, 'text', ?, ?, 'sent', 1)`,
    );
    insert.run('m-1', `direct:${PEER}`, PEER, 'the quarterly report is ready', '2026-01-01T00:01:00Z');
    insert.run('m-2', `direct:${PEER}`, PEER, 'report looks fine', '2026-01-01T00:02:00Z');
    insert.run('m-3', `direct:${PEER}`, PEER, 'nothing to see', '2026-01-01T00:03:00Z');
    db.close();

    const store = LocalStore.open(file);
    expect(ids(store.search.search('report', { limit: 10 }))).toEqual(['m-2', 'm-1']);
    expect(ids(store.search.search('quarter', { limit: 10 }))).toEqual(['m-1']);
    store.close();
  });

  it('searches whatever is typed as text: FTS5 syntax is not obeyed, punctuation alone finds nothing', () => {
    const { store } = openStore();
    const words = incoming('NOT this AND that OR near the café at 10:30 (really) "quoted" a*b col:value');
    const plain = incoming('something else entirely');
    store.applyIncoming([words, plain], [], 1);

    const hostile = [
      '"',
      '""',
      '"""',
      "'",
      '*',
      '**',
      '^',
      '-',
      '+',
      ':',
      '(',
      ')',
      '()',
      '{}',
      '[',
      'NEAR(',
      'NEAR(a b, 2)',
      'AND',
      'OR',
      'NOT',
      'a OR',
      'OR b',
      'NOT x',
      'text:foo',
      '{text}: foo',
      '^foo',
      'foo*bar',
      '"unterminated',
      'x" OR "y',
      '\\',
      '\u0000',
      '\u0002\u0003',
      '🙂',
      '!!!',
      '...',
      '  \t\n ',
      'ℵ',
      'x'.repeat(200),
      'a '.repeat(100),
      'rank',
      'messages_fts',
      "'; DROP TABLE messages; --",
    ];
    for (const q of hostile) expect(() => store.search.search(q, { limit: 10 }), q).not.toThrow();
    for (const q of ['!!!', '...', '"', '*', '()', '  \t\n ', '🙂', '-', '\\'])
      expect(store.search.search(q, { limit: 10 }), q).toEqual([]);

    // operators are words to look for, not instructions: "NOT this" would otherwise exclude the message
    expect(ids(store.search.search('NOT this', { limit: 10 }))).toEqual([words.id]);
    expect(ids(store.search.search('this OR nothing', { limit: 10 }))).toEqual([]);
    expect(ids(store.search.search('near(', { limit: 10 }))).toEqual([words.id]);
    expect(ids(store.search.search('"quoted', { limit: 10 }))).toEqual([words.id]);
    expect(ids(store.search.search('col:value', { limit: 10 }))).toEqual([words.id]);
    expect(ids(store.search.search('a*b', { limit: 10 }))).toEqual([words.id]);
    // accents are folded both ways; a one-letter word is matched whole, a longer one as a prefix
    expect(ids(store.search.search('cafe', { limit: 10 }))).toEqual([words.id]);
    expect(ids(store.search.search('CAFÉ', { limit: 10 }))).toEqual([words.id]);
    expect(ids(store.search.search('s', { limit: 10 }))).toEqual([]);
    expect(ids(store.search.search('so', { limit: 10 }))).toEqual([plain.id]);
    // the words are looked for in the text, not in the conversation's id that is indexed beside it
    expect(store.search.search('direct', { limit: 10 })).toEqual([]);
    expect(store.search.search(PEER.slice(0, 8), { limit: 10 })).toEqual([]);
    store.close();
  });

  it('orders by sentAt even when a match was stored long after newer ones (a late outbox, a slow device)', () => {
    const { store } = openStore();
    const at = (day: number) => new Date(Date.UTC(2026, 1, day)).toISOString();
    // stored first: one sent after everything below, one sent before it
    const lateNew = incoming('budget approved', { sentAt: at(28) });
    const lateOld = incoming('budget draft', { sentAt: at(1) });
    store.applyIncoming([lateNew, lateOld], [], 1);
    // then more matches than one storage-order window holds, all sent in between
    const many = Array.from({ length: 700 }, (_, i) =>
      incoming(`budget line ${i}`, { sentAt: new Date(Date.UTC(2026, 1, 2) + i * 60_000).toISOString() }),
    );
    for (let i = 0; i < many.length; i += 100) store.applyIncoming(many.slice(i, i + 100), [], 2);

    const hits = store.search.search('budget', { limit: 5 });
    expect(ids(hits)).toEqual([
      lateNew.id,
      ...many
        .slice(-4)
        .reverse()
        .map((m) => m.id),
    ]);
    expect(ids(store.search.search('budget', { conversationId: `direct:${PEER}`, limit: 2 }))).toEqual([
      lateNew.id,
      many.at(-1)!.id,
    ]);
    const all = store.search.search('budget', { limit: 200 });
    expect(all).toHaveLength(200);
    expect(all.map((h) => h.sentAt)).toEqual(
      all
        .map((h) => h.sentAt)
        .sort()
        .reverse(),
    );
    expect(ids(all)).not.toContain(lateOld.id);
    store.close();
  });

  it('reads the newest matches from the index without sorting every match, and the late ones by a time range', () => {
    const { db, store } = openStore();
    const recent = explain(db, MESSAGE_SEARCH_SQL.recent);
    expect(
      recent.filter((line) => line.includes('TEMP B-TREE')),
      recent.join('\n'),
    ).toEqual([]);
    expect(recent[0], recent.join('\n')).toMatch(/^SCAN messages_fts VIRTUAL TABLE/);
    const late = explain(db, MESSAGE_SEARCH_SQL.late);
    expect(
      late.some((line) => /SEARCH m USING (COVERING )?INDEX messages_sent \(sent_at>\?\)/.test(line)),
      late.join('\n'),
    ).toBe(true);
    const lateHere = explain(db, MESSAGE_SEARCH_SQL.lateInConversation);
    expect(
      lateHere.some((line) =>
        /SEARCH m USING (COVERING )?INDEX messages_conversation \(conversation_id=\? AND sent_at>\?\)/.test(line),
      ),
      lateHere.join('\n'),
    ).toBe(true);
    store.close();
  });

  it('builds FTS5 queries of quoted prefix terms', () => {
    expect(ftsQuery('hello world')).toBe('"hello"* "world"*');
    expect(ftsQuery('say "hi" NOT')).toBe('"say"* """hi"""* "NOT"*');
    expect(ftsQuery('a ?!')).toBe('"a"');
    expect(ftsQuery(' -- ** ')).toBeNull();
  });

  it('opens a conversation at a message: the older page before it, it, and everything newer', () => {
    const { store } = openStore();
    const list = Array.from({ length: 30 }, (_, i) => incoming(`message ${i}`));
    store.applyIncoming(list, [], 1);
    store.applyIncoming(
      [incoming('elsewhere', { author: OTHER, conversationId: `direct:${OTHER}`, peer: OTHER })],
      [],
      2,
    );
    const page = store.listMessagesAround(`direct:${PEER}`, list[10].id, 5)!;
    expect(page.map((m) => m.text)).toEqual(list.slice(5).map((m) => m.text));
    expect(store.listMessagesAround(`direct:${OTHER}`, list[10].id, 5)).toBeNull();
    expect(store.listMessagesAround(`direct:${PEER}`, 'no-such-id', 5)).toBeNull();
    store.close();
  });

  it('messages.list refuses before together with around, and an around not in the conversation', async () => {
    const m = await Messenger.open({ profileDir: tempDir('search-messenger'), shell: 'web', autoSync: false });
    try {
      m.store.applyIncoming([incoming('hello there')], [], 1);
      const [only] = m.messages.listMessages({ conversationId: `direct:${PEER}` });
      expect(m.messages.listMessages({ conversationId: `direct:${PEER}`, around: only.id }).map((x) => x.id)).toEqual([
        only.id,
      ]);
      expect(() =>
        m.messages.listMessages({ conversationId: `direct:${PEER}`, before: only.id, around: only.id }),
      ).toThrow(/before or around, not both/);
      expect(() => m.messages.listMessages({ conversationId: `direct:${OTHER}`, around: only.id })).toThrow(
        /no such message in this conversation/,
      );
      expect(m.messages.search({ query: 'hello' }).map((h) => h.messageId)).toEqual([only.id]);
    } finally {
      await m.close();
    }
  });
});
