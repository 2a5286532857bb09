import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../sqlite-store.js';
import { SchemaTooNewError, migrate as migrateWith, type Migration } from '../../../../sqlite/migrations.js';
import { LATEST_VERSION, MIGRATIONS } from '../sqlite-migrations.js';

const migrate = (db: Parameters<typeof migrateWith>[0], migrations: readonly Migration[] = MIGRATIONS) =>
  migrateWith(db, migrations, 'relay');
import { tempDir } from '../../test/temp-store.js';

const dirs: Array<() => void> = [];
function freshFile(): string {
  const { dir, cleanup } = tempDir();
  dirs.push(cleanup);
  return join(dir, 'relay.db');
}
afterEach(() => {
  for (const c of dirs.splice(0)) c();
});

describe('migrations', () => {
  it('brings a fresh database to the latest version with WAL, FULL sync, foreign keys and a busy timeout', async () => {
    const file = freshFile();
    const store = openSqliteStore(file, { checkpointIntervalMs: 0 });
    expect(store.connectionSettings()).toEqual({
      journalMode: 'wal',
      synchronous: 2,
      foreignKeys: 1,
      busyTimeout: 5000,
      walAutocheckpoint: 1000,
      journalSizeLimit: 64 * 1024 * 1024,
      userVersion: LATEST_VERSION,
    });
    await store.close();
    const raw = new Database(file);
    const tables = raw.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).pluck().all();
    raw.close();
    expect(tables).toEqual(
      expect.arrayContaining([
        'accounts',
        'api_keys',
        'bot_tokens',
        'challenges',
        'chat_groups',
        'contacts',
        'devices',
        'entitlements',
        'envelopes',
        'group_members',
        'sent_before',
      ]),
    );
  });

  it('reopens an up-to-date database without touching its data', async () => {
    const file = freshFile();
    const first = openSqliteStore(file, { checkpointIntervalMs: 0 });
    await first.setHandle('0x' + 'a'.repeat(40), 'alice', 1);
    await first.close();
    const second = openSqliteStore(file, { checkpointIntervalMs: 0 });
    expect((await second.findHandle('alice'))?.address).toBe('0x' + 'a'.repeat(40));
    expect(second.connectionSettings().userVersion).toBe(LATEST_VERSION);
    await second.close();
  });

  it('refuses a database written by a newer relay, with a clear error, and leaves it alone', () => {
    const file = freshFile();
    const raw = new Database(file);
    raw.pragma(`user_version = ${LATEST_VERSION + 1}`);
    raw.close();
    expect(() => openSqliteStore(file, { checkpointIntervalMs: 0 })).toThrow(SchemaTooNewError);
    expect(() => openSqliteStore(file, { checkpointIntervalMs: 0 })).toThrow(/newer than this relay supports/);
    const after = new Database(file);
    expect(after.pragma('user_version', { simple: true })).toBe(LATEST_VERSION + 1);
    expect(after.prepare(`SELECT count(*) FROM sqlite_master`).pluck().get()).toBe(0);
    expect(after.pragma('journal_mode', { simple: true })).toBe('delete');
    after.close();
  });

  it('runs all pending migrations in one transaction: a failing one leaves the database as it was', () => {
    const db = new Database(freshFile());
    const broken = [
      ...MIGRATIONS,
      { version: LATEST_VERSION + 1, name: 'broken', sql: 'CREATE TABLE extra (a); THIS IS NOT SQL;' },
    ];
    expect(() => migrate(db, broken)).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(db.prepare(`SELECT count(*) FROM sqlite_master`).pluck().get()).toBe(0);
    db.close();
  });

  it('applies only the migrations newer than the database', () => {
    const db = new Database(freshFile());
    expect(migrate(db)).toBe(LATEST_VERSION);
    const next = [
      ...MIGRATIONS,
      { version: LATEST_VERSION + 1, name: 'add a column', sql: 'ALTER TABLE accounts ADD COLUMN note TEXT' },
    ];
    expect(migrate(db, next)).toBe(LATEST_VERSION + 1);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION + 1);
    const columns = db.prepare(`SELECT name FROM pragma_table_info('accounts')`).pluck().all();
    expect(columns).toContain('note');
    db.close();
  });

  it('rejects a migration list whose versions do not count up from 1', () => {
    const db = new Database(freshFile());
    expect(() => migrate(db, [{ version: 2, name: 'skips one', sql: 'SELECT 1' }])).toThrow(/expected 1/);
    db.close();
  });
});
