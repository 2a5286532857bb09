import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../../sqlite/migrations.js';
import { openPg } from '../../postgres/pg-client.js';
import { migratePg, PG_MIGRATIONS } from '../../postgres/pg-migrations.js';
import { MIGRATIONS } from '../../sqlite/sqlite-migrations.js';
import { openSqliteStore } from '../../sqlite/sqlite-store.js';
import { destroySharedCluster, sharedCluster } from '../backends.js';
import { pgMissing } from '../../../../test-support/pg-cluster.js';
import { addr, tempDir } from '../temp-store.js';

/**
 * Migration 6 of both schemas on a database that already holds a queue: the request share of
 * queue_usage and the invitations in pending_requests are filled from what is there, and the
 * triggers keep them from then on (docs/protocol.md, Limits).
 */
const S = addr(0x5);
const R = addr(0x7);
const G = '00000000-0000-4000-8000-000000000001';
// 24 bytes decoded
const CIPHERTEXT = 'q83vASNFZ4mrze8BI0VniavN7wEjRWeJ';
const envelope = (n: number, routed: 'inbox' | 'request') => [
  `00000000-0000-7000-8000-00000000000${n}`,
  S,
  R,
  null,
  CIPHERTEXT,
  'ab',
  'AAECAwQFBgcICQoL',
  n,
  routed,
];
const BEFORE = [
  `INSERT INTO chat_groups (id, name, is_public, creator_address, created_at) VALUES ('${G}', 'g', false, '${S}', 1)`,
  `INSERT INTO group_invitations (group_id, address, invited_by, invited_at) VALUES ('${G}', '${R}', '${S}', 1)`,
];
const INSERT_ENVELOPE =
  'INSERT INTO envelopes (id, sender, recipient, device_key, ciphertext, ephemeral_public_key, nonce, created_at, routed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)';
const USAGE = `SELECT envelopes, bytes, requests, request_bytes AS "requestBytes" FROM queue_usage WHERE recipient = '${R}'`;
const PENDING = `SELECT envelopes FROM pending_requests WHERE sender = '${S}' AND recipient = '${R}'`;

describe('migration 6 fills the new counters from the queue there is', () => {
  afterAll(destroySharedCluster);

  it('sqlite', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = join(dir, 'relay.db');
      const old = new Database(file);
      migrate(old, MIGRATIONS.slice(0, 5), 'relay');
      for (const s of BEFORE) old.exec(s.replace('false', '0'));
      for (const [n, routed] of [
        [1, 'request'],
        [2, 'request'],
        [3, 'inbox'],
      ] as const)
        old.prepare(INSERT_ENVELOPE).run(...envelope(n, routed));
      old.close();
      const store = openSqliteStore(file, { checkpointIntervalMs: 0 });
      await store.close();
      const db = new Database(file);
      try {
        expect(db.prepare(USAGE).get()).toEqual({ envelopes: 3, bytes: 72, requests: 2, requestBytes: 48 });
        expect(db.prepare(PENDING).pluck().get()).toBe(3);
        db.prepare(`DELETE FROM envelopes WHERE routed = 'request' AND created_at = 1`).run();
        db.prepare(`DELETE FROM group_invitations`).run();
        expect(db.prepare(USAGE).get()).toEqual({ envelopes: 2, bytes: 48, requests: 1, requestBytes: 24 });
        expect(db.prepare(PENDING).pluck().get()).toBe(1);
      } finally {
        db.close();
      }
    } finally {
      cleanup();
    }
  });

  it.skipIf(pgMissing() !== null)('postgres', async () => {
    const sql = openPg(await sharedCluster().createDatabase(), { max: 1 });
    try {
      await migratePg(sql, PG_MIGRATIONS.slice(0, 5));
      for (const s of BEFORE) await sql.unsafe(s);
      let n = 0;
      const insert = INSERT_ENVELOPE.replace(/\?/g, () => `$${++n}`);
      for (const [i, routed] of [
        [1, 'request'],
        [2, 'request'],
        [3, 'inbox'],
      ] as const)
        await sql.unsafe(insert, envelope(i, routed) as never[]);
      await migratePg(sql);
      expect([...(await sql.unsafe(USAGE))]).toEqual([{ envelopes: 3, bytes: 72, requests: 2, requestBytes: 48 }]);
      expect([...(await sql.unsafe(PENDING))]).toEqual([{ envelopes: 3 }]);
      await sql.unsafe(`DELETE FROM envelopes WHERE routed = 'request' AND created_at = 1`);
      await sql.unsafe(`DELETE FROM group_invitations`);
      expect([...(await sql.unsafe(USAGE))]).toEqual([{ envelopes: 2, bytes: 48, requests: 1, requestBytes: 24 }]);
      expect([...(await sql.unsafe(PENDING))]).toEqual([{ envelopes: 1 }]);
    } finally {
      await sql.end();
    }
  });
});
