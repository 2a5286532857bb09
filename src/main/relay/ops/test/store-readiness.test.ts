/**
 * What the probes, the metrics and the log ask of a store, on both backends: readiness (the
 * database answers and holds this code's schema), the bytes of the database and of its blobs,
 * and the schema versions an open found and left.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STORE_BACKENDS, useTestStore } from '../../store/test/backends.js';
import { addr, tempDir } from '../../store/test/temp-store.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { LATEST_VERSION } from '../../store/sqlite/sqlite-migrations.js';
import { PG_MIGRATIONS } from '../../store/postgres/pg-migrations.js';

describe.each(STORE_BACKENDS)('$name store', (backend) => {
  const t = useTestStore(backend);

  it('is ready on its own schema, and not-migrated when the database holds an older one', async () => {
    expect(await t.store.readiness()).toBe('ready');
    const setVersion = (v: number) =>
      backend.name === 'sqlite'
        ? t.rows(`PRAGMA user_version = ${v}`)
        : t.rows('UPDATE relay_schema SET version = ?', v);
    const latest = backend.name === 'sqlite' ? LATEST_VERSION : PG_MIGRATIONS.length;
    await setVersion(1);
    try {
      expect(await t.store.readiness()).toBe('not-migrated');
      expect(await t.store.healthy()).toBe(true);
    } finally {
      // the file's PostgreSQL database is emptied and used again by the next test, schema and all
      await setVersion(latest);
    }
    expect(await t.store.readiness()).toBe('ready');
  });

  it('counts the bytes of the database and of the blobs it lists', async () => {
    const empty = await t.store.storageBytes();
    expect(empty.blobs).toBe(0);
    expect(empty.database).toBeGreaterThan(0);
    const now = Date.now();
    await t.store.insertBlob(
      { id: 'a'.repeat(22), uploader: addr(1), size: 1000, createdAt: now, expiresAt: now + 1 },
      1e9,
    );
    await t.store.insertBlob(
      { id: 'b'.repeat(22), uploader: addr(2), size: 234, createdAt: now, expiresAt: now - 1 },
      1e9,
    );
    expect((await t.store.storageBytes()).blobs).toBe(1234);
  });
});

describe('opening a SQLite store', () => {
  it('tells the schema version it found and the one it left', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = join(dir, 'relay.db');
      const steps: Array<{ from: number; to: number }> = [];
      await openSqliteStore(file, { checkpointIntervalMs: 0, onMigrated: (s) => steps.push(s) }).close();
      await openSqliteStore(file, { checkpointIntervalMs: 0, onMigrated: (s) => steps.push(s) }).close();
      expect(steps).toEqual([
        { from: 0, to: LATEST_VERSION },
        { from: LATEST_VERSION, to: LATEST_VERSION },
      ]);
    } finally {
      cleanup();
    }
  });
});
