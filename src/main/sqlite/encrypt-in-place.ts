/**
 * Turns a clear database file into an encrypted one in place, crash-safely, by copy-then-swap:
 *
 *  1. drop a temp file a crashed run left (`<file>.encrypting` and its journal);
 *  2. take the clear file out of WAL (which checkpoints every commit into the main file and
 *     removes the WAL): the file alone now holds everything;
 *  3. copy it to the temp file;  4. encrypt the copy (`PRAGMA rekey`);  5. fsync the copy;
 *  6. remove the clear file's -wal/-shm if any are left (empty after step 2; a stale WAL must
 *     never be replayed onto the new file);  7. rename the copy over the file;  8. fsync the folder.
 *
 * A crash before 7 leaves the clear file whole (the next run starts again from 1); after 7, the
 * encrypted one. rename(2) is atomic, so no reader ever sees a mix. The clear file's old blocks
 * are freed, not overwritten: the filesystem may keep them until reused.
 */
import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { encryptOpenDatabase } from './database-cipher.js';
import { fsyncPath } from './fsync-path.js';

export const ENCRYPT_STEPS = [
  'stale-temp-removed',
  'checkpointed',
  'copied',
  'encrypted',
  'synced',
  'side-files-removed',
  'renamed',
  'folder-synced',
] as const;
export type EncryptStep = (typeof ENCRYPT_STEPS)[number];

export interface EncryptInPlaceOptions {
  owner: string;
  /** opens a bare connection (open-database.ts: the binding the shell names) */
  connect: (file: string) => Database.Database;
  /** called after each step; tests throw from it to stand for a crash there */
  afterStep?: (step: EncryptStep) => void;
}

export function encryptingTempFile(file: string): string {
  return `${file}.encrypting`;
}

/** Removes what a crashed encryption left beside `file` (harmless when there is nothing). */
export function removeEncryptingLeftovers(file: string): void {
  const temp = encryptingTempFile(file);
  for (const f of [temp, `${temp}-journal`, `${temp}-wal`, `${temp}-shm`]) rmSync(f, { force: true });
}

export function encryptInPlace(file: string, key: Buffer, opts: EncryptInPlaceOptions): void {
  const step = opts.afterStep ?? (() => undefined);
  const temp = encryptingTempFile(file);
  removeEncryptingLeftovers(file);
  step('stale-temp-removed');

  const clear = opts.connect(file);
  try {
    const mode = clear.pragma('journal_mode = DELETE', { simple: true });
    if (mode !== 'delete')
      throw new Error(`could not checkpoint ${file} before encrypting it (another process has it open?)`);
  } finally {
    clear.close();
  }
  step('checkpointed');

  copyFileSync(file, temp);
  step('copied');

  const copy = opts.connect(temp);
  try {
    encryptOpenDatabase(copy, key, opts.owner);
  } finally {
    copy.close();
  }
  step('encrypted');

  fsyncPath(temp);
  step('synced');

  rmSync(`${file}-wal`, { force: true });
  rmSync(`${file}-shm`, { force: true });
  step('side-files-removed');

  renameSync(temp, file);
  step('renamed');

  fsyncPath(dirname(file));
  step('folder-synced');
}
