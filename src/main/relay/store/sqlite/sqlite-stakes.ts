import type Database from 'better-sqlite3';
import type { StakeStatus } from '../../../../shared/stake/stake-types.js';
import type { StakeQuoteRow, StakeRow } from '../store.js';
import type { StakesPart } from '../store-parts.js';

/** Expired quotes stay a day, so that a late send hears `expired-quote` rather than `not-found`. */
const QUOTE_GRACE_MS = 24 * 60 * 60 * 1000;

const QUOTE_COLUMNS = `ref, sender, recipient, amount_wei AS amountWei, min_deadline AS minDeadline, max_deadline AS maxDeadline,
  created_at AS createdAt, expires_at AS expiresAt`;
const STAKE_COLUMNS = `id, ref, chain_id AS chainId, escrow, sender, recipient, amount_wei AS amountWei, deadline, status,
  release_signature AS releaseSignature, created_at AS createdAt`;

export const STAKE_SQL = {
  insertQuote: `INSERT INTO stake_quotes (ref, sender, recipient, amount_wei, min_deadline, max_deadline, created_at, expires_at)
    VALUES (:ref, :sender, :recipient, :amountWei, :minDeadline, :maxDeadline, :createdAt, :expiresAt)`,
  dropExpiredQuotes: `DELETE FROM stake_quotes WHERE ref IN (SELECT ref FROM stake_quotes WHERE expires_at < ? LIMIT 100)`,
  getQuote: `SELECT ${QUOTE_COLUMNS} FROM stake_quotes WHERE ref = ?`,
  /** Run inside a delivery: no change means the ref (or the id) already opened a request. */
  insertStake: `INSERT INTO stakes (id, ref, chain_id, escrow, sender, recipient, amount_wei, deadline, status, release_signature, created_at)
    VALUES (:id, :ref, :chainId, :escrow, :sender, :recipient, :amountWei, :deadline, :status, NULL, :createdAt) ON CONFLICT DO NOTHING`,
  getStake: `SELECT ${STAKE_COLUMNS} FROM stakes WHERE id = ?`,
  listSent: `SELECT ${STAKE_COLUMNS} FROM stakes WHERE sender = ? ORDER BY created_at DESC LIMIT ?`,
  listReceived: `SELECT ${STAKE_COLUMNS} FROM stakes WHERE recipient = ? ORDER BY created_at DESC LIMIT ?`,
  listBoth: `SELECT ${STAKE_COLUMNS} FROM stakes WHERE sender = ? OR recipient = ? ORDER BY created_at DESC LIMIT ?`,
  setStatus: `UPDATE stakes SET status = ? WHERE id = ?`,
  setReleaseSignature: `UPDATE stakes SET release_signature = ? WHERE id = ?`,
} as const;

export function stakesPart(db: Database.Database): StakesPart {
  const s = {
    insertQuote: db.prepare<[StakeQuoteRow]>(STAKE_SQL.insertQuote),
    dropExpiredQuotes: db.prepare<[number]>(STAKE_SQL.dropExpiredQuotes),
    getQuote: db.prepare<[string], StakeQuoteRow>(STAKE_SQL.getQuote),
    getStake: db.prepare<[string], StakeRow>(STAKE_SQL.getStake),
    listSent: db.prepare<[string, number], StakeRow>(STAKE_SQL.listSent),
    listReceived: db.prepare<[string, number], StakeRow>(STAKE_SQL.listReceived),
    listBoth: db.prepare<[string, string, number], StakeRow>(STAKE_SQL.listBoth),
    setStatus: db.prepare<[StakeStatus, string]>(STAKE_SQL.setStatus),
    setReleaseSignature: db.prepare<[string, string]>(STAKE_SQL.setReleaseSignature),
  };
  return {
    async createStakeQuote(q) {
      s.dropExpiredQuotes.run(q.createdAt - QUOTE_GRACE_MS);
      s.insertQuote.run(q);
    },
    async getStakeQuote(ref) {
      return s.getQuote.get(ref.toLowerCase()) ?? null;
    },
    async getStake(id) {
      return s.getStake.get(id.toLowerCase()) ?? null;
    },
    async listStakes(address, role, limit) {
      const a = address.toLowerCase();
      return role === 'sent'
        ? s.listSent.all(a, limit)
        : role === 'received'
          ? s.listReceived.all(a, limit)
          : s.listBoth.all(a, a, limit);
    },
    async setStakeStatus(id, status) {
      s.setStatus.run(status, id.toLowerCase());
    },
    async setReleaseSignature(id, signature) {
      s.setReleaseSignature.run(signature.toLowerCase(), id.toLowerCase());
    },
  };
}
