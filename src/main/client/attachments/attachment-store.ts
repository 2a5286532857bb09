/** The SQL of attachment files (their refs, state and where each is kept), on the local store's connection. */
import type Database from 'better-sqlite3';
import type { AttachmentRef } from './attachment-wire.js';

/**
 * - `sent`: our own file (we hold the original; nothing to fetch);
 * - `pending`: to be downloaded, opened and checked;
 * - `saved`: kept encrypted at rest at `path` (its wire key is forgotten then);
 * - `refused`: it failed its checks (tampered blob, wrong hash) or the relay no longer has it.
 */
export type AttachmentState = 'sent' | 'pending' | 'saved' | 'refused';

export interface AttachmentRow extends AttachmentRef {
  messageId: string;
  index: number;
  state: AttachmentState;
  path: string | null;
  error: string | null;
  attempts: number;
}

interface RowDb {
  message_id: string;
  idx: number;
  blob: string;
  key: string;
  nonce: string;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  state: AttachmentState;
  path: string | null;
  error: string | null;
  attempts: number;
  preview: string | null;
}

const fromRow = (r: RowDb): AttachmentRow => ({
  messageId: r.message_id,
  index: r.idx,
  blob: r.blob,
  key: r.key,
  nonce: r.nonce,
  name: r.name,
  mime: r.mime,
  size: r.size,
  sha256: r.sha256,
  state: r.state,
  path: r.path,
  error: r.error,
  attempts: r.attempts,
  ...(r.preview !== null ? { preview: r.preview } : {}),
});

/** The files of attachment messages (client.db); called inside LocalStore's transactions when a message is stored. */
export class AttachmentStore {
  private readonly s;

  constructor(db: Database.Database) {
    this.s = {
      insert:
        db.prepare(`INSERT OR IGNORE INTO attachments (message_id, idx, blob, key, nonce, name, mime, size, sha256, state, preview)
        VALUES (:message_id, :idx, :blob, :key, :nonce, :name, :mime, :size, :sha256, :state, :preview)`),
      ofMessage: db.prepare(`SELECT * FROM attachments WHERE message_id = ? ORDER BY idx`),
      // one statement for a page of messages: their ids as a JSON array
      ofMessages: db.prepare(
        `SELECT * FROM attachments WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY message_id, idx`,
      ),
      pending: db.prepare(`SELECT * FROM attachments WHERE state = 'pending' AND attempts < ? ORDER BY rowid LIMIT ?`),
      markSaved: db.prepare(
        `UPDATE attachments SET state = 'saved', path = ?, key = '', error = NULL WHERE message_id = ? AND idx = ?`,
      ),
      markRefused: db.prepare(
        `UPDATE attachments SET state = 'refused', error = ?, key = '' WHERE message_id = ? AND idx = ?`,
      ),
      markAttempt: db.prepare(
        `UPDATE attachments SET attempts = attempts + 1, error = ? WHERE message_id = ? AND idx = ?`,
      ),
      unsettledOf: db.prepare(`SELECT count(*) FROM attachments WHERE message_id = ? AND state = 'pending'`).pluck(),
      exists: db.prepare(`SELECT 1 FROM attachments WHERE message_id = ? AND idx = ?`).pluck(),
    };
  }

  /** Records a message's files; a redelivered message changes nothing. */
  insert(messageId: string, files: AttachmentRef[], state: 'sent' | 'pending'): void {
    files.forEach((f, idx) =>
      this.s.insert.run({ message_id: messageId, idx, ...f, preview: f.preview ?? null, state }),
    );
  }

  /** Whether a message still has this file (in any state: one being fetched has no path yet). */
  has(messageId: string, index: number): boolean {
    return this.s.exists.get(messageId, index) !== undefined;
  }

  ofMessage(messageId: string): AttachmentRow[] {
    return (this.s.ofMessage.all(messageId) as RowDb[]).map(fromRow);
  }

  /** The files of several messages at once (a page of a conversation), in message then file order. */
  ofMessages(messageIds: string[]): AttachmentRow[] {
    return messageIds.length === 0 ? [] : (this.s.ofMessages.all(JSON.stringify(messageIds)) as RowDb[]).map(fromRow);
  }

  /** The signed refs of an own message, to send it again exactly as it was. */
  refsOf(messageId: string): AttachmentRef[] {
    return this.ofMessage(messageId).map(({ blob, key, nonce, name, mime, size, sha256, preview }) => ({
      blob,
      key,
      nonce,
      name,
      mime,
      size,
      sha256,
      ...(preview ? { preview } : {}),
    }));
  }

  /** Files still to fetch, oldest first, skipping those that failed `maxAttempts` times. */
  pending(maxAttempts: number, limit: number): AttachmentRow[] {
    return (this.s.pending.all(maxAttempts, limit) as RowDb[]).map(fromRow);
  }

  hasPending(messageId: string): boolean {
    return (this.s.unsettledOf.get(messageId) as number) > 0;
  }

  markSaved(messageId: string, index: number, path: string): void {
    this.s.markSaved.run(path, messageId, index);
  }

  markRefused(messageId: string, index: number, error: string): void {
    this.s.markRefused.run(error, messageId, index);
  }

  /** A try that may work later (relay unreachable): counted, still pending. */
  markAttempt(messageId: string, index: number, error: string): void {
    this.s.markAttempt.run(error, messageId, index);
  }
}
