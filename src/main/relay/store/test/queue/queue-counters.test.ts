import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../../sqlite/migrations.js';
import { MIGRATIONS } from '../../sqlite/sqlite-migrations.js';
import { openSqliteStore } from '../../sqlite/sqlite-store.js';
import type { QueueLimits } from '../../store.js';
import { direct, item } from '../deliveries.js';
import { STORE_BACKENDS, useTestStore } from '../backends.js';
import { addr, devKey, tempDir } from '../temp-store.js';

/**
 * queue_usage and pending_requests hold exactly what the queued rows and pending invitations
 * say, however the rows came and went: deliveries write the counters once per recipient device
 * (SQLite since migration 7, without per-row insert triggers), acks, the sweep and a revoked
 * device take rows off. The quotas of docs/protocol.md (Limits) are checked against them.
 */

/** Decoded bytes as the counters count them, in SQL both backends speak. */
const SIZE = `length(ciphertext) / 4 * 3 - CASE WHEN ciphertext LIKE '%==' THEN 2 WHEN ciphertext LIKE '%=' THEN 1 ELSE 0 END`;
const FROM_ROWS = `SELECT recipient, coalesce(device_key, '') AS device, CAST(count(*) AS integer) AS envelopes, CAST(sum(size) AS integer) AS bytes,
    CAST(sum(CASE WHEN routed = 'request' THEN 1 ELSE 0 END) AS integer) AS requests,
    CAST(sum(CASE WHEN routed = 'request' THEN size ELSE 0 END) AS integer) AS "requestBytes"
  FROM (SELECT recipient, device_key, routed, ${SIZE} AS size FROM envelopes) e GROUP BY recipient, coalesce(device_key, '') ORDER BY 1, 2`;
const COUNTERS = `SELECT recipient, device_key AS device, envelopes, bytes, requests, request_bytes AS "requestBytes" FROM queue_usage ORDER BY 1, 2`;
const PENDING_FROM_ROWS = `SELECT sender, recipient, CAST(count(*) AS integer) AS envelopes FROM (
    SELECT sender, recipient FROM envelopes WHERE routed = 'request' UNION ALL SELECT invited_by, address FROM group_invitations) x
  GROUP BY sender, recipient ORDER BY 1, 2`;
const PENDING = `SELECT sender, recipient, envelopes FROM pending_requests ORDER BY 1, 2`;

const ME = addr(0xa);
const FRIEND = addr(0xf);
const OTHER = addr(0xb);
const stranger = (n: number) => addr(0x100 + n);
const G = '00000000-0000-4000-8000-000000000001';
const roomy: QueueLimits = { maxQueued: 1000, maxQueuedBytes: 1_000_000, maxRequestsPerPair: 100 };
/** Text a store's caller may pass that is not canonical base64: SQL counts its characters, not JS's UTF-16 units. */
const ODD_TEXT = 'q83vASNF\u{1F600}Z4mrz\u{1F600}e8B=';

