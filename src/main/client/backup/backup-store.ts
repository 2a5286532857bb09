/**
 * The SQL of backups and history archives (backup-archive.ts): the local tables read page by
 * page for an archive, rows written back into a fresh database, and the one transaction that
 * adopts a restored database into the live one. Statements are prepared once per connection;
 * an insert is prepared once per column set met (a table's columns are known from its schema).
 *
 * Rows travel as plain objects of the table's own columns (TEXT, INTEGER or NULL: the client
 * keeps no BLOB or REAL), so a restored row is the same row, `seq` and ids included.
 */
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';

export type RowValue = string | number | null;
export type ArchiveRow = Record<string, RowValue>;

/**
 * What an archive carries, in restore order (a row's foreign keys come before it), each with the
 * key it is paged by. Left out: the outbox's device-bound neighbours (pending acks), the
 * certified-device cache (fetched again) and the profile rows that belong to this device (see
 * PORTABLE_SETTINGS).
 */
export const ARCHIVE_TABLES = [
  { name: 'profile', key: 'key' },
  { name: 'contacts', key: 'address' },
  { name: 'groups', key: 'id' },
  { name: 'conversations', key: 'id' },
  { name: 'messages', key: 'seq' },
  { name: 'attachments', key: 'rowid' },
  { name: 'outbox', key: 'message_id' },
  { name: 'requests', key: 'address' },
  { name: 'pending_changes', key: 'change_id' },
  { name: 'device_sets', key: 'address' },
  { name: 'device_notices', key: 'id' },
] as const;

export type ArchiveTable = (typeof ARCHIVE_TABLES)[number]['name'];

/**
 * Profile settings that are the person's, not this device's: preferences and chain RPC
 * choices. Never the sealed API key or file key (sealed with this device's vault codec), the
 * relay connection, or anything of the wallet (the vault holds it; the recovery phrase restores it).
 */
export function isPortableSetting(key: string): boolean {
  return key === 'preferences' || key.startsWith('stake.rpc:');
}

/** Tables that must be empty for a restore to be adopted (a restore never merges into a history). */
const HISTORY_TABLES: readonly ArchiveTable[] = ['contacts', 'groups', 'conversations', 'messages', 'requests'];

export class BackupStore {
  private readonly pages = new Map<ArchiveTable, Statement>();
  private readonly counts = new Map<ArchiveTable, Statement>();
  private readonly columns = new Map<ArchiveTable, Set<string>>();
  private readonly inserts = new Map<string, Statement>();
  private readonly s;

