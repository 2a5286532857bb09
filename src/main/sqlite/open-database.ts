/**
 * Opens one of our SQLite files the same way everywhere (relay and client): the Electron-ABI
 * binding when the shell names one, the key when the file is encrypted (a clear file given a
 * key is encrypted in place first), WAL with synchronous=FULL, foreign keys, a busy timeout,
 * the too-new guard before anything touches the file, then the migrations.
 */
import Database from 'better-sqlite3';
import { applyKey, DatabaseKeyError, databaseFileState } from './database-cipher.js';
import { encryptInPlace, removeEncryptingLeftovers, type EncryptStep } from './encrypt-in-place.js';
import { assertNotTooNew, latestVersion, migrate, type Migration, type OnMigrated } from './migrations.js';
import { snapshotIfMigrating, type OnSnapshot } from './migration-snapshot.js';

export const BUSY_TIMEOUT_MS = 5000;
/** Pages (4 KiB) after which a commit checkpoints by itself: about 4 MiB of WAL. */
const WAL_AUTOCHECKPOINT_PAGES = 1000;
/** What a reset WAL file is truncated back to, so one burst does not keep a huge file. */
const JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

export interface OpenDatabaseOptions {
  migrations: readonly Migration[];
  /** whose database, for error messages: "relay", "client" */
  owner: string;
  /** told the schema versions before and after the migrations (the relay's log) */
  onMigrated?: OnMigrated;
  /** given: a file with an older schema is copied beside itself before its migrations run (migration-snapshot.ts) */
  snapshotBeforeMigrating?: OnSnapshot;
  /** 32 bytes: the file is (made) encrypted with it (database-cipher.ts) */
  key?: Buffer;
  /** tests: stands for a crash after a step of encrypting a clear file */
  afterEncryptStep?: (step: EncryptStep) => void;
}

function configure(db: Database.Database): void {
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  // a store in memory (the client's while its file is locked) has no WAL to switch to
  if (mode !== 'wal' && !(db.memory && mode === 'memory'))
    throw new Error(`could not switch ${db.name} to WAL (journal_mode is ${String(mode)})`);
  // This build defaults WAL to NORMAL, which may lose the last commits on power loss: a 200'd
  // envelope on the relay, an acked one in the client.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
}

/** A bare connection, with the Electron-ABI binding when the shell names one (sqlite-binding.ts). */
function connect(file: string): Database.Database {
  const nativeBinding = process.env.RELAY_SQLITE_BINDING || undefined;
  return new Database(file, { timeout: BUSY_TIMEOUT_MS, nativeBinding });
}

/**
 * A connection to an existing file as it is, without our pragmas or migrations: for reading it
 * whole (online-backup.ts), never for the program's own work.
 */
export function connectExisting(file: string, options: { readonly?: boolean } = {}): Database.Database {
  const nativeBinding = process.env.RELAY_SQLITE_BINDING || undefined;
  return new Database(file, {
    fileMustExist: true,
    readonly: options.readonly ?? false,
    timeout: BUSY_TIMEOUT_MS,
    nativeBinding,
  });
}

/** Opens (creating and migrating if needed) `file`; closes it again if any step fails. */
export function openDatabase(file: string, options: OpenDatabaseOptions): Database.Database {
  if (options.key) {
    // a clear file from before encryption is turned over first; a crash in a past turn-over
    // left either the clear file (done again now) or the encrypted one, and maybe a temp file
    if (databaseFileState(file) === 'clear')
      encryptInPlace(file, options.key, { owner: options.owner, connect, afterStep: options.afterEncryptStep });
    else removeEncryptingLeftovers(file);
  } else if (databaseFileState(file) === 'encrypted') {
    throw new DatabaseKeyError(
      'locked',
      `the ${options.owner} database ${file} is encrypted: it opens only with the key the unlocked vault gives`,
    );
  }
  const db = connect(file);
  try {
    if (options.key) applyKey(db, options.key, options.owner);
    assertNotTooNew(db, options.migrations, options.owner);
    configure(db);
    if (options.snapshotBeforeMigrating)
      snapshotIfMigrating(db, file, latestVersion(options.migrations), options.snapshotBeforeMigrating);
    migrate(db, options.migrations, options.owner, options.onMigrated);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}
