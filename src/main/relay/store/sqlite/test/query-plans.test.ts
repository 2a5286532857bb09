import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENVELOPE_SQL } from '../sqlite-envelopes.js';
import { CREDENTIAL_SQL } from '../sqlite-credentials.js';
import { BOT_TOKEN_BY_HASH_SQL } from '../sqlite-groups.js';
import { explain, fullScans } from '../../../../sqlite/test/query-plan.js';
import { addr, devKey, openTempStore, type TempStore } from '../../test/temp-store.js';

const OTHER_ROWS = 120_000;

let t: TempStore;
let db: Database.Database;
beforeAll(async () => {
  t = openTempStore();
  db = t.raw();
  // A realistic crowd: many recipients with queued envelopes, most for some device.
  const insert = db.prepare(
    `INSERT INTO envelopes (id, sender, recipient, device_key, ciphertext, ephemeral_public_key, nonce, created_at, routed)
     VALUES (?, ?, ?, ?, 'c', 'k', 'n', ?, 'inbox')`,
  );
  db.transaction(() => {
    for (let i = 0; i < OTHER_ROWS; i++)
      insert.run(`row-${i}`, addr(1), addr(1000 + (i % 5000)), i % 3 === 0 ? null : devKey(i % 7), i);
  })();
  db.exec('ANALYZE');
});
afterAll(async () => {
  await t.cleanup();
});

describe('hot queries use an index', () => {
  const cases: Array<[string, string, RegExp]> = [
    [
      'pull with an unbound key',
      ENVELOPE_SQL.pullAll,
      /SEARCH envelopes USING (COVERING )?INDEX envelopes_inbox \(recipient=\?\)/,
    ],
    [
      'pull with a device-bound key',
      ENVELOPE_SQL.pullDevice,
      /SEARCH envelopes USING (COVERING )?INDEX envelopes_inbox \(recipient=\?\)/,
    ],
    [
      'wire pull with an unbound key',
      ENVELOPE_SQL.pullAllJson,
      /SEARCH envelopes USING (COVERING )?INDEX envelopes_inbox \(recipient=\?\)/,
    ],
    [
      'wire pull with a device-bound key',
      ENVELOPE_SQL.pullDeviceJson,
      /SEARCH envelopes USING (COVERING )?INDEX envelopes_inbox \(recipient=\?\)/,
    ],
    [
      'ack with an unbound key',
      ENVELOPE_SQL.ackAll,
      /SEARCH envelopes USING INDEX sqlite_autoindex_envelopes_1 \(id=\?\)/,
    ],
    [
      'ack with a device-bound key',
      ENVELOPE_SQL.ackDevice,
      /SEARCH envelopes USING INDEX sqlite_autoindex_envelopes_1 \(id=\?\)/,
    ],
    ['sweep', ENVELOPE_SQL.sweep, /SEARCH envelopes USING COVERING INDEX envelopes_age \(created_at<\?\)/],
    ['API key by hash', CREDENTIAL_SQL.apiKeyByHash, /SEARCH api_keys USING INDEX \w+ \(hash=\?\)/],
    ['touch API key', CREDENTIAL_SQL.touchApiKey, /SEARCH api_keys USING INDEX \w+ \(id=\?\)/],
    ['bot token by hash', BOT_TOKEN_BY_HASH_SQL, /SEARCH bot_tokens USING INDEX \w+ \(hash=\?\)/],
    ['routing facts', ENVELOPE_SQL.facts, /SEARCH sent_before USING PRIMARY KEY \(sender=\? AND recipient=\?\)/],
    [
      'group block fact',
      ENVELOPE_SQL.blocked,
      /SEARCH contacts USING PRIMARY KEY \(owner=\? AND kind=\? AND other=\?\)/,
    ],
    ['recipient device check', ENVELOPE_SQL.currentDevice, /SEARCH devices USING INDEX \w+ \(public_key=\?\)/],
    [
      'group member check',
      ENVELOPE_SQL.isMember,
      /SEARCH group_members USING PRIMARY KEY \(group_id=\? AND address=\?\)/,
    ],
  ];

  for (const [name, sql, expected] of cases) {
    it(name, () => {
      const plan = explain(db, sql);
      expect(
        plan.some((line) => expected.test(line)),
        plan.join('\n'),
      ).toBe(true);
      expect(fullScans(plan)).toEqual([]);
      expect(plan.filter((line) => line.includes('TEMP B-TREE'))).toEqual([]);
    });
  }

  it('routing facts read every fact by key', () => {
    const plan = explain(db, ENVELOPE_SQL.facts);
    const searches = plan.filter((line) => line.startsWith('SEARCH'));
    expect(searches).toHaveLength(5);
    expect(
      searches.filter((l) => l.startsWith('SEARCH contacts USING PRIMARY KEY (owner=? AND kind=? AND other=?)')),
    ).toHaveLength(2);
    expect(searches.filter((l) => /^SEARCH accounts USING INDEX \w+ \(address=\?\)/.test(l))).toHaveLength(2);
  });

  it('pulls the right rows out of the crowd', async () => {
    const B = addr(1000 + 42);
    const bound = await t.store.pull(B, devKey(42 % 7), 500);
    expect(bound.length).toBeGreaterThan(0);
    expect(
      bound.every(
        (e) => e.recipientAddress === B && (e.recipientDeviceKey === null || e.recipientDeviceKey === devKey(42 % 7)),
      ),
    ).toBe(true);
    // a key bound to no device: only the recipient's unbound rows (every third row of the crowd)
    const unbound = await t.store.pull(B, null, 500);
    const rowsOfB = Array.from({ length: OTHER_ROWS / 5000 }, (_, k) => 42 + 5000 * k);
    expect(unbound.map((e) => e.id)).toEqual(rowsOfB.filter((i) => i % 3 === 0).map((i) => `row-${i}`));
    expect(unbound.every((e) => e.recipientDeviceKey === null)).toBe(true);
  });
});
