import { copyFileSync, existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../sqlite-store.js';
import { addr, openTempStore, tempDir } from '../../test/temp-store.js';
import { direct, item } from '../../test/deliveries.js';
import { join } from 'node:path';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const walSize = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

async function fill(store: { deliver: ReturnType<typeof openSqliteStore>['deliver'] }) {
  await Promise.all(Array.from({ length: 100 }, (_, i) => store.deliver(direct(addr(i + 1), [item(addr(0xb))]))));
}

describe('checkpoints', () => {
  it('TRUNCATE empties the WAL, and gives up at once instead of waiting for a reader', async () => {
    const t = openTempStore();
    cleanups.push(() => t.cleanup());
    await fill(t.store);
    expect(walSize(t.file)).toBeGreaterThan(0);

    const reader = t.raw();
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM envelopes').get();
    await t.store.deliver(direct(addr(1), [item(addr(0xb))])); // a frame the reader's snapshot does not have
    expect(t.store.checkpoint('TRUNCATE').busy).toBe(1);
    reader.exec('COMMIT');

    expect(t.store.checkpoint('TRUNCATE')).toEqual({ busy: 0, log: 0, checkpointed: 0 });
    expect(walSize(t.file)).toBe(0);
    expect(await t.store.pull(addr(0xb), null, 500)).toHaveLength(101);
  });

  it('once sends pause, the idle timer checkpoints the whole WAL and keeps its file: the next commit overwrites it from the start', async () => {
    const { dir, cleanup } = tempDir();
    const file = join(dir, 'relay.db');
    const store = openSqliteStore(file, { checkpointIntervalMs: 20 });
    cleanups.push(cleanup, () => store.close());
    await fill(store);
    // commits one after another: a WAL of many commits, larger than the one below writes
    for (let i = 0; i < 20; i++) await store.deliver(direct(addr(1), [item(addr(0xb))]));
    await vi.waitFor(() => expect(store.idleCheckpoints).toBeGreaterThan(0), { timeout: 10_000, interval: 20 });
    const size = walSize(file);
    expect(size).toBeGreaterThan(0);
    // the database file alone (as a copy of it alone would be) holds every envelope
    const alone = join(dir, 'alone.db');
    copyFileSync(file, alone);
    const db = new Database(alone, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM envelopes').pluck().get()).toBe(120);
    db.close();
    await store.deliver(direct(addr(1), [item(addr(0xb))]));
    // neither grown (appended to) nor emptied (truncated): written over from its start
    expect(walSize(file)).toBe(size);
  });

  it('a WAL file larger than it keeps is truncated once sends pause', async () => {
    const { dir, cleanup } = tempDir();
    const file = join(dir, 'relay.db');
    const store = openSqliteStore(file, { checkpointIntervalMs: 20, keepWalBytes: 1 });
    cleanups.push(cleanup, () => store.close());
    await fill(store);
    expect(walSize(file)).toBeGreaterThan(1);
    await vi.waitFor(() => expect(walSize(file)).toBe(0), { timeout: 10_000, interval: 20 });
  });

  it('close waits for queued writes, checkpoints, and leaves no WAL behind', async () => {
    const { dir, cleanup } = tempDir();
    const file = join(dir, 'relay.db');
    const store = openSqliteStore(file, { checkpointIntervalMs: 0 });
    cleanups.push(cleanup);
    const queued = store.deliver(direct(addr(1), [item(addr(0xb))]));
    await store.close();
    await expect(queued).resolves.toHaveLength(1);
    expect(existsSync(`${file}-wal`)).toBe(false);
    const again = openSqliteStore(file, { checkpointIntervalMs: 0 });
    expect(await again.pull(addr(0xb), null, 10)).toHaveLength(1);
    await again.close();
  });
});
