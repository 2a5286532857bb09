import type Database from 'better-sqlite3';
import type { Admission, InviteRow, UserRow } from '../moderation-rows.js';
import type { ModerationPart } from '../store-parts.js';

const INVITE_COLUMNS = `code, uses_left AS usesLeft, expires_at AS expiresAt, revoked_at AS revokedAt, created_at AS createdAt`;

/** Who may sign in, invite codes, suspension and the list of users (SQLite). */
export function moderationPart(db: Database.Database): ModerationPart {
  const s = {
    standing: db.prepare<[string], { suspendedAt: number | null }>(
      `SELECT suspended_at AS suspendedAt FROM accounts WHERE address = ?`,
    ),
    signedIn: db.prepare<[number, string]>(`UPDATE accounts SET last_sign_in_at = ? WHERE address = ?`),
    newAccount: db.prepare<[string, number]>(`INSERT INTO accounts (address, last_sign_in_at) VALUES (?, ?)`),
    // One use of a live code, or nothing: the row is the whole check.
    spendInvite: db.prepare<[string, number]>(
      `UPDATE invites SET uses_left = uses_left - 1
       WHERE code = ? AND revoked_at IS NULL AND uses_left > 0 AND (expires_at IS NULL OR expires_at > ?)`,
    ),
    insertInvite: db.prepare<[string, number, number | null, number]>(
      `INSERT INTO invites (code, uses_left, expires_at, created_at) VALUES (?, ?, ?, ?)`,
    ),
    invites: db.prepare<[], InviteRow>(`SELECT ${INVITE_COLUMNS} FROM invites ORDER BY created_at DESC, rowid DESC`),
    revokeInvite: db.prepare<[number, string]>(
      `UPDATE invites SET revoked_at = coalesce(revoked_at, ?) WHERE code = ?`,
    ),
    suspend: db.prepare<[number, string | null, string]>(
      `UPDATE accounts SET suspended_at = coalesce(suspended_at, ?), suspended_reason = ? WHERE address = ?`,
    ),
    unsuspend: db.prepare<[string]>(
      `UPDATE accounts SET suspended_at = NULL, suspended_reason = NULL WHERE address = ?`,
    ),
    revokeKeys: db.prepare<[number, string]>(
      `UPDATE api_keys SET revoked_at = ? WHERE address = ? AND revoked_at IS NULL`,
    ),
    // Tokens of the wallet's groups post as it, so they stop with its keys.
    revokeTokens: db.prepare<[number, string]>(
      `UPDATE bot_tokens SET revoked_at = ? WHERE revoked_at IS NULL
         AND group_id IN (SELECT id FROM chat_groups WHERE creator_address = ?)`,
    ),
    users: db.prepare<[], Omit<UserRow, 'state'> & { suspended: number }>(
      `SELECT a.address, a.handle,
         (SELECT count(*) FROM devices d WHERE d.address = a.address AND d.revoked_at IS NULL) AS devices,
         a.last_sign_in_at AS lastSignIn,
         (SELECT count(*) FROM envelopes e WHERE e.recipient = a.address) AS queued,
         a.suspended_at IS NOT NULL AS suspended
       FROM accounts a ORDER BY a.rowid`,
    ),
  };

  const admit = db.transaction((address: string, mode: string, invite: string | null, now: number): Admission => {
    const known = s.standing.get(address);
    if (known) {
      if (known.suspendedAt !== null) return 'suspended';
      s.signedIn.run(now, address);
      return 'admitted';
    }
    if (mode === 'closed') return 'registration-closed';
    if (mode === 'invite') {
      if (invite === null) return 'invite-required';
      if (s.spendInvite.run(invite, now).changes === 0) return 'invite-invalid';
    }
    s.newAccount.run(address, now);
    return 'admitted';
  });

  const setSuspended = db.transaction((address: string, on: boolean, reason: string | null, now: number) => {
    if (!on) return s.unsuspend.run(address).changes > 0;
    if (s.suspend.run(now, reason, address).changes === 0) return false;
    s.revokeKeys.run(now, address);
    s.revokeTokens.run(now, address);
    return true;
  });

  return {
    async admitSignIn(address, rule) {
      return admit.immediate(address.toLowerCase(), rule.mode, rule.invite, rule.now);
    },
    async createInvite(i) {
      s.insertInvite.run(i.code, i.uses, i.expiresAt, i.now);
      return { code: i.code, usesLeft: i.uses, expiresAt: i.expiresAt, revokedAt: null, createdAt: i.now };
    },
    async listInvites() {
      return s.invites.all();
    },
    async revokeInvite(code, now) {
      return s.revokeInvite.run(now, code).changes > 0;
    },
    async setSuspended(address, suspended, reason, now) {
      return setSuspended.immediate(address.toLowerCase(), suspended, reason, now);
    },
    async listUsers() {
      return s.users.all().map(({ suspended, ...u }) => ({ ...u, state: suspended ? 'suspended' : 'active' }));
    },
  };
}
