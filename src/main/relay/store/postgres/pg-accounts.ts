import type { AccountsPart } from '../store-parts.js';
import { LIMITS } from '../../../../shared/api/common.js';
import { likeFragment } from '../like-pattern.js';
import { isUniqueViolation, type PgSql } from './pg-client.js';
import { StoreError, type AccountRow } from '../store.js';
import { tooManyEntries } from '../limit-refusals.js';

export const PG_ACCOUNT_COLUMNS = `address, handle, handle_claimed_at AS "handleClaimedAt", verified, unknown_senders AS "unknownSenders", stake`;

/** Sign-in challenges, accounts and handles, the directory, policy, contacts, operator grants (PostgreSQL). */
export function pgAccountsPart(sql: PgSql): AccountsPart {
  const account = async (where: 'address' | 'handle', value: string): Promise<AccountRow | null> => {
    const [r] = await sql.unsafe<AccountRow[]>(
      `SELECT ${PG_ACCOUNT_COLUMNS} FROM accounts WHERE ${where} = $1`,
      [value],
      { prepare: true },
    );
    return r ?? null;
  };

  return {
    async createChallenge(c) {
      // Challenges that had expired before this one was issued can never be used again.
      await sql.begin((tx) => [
        tx`DELETE FROM challenges WHERE expires_at < ${c.expiresAt - LIMITS.challengeTtlMs}`,
        tx`INSERT INTO challenges (nonce, address, message, expires_at) VALUES (${c.nonce}, ${c.address.toLowerCase()}, ${c.message}, ${c.expiresAt})`,
      ]);
    },
    async consumeChallenge(nonce, now) {
      const [row] = await sql<{ address: string; message: string }[]>`
        UPDATE challenges SET used_at = ${now} WHERE nonce = ${nonce} AND used_at IS NULL AND expires_at > ${now} RETURNING address, message`;
      if (!row) throw new StoreError('nonce-invalid', 'sign-in nonce is unknown, used or expired');
      return row;
    },
    getAccount: (address) => account('address', address.toLowerCase()),
    async setHandle(address, handle, now) {
      const a = address.toLowerCase();
      const h = handle.toLowerCase();
      try {
        // An unchanged handle keeps its claim time; a new one is a new claim.
        const [r] = await sql<AccountRow[]>`
          INSERT INTO accounts (address, handle, handle_claimed_at) VALUES (${a}, ${h}, ${now})
          ON CONFLICT (address) DO UPDATE SET
            handle_claimed_at = CASE WHEN accounts.handle IS NOT DISTINCT FROM excluded.handle THEN accounts.handle_claimed_at ELSE excluded.handle_claimed_at END,
            handle = excluded.handle
          RETURNING ${sql.unsafe(PG_ACCOUNT_COLUMNS)}`;
        return r;
      } catch (e) {
        if (isUniqueViolation(e)) throw new StoreError('handle-taken', `handle ${h} is taken`);
        throw e;
      }
    },
    findHandle: (handle) => account('handle', handle.toLowerCase()),
    async searchDirectory(q, limit) {
      const query = (q ?? '').trim().replace(/^@/, '').toLowerCase();
      if (query === '') {
        return sql<AccountRow[]>`SELECT ${sql.unsafe(PG_ACCOUNT_COLUMNS)} FROM accounts WHERE handle IS NOT NULL
          ORDER BY handle_claimed_at DESC, seq DESC LIMIT ${limit}`;
      }
      const pattern = likeFragment(query);
      return sql<AccountRow[]>`SELECT ${sql.unsafe(PG_ACCOUNT_COLUMNS)} FROM accounts
        WHERE handle IS NOT NULL AND (handle LIKE ${pattern} ESCAPE '\\' OR address LIKE ${pattern} ESCAPE '\\')
        ORDER BY handle = ${query} DESC, handle_claimed_at DESC, seq DESC LIMIT ${limit}`;
    },
    async setPolicy(address, unknownSenders, stake) {
      await sql`INSERT INTO accounts (address, unknown_senders, stake) VALUES (${address.toLowerCase()}, ${unknownSenders}, ${stake})
        ON CONFLICT (address) DO UPDATE SET unknown_senders = excluded.unknown_senders, stake = excluded.stake`;
    },
    async getEntitlements(address) {
      const rows = await sql<
        { name: string }[]
      >`SELECT name FROM entitlements WHERE address = ${address.toLowerCase()} ORDER BY name`;
      return rows.map((r) => r.name);
    },
    async setContact(owner, other, kind, which, maxEntries = Infinity) {
      const o = owner.toLowerCase();
      const x = other.toLowerCase();
      // `which` names the list touched; kind null removes the address from it, a kind (re)files it there.
      await sql.begin(async (tx) => {
        if (kind !== null && maxEntries !== Infinity) {
          // one wallet's list changes one at a time, so two concurrent additions cannot both pass the count
          await tx`SELECT pg_advisory_xact_lock(hashtextextended(${'contacts:' + o}, 0))`;
          const [{ n }] = await tx<
            { n: number }[]
          >`SELECT count(*)::int AS n FROM contacts WHERE owner = ${o} AND kind = ${kind} AND other <> ${x}`;
          if (n >= maxEntries) throw tooManyEntries(kind, maxEntries);
        }
        await tx`DELETE FROM contacts WHERE owner = ${o} AND kind = ${which} AND other = ${x}`;
        if (kind !== null)
          await tx`INSERT INTO contacts (owner, kind, other) VALUES (${o}, ${kind}, ${x}) ON CONFLICT DO NOTHING`;
      });
    },
    async getContacts(owner) {
      const result = { allowed: [] as string[], blocked: [] as string[] };
      const rows = await sql<
        { kind: 'allow' | 'block'; other: string }[]
      >`SELECT kind, other FROM contacts WHERE owner = ${owner.toLowerCase()} ORDER BY kind, other`;
      for (const r of rows) (r.kind === 'allow' ? result.allowed : result.blocked).push(r.other);
      return result;
    },
    async setVerified(address, verified) {
      return (await sql`UPDATE accounts SET verified = ${verified} WHERE address = ${address.toLowerCase()}`).count > 0;
    },
    async grantEntitlement(address, name) {
      await sql`INSERT INTO entitlements (address, name, granted_at) VALUES (${address.toLowerCase()}, ${name}, ${Date.now()}) ON CONFLICT DO NOTHING`;
    },
    async revokeEntitlement(address, name) {
      return (
        (await sql`DELETE FROM entitlements WHERE address = ${address.toLowerCase()} AND name = ${name}`).count > 0
      );
    },
  };
}
