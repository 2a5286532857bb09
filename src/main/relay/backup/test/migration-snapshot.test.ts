/**
 * Before migrations change an existing relay database, a copy of it as it was is taken beside
 * it and reported with both versions (the relay logs it); a new database is not copied.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MigrationSnapshot } from '../../../sqlite/migration-snapshot.js';
import { latestVersion } from '../../../sqlite/migrations.js';
import { openDatabase } from '../../../sqlite/open-database.js';
import { MIGRATIONS } from '../../store/sqlite/sqlite-migrations.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const newFile = () => {
  const d = mkdtempSync(join(tmpdir(), 'migration-snapshot-'));
  dirs.push(d);
  return join(d, 'relay.db');
};

const versionOf = (file: string): number => {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
};

describe('a snapshot before migrating', () => {
  it('copies a database of the previous version beside itself, reports both versions, then migrates', async () => {
    const file = newFile();
    const older = latestVersion(MIGRATIONS) - 1;
    openDatabase(file, { migrations: MIGRATIONS.slice(0, older), owner: 'relay' }).close();
    expect(versionOf(file)).toBe(older);

    const seen: MigrationSnapshot[] = [];
    await openSqliteStore(file, { checkpointIntervalMs: 0, snapshotBeforeMigrating: (s) => seen.push(s) }).close();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ from: older, to: latestVersion(MIGRATIONS) });
    expect(dirname(seen[0].path)).toBe(dirname(file));
    expect(seen[0].bytes).toBeGreaterThan(0);
    // the copy is the database as the old version left it; the file itself moved on
    expect(versionOf(seen[0].path)).toBe(older);
    expect(versionOf(file)).toBe(latestVersion(MIGRATIONS));

    // up to date now: the next opening copies nothing
    await openSqliteStore(file, { checkpointIntervalMs: 0, snapshotBeforeMigrating: (s) => seen.push(s) }).close();
    expect(seen).toHaveLength(1);
    expect(readdirSync(dirname(file)).filter((f) => f.endsWith('.snapshot'))).toHaveLength(1);
  });

  it('does not copy a new, empty database', async () => {
    const file = newFile();
    const seen: MigrationSnapshot[] = [];
    await openSqliteStore(file, { checkpointIntervalMs: 0, snapshotBeforeMigrating: (s) => seen.push(s) }).close();
    expect(seen).toEqual([]);
    expect(readdirSync(dirname(file)).filter((f) => f.endsWith('.snapshot'))).toEqual([]);
  });

  it('is taken by default, also when an admin command is the first to open an older database', async () => {
    const file = newFile();
    openDatabase(file, { migrations: MIGRATIONS.slice(0, 1), owner: 'relay' }).close();
    await openSqliteStore(file, { checkpointIntervalMs: 0 }).close();
    const copies = readdirSync(dirname(file)).filter((f) => f.endsWith('.snapshot'));
    expect(copies).toEqual([expect.stringMatching(/^relay\.db\.v1-before-v\d+\..+\.snapshot$/)]);
  });
});
