import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore, type SqliteRelayStore } from '../sqlite/sqlite-store.js';

/** A fresh directory in the OS temp folder, removed by cleanup(). */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'relay-store-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TempStore {
  store: SqliteRelayStore;
  file: string;
  /** A second, plain connection to the same file (like the operator's CLI). */
  raw(): Database.Database;
  cleanup(): Promise<void>;
}

export function openTempStore(): TempStore {
  const { dir, cleanup } = tempDir();
  const file = join(dir, 'relay.db');
  const store = openSqliteStore(file, { checkpointIntervalMs: 0 });
  const raws: Database.Database[] = [];
  return {
    store,
    file,
    raw() {
      const db = new Database(file, { timeout: 5000 });
      raws.push(db);
      return db;
    },
    async cleanup() {
      for (const db of raws) if (db.open) db.close();
      await store.close();
      cleanup();
    },
  };
}

export const addr = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;
export const devKey = (n: number): string => n.toString(16).padStart(64, 'a');
