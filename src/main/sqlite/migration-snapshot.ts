/**
 * A copy of a database taken just before its migrations run, beside it, so an upgrade that goes
 * wrong in a way the migration's own transaction cannot undo (a bug in the new code found days
 * later) still has the data as the old version left it. `VACUUM INTO` writes one consistent,
 * compact file from a read transaction, WAL and all, without stopping other connections.
 */
import type Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { fsyncPath } from './fsync-path.js';

export interface MigrationSnapshot {
  /** the schema version copied */
  from: number;
  /** the version the migrations are about to bring it to */
  to: number;
  path: string;
  bytes: number;
}

export type OnSnapshot = (snapshot: MigrationSnapshot) => void;

/** Copies `db` (the file `file`) when it holds a schema older than `latest`; a new, empty file is not copied. */
export function snapshotIfMigrating(db: Database.Database, file: string, latest: number, onSnapshot: OnSnapshot): void {
  const from = db.pragma('user_version', { simple: true }) as number;
  if (from === 0 || from >= latest) return;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const path = `${file}.v${from}-before-v${latest}.${stamp}.snapshot`;
  db.prepare('VACUUM INTO ?').run(path);
  // VACUUM INTO leaves its file to the operating system's caches
  fsyncPath(path);
  fsyncPath(dirname(path));
  onSnapshot({ from, to: latest, path, bytes: statSync(path).size });
}
