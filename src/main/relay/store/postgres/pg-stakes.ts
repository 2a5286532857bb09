import type { StakesPart } from '../store-parts.js';
import type { PgSql } from './pg-client.js';
import type { StakeQuoteRow, StakeRow } from '../store.js';

/** Expired quotes stay a day, so that a late send hears `expired-quote` rather than `not-found`. */
const QUOTE_GRACE_MS = 24 * 60 * 60 * 1000;

const QUOTE_COLUMNS = `ref, sender, recipient, amount_wei AS "amountWei", min_deadline AS "minDeadline", max_deadline AS "maxDeadline",
  created_at AS "createdAt", expires_at AS "expiresAt"`;
export const PG_STAKE_COLUMNS = `id, ref, chain_id AS "chainId", escrow, sender, recipient, amount_wei AS "amountWei", deadline, status,
  release_signature AS "releaseSignature", created_at AS "createdAt"`;

/** Stake quotes and stakes (PostgreSQL). */
export function pgStakesPart(sql: PgSql): StakesPart {
  const stakeCols = sql.unsafe(PG_STAKE_COLUMNS);
  return {
    async createStakeQuote(q) {
      await sql.begin((tx) => [
        tx`DELETE FROM stake_quotes WHERE ref IN (SELECT ref FROM stake_quotes WHERE expires_at < ${q.createdAt - QUOTE_GRACE_MS} LIMIT 100)`,
        tx`INSERT INTO stake_quotes (ref, sender, recipient, amount_wei, min_deadline, max_deadline, created_at, expires_at)
           VALUES (${q.ref}, ${q.sender}, ${q.recipient}, ${q.amountWei}, ${q.minDeadline}, ${q.maxDeadline}, ${q.createdAt}, ${q.expiresAt})`,
      ]);
    },
    async getStakeQuote(ref) {
      const [r] = await sql<
        StakeQuoteRow[]
      >`SELECT ${sql.unsafe(QUOTE_COLUMNS)} FROM stake_quotes WHERE ref = ${ref.toLowerCase()}`;
      return r ?? null;
    },
    async getStake(id) {
      const [r] = await sql<StakeRow[]>`SELECT ${stakeCols} FROM stakes WHERE id = ${id.toLowerCase()}`;
      return r ?? null;
    },
    async listStakes(address, role, limit) {
      const a = address.toLowerCase();
      if (role === 'sent')
        return sql<
          StakeRow[]
        >`SELECT ${stakeCols} FROM stakes WHERE sender = ${a} ORDER BY created_at DESC LIMIT ${limit}`;
      if (role === 'received')
        return sql<
          StakeRow[]
        >`SELECT ${stakeCols} FROM stakes WHERE recipient = ${a} ORDER BY created_at DESC LIMIT ${limit}`;
      return sql<
        StakeRow[]
      >`SELECT ${stakeCols} FROM stakes WHERE sender = ${a} OR recipient = ${a} ORDER BY created_at DESC LIMIT ${limit}`;
    },
    async setStakeStatus(id, status) {
      await sql`UPDATE stakes SET status = ${status} WHERE id = ${id.toLowerCase()}`;
    },
    async setReleaseSignature(id, signature) {
      await sql`UPDATE stakes SET release_signature = ${signature.toLowerCase()} WHERE id = ${id.toLowerCase()}`;
    },
  };
}
