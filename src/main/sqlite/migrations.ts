/**
 * Schema migrations by PRAGMA user_version, for every SQLite database of ours (the relay's and
 * the client's): an ordered array, run once in one IMMEDIATE transaction, the version read
 * inside it, and a guard against files written by a newer version of the program.
 */
import type Database from 'better-sqlite3';

export interface Migration {
  /** The PRAGMA user_version the database has once this migration has run. */
  version: number;
  name: string;
  sql: string;
}

/** Thrown when the database was written by a newer version; opening it could corrupt it. */
export class SchemaTooNewError extends Error {
  constructor(
    readonly found: number,
    readonly supported: number,
    /** whose database, for the message: "relay", "client" */
    readonly owner: string,
  ) {
    super(
      `database schema version ${found} is newer than this ${owner} supports (${supported}); run a newer ${owner} or restore a backup`,
    );
    this.name = 'SchemaTooNewError';
  }
}

export function latestVersion(migrations: readonly Migration[]): number {
  return migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
}

/** Checked before anything else touches the file (even switching it to WAL). */
export function assertNotTooNew(db: Database.Database, migrations: readonly Migration[], owner: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > latestVersion(migrations)) throw new SchemaTooNewError(current, latestVersion(migrations), owner);
}

function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration "${m.name}" has version ${m.version}, expected ${i + 1}`);
  });
}

/** Hears the schema version a database had and the one it has now (the same when nothing ran). */
export type OnMigrated = (step: { from: number; to: number }) => void;

/**
 * Brings the database up to the newest schema: every pending migration runs in one
 * transaction, so a failure leaves the database as it was. Returns the version reached.
 */
export function migrate(
  db: Database.Database,
  migrations: readonly Migration[],
  owner: string,
  onMigrated?: OnMigrated,
): number {
  checkOrder(migrations);
  const latest = latestVersion(migrations);
  const run = db.transaction(() => {
    // Read inside the write lock: another process may have migrated while we waited.
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > latest) throw new SchemaTooNewError(current, latest, owner);
    for (const m of migrations) {
      if (m.version <= current) continue;
      db.exec(m.sql);
    }
    if (current !== latest) db.pragma(`user_version = ${latest}`);
    return current;
  });
  const from = run.immediate();
  // after the commit: what is reported has happened
  onMigrated?.({ from, to: latest });
  return latest;
}
