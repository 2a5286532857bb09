/**
 * The SQL of history on a new device: a received archive, read into a database of its own
 * first (readArchive checks every record there), is merged into this profile's in one
 * transaction. Unlike a restore, the profile need not be empty: a new device may already hold
 * a few messages that reached it since it was set up. What it holds wins; everything else of the
 * archive is added. `seq` and notice ids are this database's own (assigned anew, in the
 * archive's order); a conversation's last message is found again afterwards. The outbox stays
 * with the device that wrote it, and so do its messages still waiting to go: that device sends
 * them, and their own-device copies arrive here like any other (a stuck "sending" row would
 * otherwise win over that copy). Only the portable
 * settings travel (backup-store.ts).
 */
import type Database from 'better-sqlite3';
import type { HistoryImported } from '../../../shared/backup/history.js';
import {
  ARCHIVE_TABLES,
  isPortableSetting,
  type ArchiveRow,
  type ArchiveTable,
  type BackupStore,
} from '../backup/backup-store.js';

const MERGED = ARCHIVE_TABLES.filter((t) => t.name !== 'outbox');
/** keys this database assigns itself */
const OWN_KEYS: Partial<Record<ArchiveTable, string>> = { messages: 'seq', device_notices: 'id' };

export class HistoryMergeStore {
  private readonly s;

  /** `rows`: the BackupStore of the same connection, whose checked inserts this uses */
  constructor(
    private readonly db: Database.Database,
    private readonly rows: BackupStore,
  ) {
    this.s = {
      upsertSetting: db.prepare(
        'INSERT INTO profile (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      relink: db.prepare(`UPDATE conversations SET
          last_message_seq = (SELECT seq FROM messages WHERE conversation_id = conversations.id ORDER BY sent_at DESC, seq DESC LIMIT 1),
          updated_at = MAX(updated_at, COALESCE((SELECT MAX(sent_at) FROM messages WHERE conversation_id = conversations.id), updated_at))
        WHERE id = ?`),
    };
  }

  /**
   * Adds every row of `restored` this database lacks, all in one transaction; counts what the
   * archive held and what was new. Immediate, as BackupStore.adopt.
   */
  merge(restored: BackupStore, pageRows = 2000): HistoryImported {
    return this.db
      .transaction((): HistoryImported => {
        const touched = new Set<string>();
        /** own messages still waiting to go there: that device sends them, and its copy comes here then */
        const unsent = new Set<string>();
        let messages = 0;
        for (const { name } of MERGED) {
          for (let after: ArchiveRow[string] = null, more = true; more;) {
            const { rows, next } = restored.page(name, after, pageRows);
            for (const row of rows) {
              if (name === 'profile') {
                if (isPortableSetting(String(row.key))) this.s.upsertSetting.run(row.key, row.value);
                continue;
              }
              if (name === 'messages' && row.from_me === 1 && row.state === 'sending') {
                unsent.add(String(row.id));
                continue;
              }
              if (name === 'attachments' && unsent.has(String(row.message_id))) continue;
              const own = OWN_KEYS[name];
              const fields: ArchiveRow = Object.fromEntries(Object.entries(row).filter(([c]) => c !== own));
              if (name === 'conversations') fields.last_message_seq = null;
              // history is not news: the headless client does not print it as it would a new message
              if (name === 'messages') fields.shown = 1;
              const added = this.rows.insertRow(name, fields, true);
              if (added && name === 'messages') messages++;
              if (added && (name === 'messages' || name === 'conversations'))
                touched.add(String(name === 'messages' ? row.conversation_id : row.id));
            }
            after = next;
            more = next !== null;
          }
        }
        for (const id of touched) this.s.relink.run(id);
        return { conversations: restored.count('conversations'), messages };
      })
      .immediate();
  }
}