describe.each(STORE_BACKENDS)('$name queue counters', (backend) => {
  const t = useTestStore(backend);

  async function expectExact(): Promise<void> {
    expect(await t.rows(COUNTERS)).toEqual(await t.rows(FROM_ROWS));
    expect(await t.rows(PENDING)).toEqual(await t.rows(PENDING_FROM_ROWS));
  }

  it('match the queued rows through batches, refusals, acks, a revoked device and the sweep', async () => {
    await t.store.addDevice({ publicKey: devKey(1), address: ME, certificate: '0x00', now: 1 });
    await t.store.addDevice({ publicKey: devKey(2), address: ME, certificate: '0x00', now: 1 });
    await t.store.setContact(ME, FRIEND, 'allow', 'allow');
    await t.store.setContact(OTHER, FRIEND, 'allow', 'allow');
    // one batch over two devices, no device, another recipient, and text that is not base64
    const mixed = [
      item(ME, { recipientDeviceKey: devKey(1) }),
      item(ME, { recipientDeviceKey: devKey(2), ciphertext: ODD_TEXT }),
      item(ME),
      item(OTHER, { ciphertext: 'AAAA=' }),
      item(ME, { recipientDeviceKey: devKey(1), asRequest: true }),
      item(ME, { recipientDeviceKey: devKey(2), ciphertext: 'q83vASNFZ4mrze8BI0VniavN7w==' }),
    ];
    expect((await t.store.deliver({ ...direct(FRIEND, mixed, 10), limits: roomy })).map((o) => o.routed)).toEqual([
      'inbox',
      'inbox',
      'inbox',
      'inbox',
      'request',
      'inbox',
    ]);
    // strangers' requests, several deliveries sharing one commit, one of them refused whole
    const tight: QueueLimits = { maxQueued: 1000, maxQueuedBytes: 1_000_000, maxRequestsPerPair: 2 };
    const sends = await Promise.allSettled([
      t.store.deliver({
        ...direct(stranger(1), [item(ME, { recipientDeviceKey: devKey(1) }), item(ME)], 20),
        limits: tight,
      }),
      t.store.deliver({
        ...direct(stranger(2), [item(ME, { recipientDeviceKey: devKey(2) }), item(ME), item(ME)], 20),
        limits: tight,
      }),
      t.store.deliver(direct(stranger(3), [item(ME, { recipientDeviceKey: devKey(1) })], 5_000)),
    ]);
    expect(sends.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await expectExact();

    await t.store.createGroup({
      id: G,
      name: 'g',
      isPublic: false,
      passwordHash: null,
      avatar: null,
      creatorAddress: FRIEND,
      now: 1,
    });
    await t.store.addMember(G, ME, 1);
    await t.store.addMember(G, OTHER, 1);
    await t.store.deliver({
      senderAddress: FRIEND,
      groupId: G,
      via: null,
      items: [item(ME, { recipientDeviceKey: devKey(2) }), item(OTHER), item(ME)],
      now: 30,
      limits: roomy,
    });
    await expectExact();

    const page = await t.store.pull(ME, devKey(1), 3);
    expect(
      await t.store.ack(
        ME,
        devKey(1),
        page.map((e) => e.id),
      ),
    ).toBe(3);
    await expectExact();
    expect(await t.store.revokeDevice(ME, devKey(2), 40)).toBe(true);
    await expectExact();
    expect(await t.store.sweep(1_000)).toBeGreaterThan(0);
    await expectExact();
    expect(await t.rows(COUNTERS)).not.toEqual([]);
  });

  it("refuse past the quota exactly, counting the delivery's own envelopes and the earlier ones of its commit", async () => {
    await t.store.addDevice({ publicKey: devKey(1), address: ME, certificate: '0x00', now: 1 });
    await t.store.setContact(ME, FRIEND, 'allow', 'allow');
    // 24 decoded bytes each (deliveries.ts): 5 envelopes or 120 bytes on the device
    const limits: QueueLimits = { maxQueued: 5, maxQueuedBytes: 120, maxRequestsPerPair: 100 };
    const batch = (n: number) => ({
      ...direct(
        FRIEND,
        Array.from({ length: n }, () => item(ME, { recipientDeviceKey: devKey(1) })),
      ),
      limits,
    });
    const [first, second, third] = await Promise.allSettled([
      t.store.deliver(batch(2)),
      t.store.deliver(batch(4)),
      t.store.deliver(batch(3)),
    ]);
    expect([first.status, second.status, third.status]).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await t.store.pull(ME, devKey(1), 100)).toHaveLength(5);
    await expect(t.store.deliver(batch(1))).rejects.toMatchObject({ code: 'recipient-full', index: 0 });
    await expectExact();
  });
});

describe('migration 7 (counters written by the delivery, not by insert triggers)', () => {
  const INSERT_ENVELOPE = `INSERT INTO envelopes (id, sender, recipient, device_key, ciphertext, ephemeral_public_key, nonce, created_at, routed)
    VALUES (?, ?, ?, ?, 'q83vASNFZ4mrze8BI0VniavN7wEjRWeJ', 'ab', 'AAECAwQFBgcICQoL', ?, ?)`;

  it('keeps the counts of a queue that triggers counted, and counts what comes after exactly', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = join(dir, 'relay.db');
      const old = new Database(file);
      migrate(old, MIGRATIONS.slice(0, 6), 'relay');
      const insert = old.prepare(INSERT_ENVELOPE);
      for (let n = 0; n < 6; n++)
        insert.run(
          `old-${n}`,
          n < 4 ? stranger(1) : FRIEND,
          ME,
          n % 2 === 0 ? devKey(1) : null,
          n,
          n < 4 ? 'request' : 'inbox',
        );
      old.close();

      const store = openSqliteStore(file, { checkpointIntervalMs: 0 });
      const db = new Database(file);
      try {
        const triggers = db
          .prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'envelopes' ORDER BY name`)
          .pluck()
          .all();
        expect(triggers).toEqual(['envelopes_requests_delete', 'envelopes_usage_delete']);
        const exact = () => {
          expect(db.prepare(COUNTERS).all()).toEqual(db.prepare(FROM_ROWS).all());
          expect(db.prepare(PENDING).all()).toEqual(db.prepare(PENDING_FROM_ROWS).all());
        };
        exact();
        expect(db.prepare(`SELECT envelopes FROM pending_requests WHERE sender = ?`).pluck().get(stranger(1))).toBe(4);
        // the old rows count against the per-pair cap: a fifth pending request is refused
        const limits: QueueLimits = { maxQueued: 100, maxQueuedBytes: 100_000, maxRequestsPerPair: 5 };
        await store.deliver({ ...direct(stranger(1), [item(ME)], 10), limits });
        await expect(store.deliver({ ...direct(stranger(1), [item(ME)], 10), limits })).rejects.toMatchObject({
          code: 'too-many-requests-pending',
        });
        await store.deliver({ ...direct(FRIEND, [item(ME), item(ME, { ciphertext: ODD_TEXT })], 10), limits });
        exact();
        expect(await store.ack(ME, devKey(1), ['old-0', 'old-1', 'old-5'])).toBe(3);
        exact();
      } finally {
        db.close();
        await store.close();
      }
    } finally {
      cleanup();
    }
  });
});
