import type Database from 'better-sqlite3';
import { StoreError, type BlobRow } from '../store.js';
import type { BlobsPart } from '../store-parts.js';

const COLUMNS = `id, uploader, size, created_at AS createdAt, expires_at AS expiresAt`;

/** Blob metadata (SQLite); the quota is read and the row written in one transaction, so two uploads cannot both squeeze in. */
export function blobsPart(db: Database.Database): BlobsPart {
  const s = {
    usage: db
      .prepare<[string, number], number>(
        `SELECT coalesce(sum(size), 0) FROM blobs WHERE uploader = ? AND expires_at > ?`,
      )
      .pluck(),
    insert: db.prepare<[BlobRow]>(
      `INSERT INTO blobs (id, uploader, size, created_at, expires_at) VALUES (:id, :uploader, :size, :createdAt, :expiresAt)`,
    ),
    get: db.prepare<[string], BlobRow>(`SELECT ${COLUMNS} FROM blobs WHERE id = ?`),
    uploader: db.prepare<[string], string>(`SELECT uploader FROM blobs WHERE id = ?`).pluck(),
    delete: db.prepare<[string]>(`DELETE FROM blobs WHERE id = ?`),
    expired: db
      .prepare<[number, number], string>(`SELECT id FROM blobs WHERE expires_at <= ? ORDER BY expires_at LIMIT ?`)
      .pluck(),
    known: db.prepare<[string], string>(`SELECT id FROM blobs WHERE id IN (SELECT value FROM json_each(?))`).pluck(),
  };
  const insert = db.transaction((b: BlobRow, quotaBytes: number) => {
    const used = s.usage.get(b.uploader, b.createdAt) ?? 0;
    if (used + b.size > quotaBytes) {
      throw new StoreError(
        'blob-quota-full',
        `this upload would pass your blob storage quota (${used} of ${quotaBytes} bytes used, ${b.size} more asked)`,
      );
    }
    s.insert.run(b);
  });
  const sweep = db.transaction((now: number, limit: number): string[] => {
    const ids = s.expired.all(now, limit);
    for (const id of ids) s.delete.run(id);
    return ids;
  });
  const remove = db.transaction((id: string, uploader: string) => {
    const owner = s.uploader.get(id);
    if (owner === undefined) return 'not-found' as const;
    if (owner !== uploader) return 'not-yours' as const;
    s.delete.run(id);
    return 'deleted' as const;
  });
  return {
    async blobUsage(uploader, now) {
      return s.usage.get(uploader.toLowerCase(), now) ?? 0;
    },
    async insertBlob(b, quotaBytes) {
      insert({ ...b, uploader: b.uploader.toLowerCase() }, quotaBytes);
    },
    async getBlob(id) {
      return s.get.get(id) ?? null;
    },
    async deleteBlob(id, uploader) {
      return remove(id, uploader.toLowerCase());
    },
    async sweepBlobs(now, limit) {
      return sweep(now, limit);
    },
    async unknownBlobIds(ids) {
      if (ids.length === 0) return [];
      const known = new Set(s.known.all(JSON.stringify(ids)));
      return ids.filter((id) => !known.has(id));
    },
  };
}
