import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommit } from '../group-commit.js';
import { StoreError } from '../../store.js';
import { addr, devKey, openTempStore, tempDir, type TempStore } from '../../test/temp-store.js';
import { direct, item } from '../../test/deliveries.js';

describe('group commit in the store', () => {
  let t: TempStore;
  beforeEach(() => {
    t = openTempStore();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const A = addr(0xa);

  it('commits 50 concurrent sends in far fewer than 50 transactions', async () => {
    const before = t.store.groupCommits;
    const outs = await Promise.all(
      Array.from({ length: 50 }, (_, i) => t.store.deliver(direct(addr(0x100 + i), [item(A, { nonce: `n${i}` })]))),
    );
    expect(outs.every(([o]) => o.routed === 'request' && o.envelope !== undefined)).toBe(true);
    expect(t.store.groupCommits - before).toBeLessThanOrEqual(2);
    expect(await t.store.pull(A, null, 500)).toHaveLength(50);
  });

  it('batches acks and key touches with sends', async () => {
    const [[first]] = await Promise.all([t.store.deliver(direct(addr(1), [item(A)]))]);
    await t.store.insertApiKey({
      id: 'k',
      address: A,
      label: null,
      prefix: 'p',
      deviceKey: null,
      createdAt: 1,
      lastUsedAt: null,
      revokedAt: null,
      hash: Buffer.from('h'),
    });
    const before = t.store.groupCommits;
    const [acked, , [second]] = await Promise.all([
      t.store.ack(A, null, [first.envelope!.id]),
      t.store.touchApiKey('k', 99),
      t.store.deliver(direct(addr(2), [item(A)])),
    ]);
    expect(t.store.groupCommits - before).toBe(1);
    expect(acked).toBe(1);
    expect((await t.store.listApiKeys(A))[0].lastUsedAt).toBe(99);
    expect((await t.store.pull(A, null, 10)).map((e) => e.id)).toEqual([second.envelope!.id]);
  });

  it('rolls back only the bad delivery of a shared flush; the good ones commit', async () => {
    await t.store.addDevice({ publicKey: devKey(1), address: A, certificate: '0x00', now: 1 });
    const before = t.store.groupCommits;
    const sends = Array.from({ length: 9 }, (_, i) =>
      i === 4
        ? // its first item is fine; the second names a device A does not have
          t.store.deliver(
            direct(addr(0x200), [
              item(A, { nonce: 'bad-1' }),
              item(A, { nonce: 'bad-2', recipientDeviceKey: devKey(2) }),
            ]),
          )
        : t.store.deliver(direct(addr(0x300 + i), [item(A, { nonce: `good-${i}`, recipientDeviceKey: devKey(1) })])),
    );
    const settled = await Promise.allSettled(sends);
    expect(t.store.groupCommits - before).toBe(1);
    const bad = settled[4];
    expect(bad.status).toBe('rejected');
    expect((bad as PromiseRejectedResult).reason).toBeInstanceOf(StoreError);
    expect((bad as PromiseRejectedResult).reason).toMatchObject({ code: 'device-key-mismatch', index: 1 });
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(8);
    const nonces = (await t.store.pull(A, devKey(1), 100)).map((e) => e.nonce);
    expect(nonces).toEqual([0, 1, 2, 3, 5, 6, 7, 8].map((i) => `good-${i}`));
    // the refused sender did not become "known" to A either
    expect((await t.store.deliver(direct(A, [item(addr(0x200))])))[0].routed).toBe('request');
  });

  it('answers only after the commit: another connection already sees the rows', async () => {
    const other = t.raw();
    const count = other.prepare('SELECT count(*) FROM envelopes WHERE recipient = ?').pluck();
    const seen = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        t.store.deliver(direct(addr(0x400 + i), [item(A)])).then(() => count.get(A) as number),
      ),
    );
    expect(Math.min(...seen)).toBe(5);
  });

  it('waits for queued writes on close and refuses new ones after', async () => {
    const pending = t.store.deliver(direct(addr(1), [item(A)]));
    const closing = t.store.close();
    const late = t.store.deliver(direct(addr(2), [item(A)]));
    await expect(late).rejects.toThrow(/closed/);
    const [out] = await pending;
    await closing;
    const raw = t.raw();
    expect(raw.prepare('SELECT id FROM envelopes').pluck().all()).toEqual([out.envelope!.id]);
  });
});

describe('GroupCommit', () => {
  let db: Database.Database;
  let cleanup: () => void;
  beforeEach(() => {
    const dir = tempDir();
    cleanup = dir.cleanup;
    db = new Database(join(dir.dir, 'gc.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
             CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);
             CREATE TABLE log (v TEXT)`);
  });
  afterEach(() => {
    db.close();
    cleanup();
  });

  it('rejects every operation of a flush whose commit fails, and keeps none of them', async () => {
    const gc = new GroupCommit(db);
    const insertLog = db.prepare('INSERT INTO log (v) VALUES (?)');
    // the deferred foreign key is only checked at COMMIT, so the savepoint succeeds and the commit fails
    const results = await Promise.allSettled([
      gc.run(() => insertLog.run('a').changes),
      gc.run(() => db.prepare('INSERT INTO child (id, parent) VALUES (1, 42)').run().changes),
      gc.run(() => insertLog.run('b').changes),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
    expect(db.prepare('SELECT count(*) FROM log').pluck().get()).toBe(0);
    expect(db.inTransaction).toBe(false);
    expect(gc.commits).toBe(0);
    // the batcher keeps working afterwards
    await expect(gc.run(() => insertLog.run('c').changes)).resolves.toBe(1);
    expect(gc.commits).toBe(1);
  });

  it('caps a flush and carries the rest to the next one, in order', async () => {
    const gc = new GroupCommit(db, 4);
    const insertLog = db.prepare('INSERT INTO log (v) VALUES (?)');
    await Promise.all(Array.from({ length: 10 }, (_, i) => gc.run(() => insertLog.run(String(i)))));
    expect(gc.commits).toBe(3);
    expect(gc.operations).toBe(10);
    expect(db.prepare('SELECT v FROM log ORDER BY rowid').pluck().all()).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
    ]);
  });

  it('undoes every write of an operation that throws, alone', async () => {
    const gc = new GroupCommit(db);
    const insertLog = db.prepare('INSERT INTO log (v) VALUES (?)');
    const results = await Promise.allSettled([
      gc.run(() => insertLog.run('kept-1')),
      gc.run(() => {
        insertLog.run('undone');
        throw new Error('boom');
      }),
      gc.run(() => insertLog.run('kept-2')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(gc.commits).toBe(1);
    expect(db.prepare('SELECT v FROM log ORDER BY rowid').pluck().all()).toEqual(['kept-1', 'kept-2']);
  });
});
