/**
 * Whole-file encryption of an SQLite database (every page, the WAL and its index included) by
 * SQLite3 Multiple Ciphers, the SQLite inside better-sqlite3-multiple-ciphers: its default
 * cipher, ChaCha20 with a Poly1305 tag per page, keyed with a raw 32-byte key (no KDF: the key
 * is already random, from the vault). A plain better-sqlite3 build ignores `PRAGMA key`, which
 * would silently write clear pages, so the build is checked before a key is given.
 */
import type Database from 'better-sqlite3';
import { closeSync, openSync, readSync } from 'node:fs';

export type DatabaseKeyErrorCode = 'wrong-key' | 'no-cipher' | 'bad-key' | 'locked';

export class DatabaseKeyError extends Error {
  constructor(
    readonly code: DatabaseKeyErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DatabaseKeyError';
  }
}

export const DATABASE_KEY_BYTES = 32;
const CLEAR_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** What is in `file`: nothing yet (missing or empty), a clear SQLite database, or something else (encrypted). */
export function databaseFileState(file: string): 'none' | 'clear' | 'encrypted' {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw e;
  }
  try {
    const head = Buffer.alloc(CLEAR_HEADER.length);
    const n = readSync(fd, head, 0, head.length, 0);
    if (n === 0) return 'none';
    return n === head.length && head.equals(CLEAR_HEADER) ? 'clear' : 'encrypted';
  } finally {
    closeSync(fd);
  }
}

/** Whether this connection's SQLite can encrypt (SQLite3 Multiple Ciphers answers `PRAGMA cipher`). */
export function canEncrypt(db: Database.Database): boolean {
  return typeof db.pragma('cipher', { simple: true }) === 'string';
}

/**
 * Keys a just-opened connection, before anything reads the file, and proves the key by reading
 * the schema: a wrong key (or a clear file given a key) fails here with `wrong-key`, not later
 * in some query as "file is not a database".
 */
export function applyKey(db: Database.Database, key: Buffer, owner: string): void {
  if (key.length !== DATABASE_KEY_BYTES)
    throw new DatabaseKeyError('bad-key', `the ${owner} database key must be ${DATABASE_KEY_BYTES} bytes`);
  if (!canEncrypt(db)) {
    throw new DatabaseKeyError(
      'no-cipher',
      `this SQLite build cannot encrypt the ${owner} database: it needs better-sqlite3-multiple-ciphers (README, "Encrypted local database")`,
    );
  }
  db.pragma(`key = "x'${key.toString('hex')}'"`);
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_NOTADB') {
      throw new DatabaseKeyError(
        'wrong-key',
        `the ${owner} database ${db.name} does not open with this key (another profile's file, or damaged)`,
      );
    }
    throw e;
  }
}

/** Encrypts a clear file this connection has to itself (rekey works in rollback-journal mode only). */
export function encryptOpenDatabase(db: Database.Database, key: Buffer, owner: string): void {
  if (!canEncrypt(db))
    throw new DatabaseKeyError('no-cipher', `this SQLite build cannot encrypt the ${owner} database`);
  const mode = db.pragma('journal_mode = DELETE', { simple: true });
  if (mode !== 'delete')
    throw new Error(`could not take ${db.name} out of WAL to encrypt it (journal_mode is ${String(mode)})`);
  db.pragma(`rekey = "x'${key.toString('hex')}'"`);
}