  constructor(private readonly db: Database.Database) {
    for (const { name, key } of ARCHIVE_TABLES) {
      this.pages.set(
        name,
        db.prepare(`SELECT ${key} AS _page_key, * FROM ${name} WHERE ${key} > ? ORDER BY ${key} LIMIT ?`),
      );
      this.counts.set(name, db.prepare(`SELECT count(*) FROM ${name}`).pluck());
      this.columns.set(name, new Set((db.pragma(`table_info(${name})`) as Array<{ name: string }>).map((c) => c.name)));
    }
    this.s = {
      schema: db.prepare('SELECT user_version FROM pragma_user_version').pluck(),
      upsertSetting: db.prepare(
        'INSERT INTO profile (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      setAttachmentPath: db.prepare('UPDATE attachments SET path = ? WHERE message_id = ? AND idx = ?'),
      refetchUnkept: db.prepare(
        "UPDATE attachments SET state = 'pending', attempts = 0, error = NULL WHERE state = 'saved' AND path IS NULL",
      ),
      begin: db.prepare('BEGIN'),
      commit: db.prepare('COMMIT'),
    };
  }

  /** The schema version (PRAGMA user_version) the rows are shaped by. */
  schemaVersion(): number {
    return this.s.schema.get() as number;
  }

  /**
   * Starts a read transaction that every page and count until endSnapshot() reads from: one
   * consistent state of the database, whatever other connections commit meanwhile (WAL). Only
   * for a connection of its own (the store worker's): this one's writes would join it.
   */
  beginSnapshot(): void {
    this.s.begin.run();
    // a deferred transaction takes its snapshot at its first read
    this.schemaVersion();
  }

  endSnapshot(): void {
    if (this.db.inTransaction) this.s.commit.run();
  }

  count(table: ArchiveTable): number {
    return this.counts.get(table)!.get() as number;
  }

  /**
   * One page of a table after `after` (null: from the start), in key order; `next` is the key to
   * pass for the page after (null at the end). Paging rather than one cursor: an archive is
   * written between awaits, while the connection serves the rest of the app.
   */
  page(table: ArchiveTable, after: RowValue, limit: number): { rows: ArchiveRow[]; next: RowValue } {
    // '' sorts before every text key, -1 before every rowid
    const from = after ?? (table === 'messages' || table === 'attachments' || table === 'device_notices' ? -1 : '');
    const rows = this.pages.get(table)!.all(from, limit) as Array<ArchiveRow & { _page_key: RowValue }>;
    const next = rows.length === limit ? rows[rows.length - 1]._page_key : null;
    return { rows: rows.map(({ _page_key: _, ...row }) => row), next };
  }

  /** The columns a row may carry; a column this schema does not have is a refusal (the caller's). */
  hasColumns(table: ArchiveTable, row: ArchiveRow): string | null {
    const known = this.columns.get(table)!;
    return Object.keys(row).find((c) => !known.has(c)) ?? null;
  }

  /** Writes rows in one transaction; a column this schema lacks throws before anything is written. */
  insertRows(table: ArchiveTable, rows: ArchiveRow[]): void {
    this.db.transaction(() => {
      for (const row of rows) this.insertRow(table, row);
    })();
  }

  setAttachmentPath(messageId: string, index: number, path: string): void {
    this.s.setAttachmentPath.run(path, messageId, index);
  }

  /** Files marked saved that came without their bytes go back to the download queue. */
  refetchUnkeptFiles(): number {
    return this.s.refetchUnkept.run().changes;
  }

  /** Whether the history tables are all empty (a new profile). */
  holdsNoHistory(): boolean {
    return HISTORY_TABLES.every((t) => this.count(t) === 0);
  }

  /**
   * Copies every archived row of `restored` (a database written by a restore) into this one, in
   * one transaction: all of it lands, or none. Settings overwrite this profile's; every other
   * table must hold no history here (holdsNoHistory), so rows keep their ids and `seq`: false,
   * and nothing adopted, when it does. Immediate: another connection (the app's, while the store
   * worker adopts) waits for the write lock at the start rather than failing halfway.
   */
  adopt(restored: BackupStore, pageRows = 2000): boolean {
    return this.db
      .transaction(() => {
        if (!this.holdsNoHistory()) return false;
        for (const { name } of ARCHIVE_TABLES) {
          for (let after: RowValue = null, more = true; more;) {
            const { rows, next } = restored.page(name, after, pageRows);
            for (const row of rows) {
              if (name === 'profile') this.s.upsertSetting.run(row.key, row.value);
              else this.insertRow(name, row);
            }
            after = next;
            more = next !== null;
          }
        }
        return true;
      })
      .immediate();
  }

  /**
   * Inserts one row by its own column names (checked against the table's). `ifNew`: a row whose
   * key is already here is left as it is (history merged into a device's own). Returns whether it
   * went in.
   */
  insertRow(table: ArchiveTable, row: ArchiveRow, ifNew = false): boolean {
    const unknown = this.hasColumns(table, row);
    // column names reach the SQL text: only the table's own pass
    if (unknown !== null) throw new Error(`${table} has no column ${JSON.stringify(unknown)}`);
    const cols = Object.keys(row);
    const id = `${table}(${cols.join(',')})${ifNew ? ' if new' : ''}`;
    let st = this.inserts.get(id);
    if (!st) {
      st = this.db.prepare(
        `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})${ifNew ? ' ON CONFLICT DO NOTHING' : ''}`,
      );
      this.inserts.set(id, st);
    }
    return st.run(row).changes > 0;
  }
}
