/**
 * Opens one of our SQLite files the same way everywhere (relay and client): the Electron-ABI
 * binding when the shell names one, WAL with synchronous=FULL, foreign keys, a busy timeout,
 * the too-new guard before anything touches the file, then the migrations.
 */
import Database from 'better-sqlite3';
import { assertNotTooNew, migrate, type Migration } from './migrations.js';

export const BUSY_TIMEOUT_MS = 5000;
/** Pages (4 KiB) after which a commit checkpoints by itself: about 4 MiB of WAL. */
const WAL_AUTOCHECKPOINT_PAGES = 1000;
/** What a reset WAL file is truncated back to, so one burst does not keep a huge file. */
const JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

export interface OpenDatabaseOptions {
  migrations: readonly Migration[];
  /** whose database, for error messages: "relay", "client" */
  owner: string;
}

function configure(db: Database.Database): void {
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal') throw new Error(`could not switch ${db.name} to WAL (journal_mode is ${String(mode)})`);
  // This build defaults WAL to NORMAL, which may lose the last commits on power loss: a 200'd
  // envelope on the relay, an acked one in the client.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
}

/** Opens (creating and migrating if needed) `file`; closes it again if any step fails. */
export function openDatabase(file: string, options: OpenDatabaseOptions): Database.Database {
  // Under Electron the shell points RELAY_SQLITE_BINDING at a binding built for Electron's ABI.
  const nativeBinding = process.env.RELAY_SQLITE_BINDING || undefined;
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS, nativeBinding });
  try {
    assertNotTooNew(db, options.migrations, options.owner);
    configure(db);
    migrate(db, options.migrations, options.owner);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}
