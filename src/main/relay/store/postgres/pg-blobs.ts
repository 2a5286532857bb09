import type { BlobsPart } from '../store-parts.js';
import type { PgQueries, PgSql } from './pg-client.js';
import { StoreError, type BlobRow } from '../store.js';

const COLUMNS = `id, uploader, size, created_at AS "createdAt", expires_at AS "expiresAt"`;

/**
 * Blob metadata (PostgreSQL); the bytes live in the directory the operator names (--blob-dir).
 * A transaction-scoped advisory lock on the uploader serialises its uploads across nodes, so two
 * cannot both pass the quota check.
 */
export function pgBlobsPart(sql: PgSql): BlobsPart {
  const cols = sql.unsafe(COLUMNS);
  const usage = async (q: PgQueries, uploader: string, now: number) => {
    const [r] = await q<
      { used: string }[]
    >`SELECT coalesce(sum(size), 0)::text AS used FROM blobs WHERE uploader = ${uploader} AND expires_at > ${now}`;
    return Number(r.used);
  };
  return {
    async blobUsage(uploader, now) {
      return usage(sql, uploader.toLowerCase(), now);
    },
    async insertBlob(b, quotaBytes) {
      const uploader = b.uploader.toLowerCase();
      await sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(hashtextextended(${'blob-quota:' + uploader}, 0))`;
        const used = await usage(tx, uploader, b.createdAt);
        if (used + b.size > quotaBytes) {
          throw new StoreError(
            'blob-quota-full',
            `this upload would pass your blob storage quota (${used} of ${quotaBytes} bytes used, ${b.size} more asked)`,
          );
        }
        await tx`INSERT INTO blobs (id, uploader, size, created_at, expires_at) VALUES (${b.id}, ${uploader}, ${b.size}, ${b.createdAt}, ${b.expiresAt})`;
      });
    },
    async getBlob(id) {
      const [r] = await sql<BlobRow[]>`SELECT ${cols} FROM blobs WHERE id = ${id}`;
      return r ?? null;
    },
    async deleteBlob(id, uploader) {
      const [r] = await sql<{ uploader: string; deleted: boolean }[]>`
        WITH found AS (SELECT uploader FROM blobs WHERE id = ${id}),
             gone AS (DELETE FROM blobs WHERE id = ${id} AND uploader = ${uploader.toLowerCase()} RETURNING 1)
        SELECT (SELECT uploader FROM found) AS uploader, EXISTS (SELECT 1 FROM gone) AS deleted`;
      if (r.deleted) return 'deleted';
      return r.uploader === null ? 'not-found' : 'not-yours';
    },
    async sweepBlobs(now, limit) {
      const rows = await sql<{ id: string }[]>`
        DELETE FROM blobs WHERE id IN (SELECT id FROM blobs WHERE expires_at <= ${now} ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING id`;
      return rows.map((r) => r.id);
    },
    async unknownBlobIds(ids) {
      if (ids.length === 0) return [];
      const rows = await sql<{ id: string }[]>`SELECT id FROM blobs WHERE id = ANY(${ids}::text[])`;
      const known = new Set(rows.map((r) => r.id));
      return ids.filter((id) => !known.has(id));
    },
  };
}
