import type Database from 'better-sqlite3';
import type { UnknownSenders } from '../../../../shared/api/account.js';
import { LIMITS } from '../../../../shared/api/common.js';
import { StoreError, type AccountRow } from '../store.js';
import { bareHandle } from '../../../../shared/identity-patterns.js';
import type { AccountsPart } from '../store-parts.js';
import { likeFragment } from '../like-pattern.js';
import { tooManyEntries } from '../limit-refusals.js';

interface AccountRecord {
  address: string;
  handle: string | null;
  handleClaimedAt: number | null;
  verified: number;
  unknownSenders: UnknownSenders;
  stake: string | null;
}

const ACCOUNT_COLUMNS = `address, handle, handle_claimed_at AS handleClaimedAt, verified, unknown_senders AS unknownSenders, stake`;

const toAccount = (r: AccountRecord): AccountRow => ({ ...r, verified: r.verified === 1 });

export function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Sign-in challenges, accounts and handles, the directory, policy, contacts, operator grants. */
export function accountsPart(db: Database.Database): AccountsPart {
  const s = {
    insertChallenge: db.prepare<[string, string, string, number]>(
      `INSERT INTO challenges (nonce, address, message, expires_at) VALUES (?, ?, ?, ?)`,
    ),
    pruneChallenges: db.prepare<[number]>(`DELETE FROM challenges WHERE expires_at < ?`),
    consumeChallenge: db.prepare<[number, string, number], { address: string; message: string }>(
      `UPDATE challenges SET used_at = ? WHERE nonce = ? AND used_at IS NULL AND expires_at > ? RETURNING address, message`,
    ),
    account: db.prepare<[string], AccountRecord>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE address = ?`),
    byHandle: db.prepare<[string], AccountRecord>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE handle = ?`),
    // An unchanged handle keeps its claim time; a new one is a new claim.
    setHandle: db.prepare<[string, string, number]>(
      `INSERT INTO accounts (address, handle, handle_claimed_at) VALUES (?, ?, ?)
       ON CONFLICT (address) DO UPDATE SET
         handle_claimed_at = CASE WHEN handle IS excluded.handle THEN handle_claimed_at ELSE excluded.handle_claimed_at END,
         handle = excluded.handle`,
    ),
    recentClaims: db.prepare<[number], AccountRecord>(
      `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE handle IS NOT NULL
       ORDER BY handle_claimed_at DESC, rowid DESC LIMIT ?`,
    ),
    search: db.prepare<{ q: string; pattern: string; limit: number }, AccountRecord>(
      `SELECT ${ACCOUNT_COLUMNS} FROM accounts
       WHERE handle IS NOT NULL AND (handle LIKE :pattern ESCAPE '\\' OR address LIKE :pattern ESCAPE '\\')
       ORDER BY handle = :q DESC, handle_claimed_at DESC, rowid DESC LIMIT :limit`,
    ),
    setPolicy: db.prepare<[string, UnknownSenders, string | null]>(
      `INSERT INTO accounts (address, unknown_senders, stake) VALUES (?, ?, ?)
       ON CONFLICT (address) DO UPDATE SET unknown_senders = excluded.unknown_senders, stake = excluded.stake`,
    ),
    entitlements: db.prepare<[string], string>(`SELECT name FROM entitlements WHERE address = ? ORDER BY name`).pluck(),
    grant: db.prepare<[string, string, number]>(
      `INSERT INTO entitlements (address, name, granted_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    revokeEntitlement: db.prepare<[string, string]>(`DELETE FROM entitlements WHERE address = ? AND name = ?`),
    addContact: db.prepare<[string, 'allow' | 'block', string]>(
      `INSERT INTO contacts (owner, kind, other) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    removeContact: db.prepare<[string, 'allow' | 'block', string]>(
      `DELETE FROM contacts WHERE owner = ? AND kind = ? AND other = ?`,
    ),
    listSize: db
      .prepare<[string, 'allow' | 'block', string], number>(
        `SELECT count(*) FROM contacts WHERE owner = ? AND kind = ? AND other <> ?`,
      )
      .pluck(),
    contacts: db.prepare<[string], { kind: 'allow' | 'block'; other: string }>(
      `SELECT kind, other FROM contacts WHERE owner = ? ORDER BY kind, other`,
    ),
    setVerified: db.prepare<[number, string]>(`UPDATE accounts SET verified = ? WHERE address = ?`),
  };

  const createChallenge = db.transaction(
    (c: { nonce: string; address: string; message: string; expiresAt: number }) => {
      // Challenges that had expired before this one was issued can never be used again.
      s.pruneChallenges.run(c.expiresAt - LIMITS.challengeTtlMs);
      s.insertChallenge.run(c.nonce, c.address.toLowerCase(), c.message, c.expiresAt);
    },
  );

  const setHandle = db.transaction((address: string, handle: string, now: number): AccountRow => {
    try {
      s.setHandle.run(address, handle, now);
    } catch (e) {
      if (isUniqueViolation(e)) throw new StoreError('handle-taken', `handle ${handle} is taken`);
      throw e;
    }
    return toAccount(s.account.get(address)!);
  });

  // `which` names the list touched; kind null removes the address from it, a kind (re)files it there.
  const setContact = db.transaction(
    (owner: string, other: string, kind: 'allow' | 'block' | null, which: 'allow' | 'block', maxEntries: number) => {
      if (kind !== null && s.listSize.get(owner, kind, other)! >= maxEntries) throw tooManyEntries(kind, maxEntries);
      s.removeContact.run(owner, which, other);
      if (kind !== null) s.addContact.run(owner, kind, other);
    },
  );

  return {
    async createChallenge(c) {
      createChallenge.immediate(c);
    },
    async consumeChallenge(nonce, now) {
      const row = s.consumeChallenge.get(now, nonce, now);
      if (!row) throw new StoreError('nonce-invalid', 'sign-in nonce is unknown, used or expired');
      return row;
    },
    async getAccount(address) {
      const r = s.account.get(address.toLowerCase());
      return r ? toAccount(r) : null;
    },
    async setHandle(address, handle, now) {
      return setHandle.immediate(address.toLowerCase(), handle.toLowerCase(), now);
    },
    async findHandle(handle) {
      const r = s.byHandle.get(handle.toLowerCase());
      return r ? toAccount(r) : null;
    },
    async searchDirectory(q, limit) {
      const query = bareHandle((q ?? '').trim()).toLowerCase();
      const rows =
        query === '' ? s.recentClaims.all(limit) : s.search.all({ q: query, pattern: likeFragment(query), limit });
      return rows.map(toAccount);
    },
    async setPolicy(address, unknownSenders, stake) {
      s.setPolicy.run(address.toLowerCase(), unknownSenders, stake);
    },
    async getEntitlements(address) {
      return s.entitlements.all(address.toLowerCase());
    },
    async setContact(owner, other, kind, which, maxEntries = Infinity) {
      setContact.immediate(owner.toLowerCase(), other.toLowerCase(), kind, which, maxEntries);
    },
    async getContacts(owner) {
      const result = { allowed: [] as string[], blocked: [] as string[] };
      for (const r of s.contacts.all(owner.toLowerCase()))
        (r.kind === 'allow' ? result.allowed : result.blocked).push(r.other);
      return result;
    },
    async setVerified(address, verified) {
      return s.setVerified.run(verified ? 1 : 0, address.toLowerCase()).changes > 0;
    },
    async grantEntitlement(address, name) {
      s.grant.run(address.toLowerCase(), name, Date.now());
    },
    async revokeEntitlement(address, name) {
      return s.revokeEntitlement.run(address.toLowerCase(), name).changes > 0;
    },
  };
}

/** Creates the account row the foreign keys of devices and API keys point at. */
export function ensureAccountStatement(db: Database.Database): Database.Statement<[string]> {
  return db.prepare<[string]>(`INSERT INTO accounts (address) VALUES (?) ON CONFLICT (address) DO NOTHING`);
}
