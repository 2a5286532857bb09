/**
 * The client database's hot statements use an index, read against a profile with a long
 * history (the relay has the same kind of test for its store): opening a conversation and
 * paging back through it, the sync pass's lookups, sending by @handle. (The outbox's due list is
 * left to the planner: an outbox holds a handful of rows, mostly due, where reading it in queue
 * order beats an index on the due time.)
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explain } from '../../../sqlite/test/query-plan.js';
import { LOCAL_STORE_SQL } from '../local-store.js';
import { LocalStore } from '../local-store.js';
import { cleanup, tempDir } from '../../test/harness.js';

const CONVERSATIONS = 40;
const MESSAGES_EACH = 2_500;

let db: Database.Database;
beforeAll(() => {
  const file = join(tempDir('plans'), 'client.db');
  LocalStore.open(file).close(); // the schema as the migrations leave it
  db = new Database(file);
  const addr = (i: number) => '0x' + i.toString(16).padStart(40, '0');
  const contact = db.prepare(
    `INSERT INTO contacts (address, handle, verified, state, updated_ms) VALUES (?, ?, 0, 'known', 0)`,
  );
  const conversation = db.prepare(
    `INSERT INTO conversations (id, kind, peer, updated_at) VALUES (?, 'direct', ?, '2026-01-01T00:00:00Z')`,
  );
  const message =
    db.prepare(`INSERT INTO messages (id, conversation_id, author, from_me, kind, text, sent_at, state, shown)
    VALUES (?, ?, ?, 0, 'text', 'hello', ?, 'sent', 1)`);
  const outbox = db.prepare(
    `INSERT INTO outbox (message_id, conversation_id, payload, next_attempt_ms, queued_ms) VALUES (?, ?, '{}', ?, ?)`,
  );
  db.transaction(() => {
    for (let c = 0; c < CONVERSATIONS; c++) {
      contact.run(addr(c), `peer_${c}`);
      conversation.run(`direct:${addr(c)}`, addr(c));
      for (let m = 0; m < MESSAGES_EACH; m++) {
        const id = `m-${c}-${m}`;
        message.run(id, `direct:${addr(c)}`, addr(c), new Date(Date.UTC(2026, 0, 1) + m * 60_000).toISOString());
        if (m % 100 === 0) outbox.run(id, `direct:${addr(c)}`, m, m);
      }
    }
    for (let c = CONVERSATIONS; c < CONVERSATIONS + 2_000; c++)
      contact.run(addr(c), c % 2 === 0 ? `someone_${c}` : null);
  })();
  db.exec('ANALYZE');
}, 180_000); // a hundred thousand rows: minutes on a busy machine; the limit only catches a hang
afterAll(() => {
  db?.close();
  cleanup();
});

describe('client database: hot statements use an index', () => {
  const cases: Array<[keyof typeof LOCAL_STORE_SQL, RegExp]> = [
    ['listMessages', /SEARCH m USING INDEX messages_conversation \(conversation_id=\?\)/],
    ['listMessagesBefore', /SEARCH m USING INDEX messages_conversation \(conversation_id=\?/],
    ['getMessage', /SEARCH m USING INDEX sqlite_autoindex_messages_1 \(id=\?\)/],
    ['messageOrder', /SEARCH messages USING INDEX sqlite_autoindex_messages_1 \(id=\?\)/],
    ['unshown', /SCAN m USING INDEX messages_unshown/],
    ['getConversation', /SEARCH v USING PRIMARY KEY \(id=\?\)/],
    ['touchConversation', /SEARCH conversations USING PRIMARY KEY \(id=\?\)/],
    ['getContact', /SEARCH contacts USING PRIMARY KEY \(address=\?\)/],
    ['contactByHandle', /SEARCH contacts USING INDEX contacts_handle \(handle=\?\)/],
    ['certifiedDevices', /SEARCH certified_devices USING PRIMARY KEY \(address=\?\)/],
  ];

  for (const [name, expected] of cases) {
    it(name, () => {
      const plan = explain(db, LOCAL_STORE_SQL[name]);
      expect(
        plan.some((line) => expected.test(line)),
        plan.join('\n'),
      ).toBe(true);
      // a scan is allowed only of a partial index that holds just the rows asked for
      expect(
        plan.filter(
          (line) => /^SCAN (?!CONSTANT)/.test(line) && !/USING (COVERING )?INDEX messages_unshown/.test(line),
        ),
      ).toEqual([]);
    });
  }

  it('a conversation page comes in index order: no sort of the whole conversation', () => {
    for (const name of ['listMessages', 'listMessagesBefore'] as const) {
      expect(explain(db, LOCAL_STORE_SQL[name]).filter((line) => line.includes('TEMP B-TREE'))).toEqual([]);
    }
  });

  it('the conversation list joins its contact, group and last message by key', () => {
    const plan = explain(db, LOCAL_STORE_SQL.listConversations);
    expect(plan.filter((line) => /^SCAN (?!v\b)/.test(line))).toEqual([]); // only the list itself is read whole
    expect(
      plan.some((line) => /SEARCH m USING INTEGER PRIMARY KEY \(rowid=\?\)/.test(line)),
      plan.join('\n'),
    ).toBe(true);
  });
});
