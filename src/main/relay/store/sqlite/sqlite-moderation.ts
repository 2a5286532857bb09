import type Database from 'better-sqlite3';
import type { AccountDeletion, Admission, InviteRow, UserRow } from '../moderation-rows.js';
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

  const d = {
    exists: db.prepare<[string], number>(`SELECT 1 FROM accounts WHERE address = ?`).pluck(),
    created: db.prepare<[string], string>(`SELECT id FROM chat_groups WHERE creator_address = ?`).pluck(),
    successor: db
      .prepare<[string, string], string>(
        `SELECT address FROM group_members WHERE group_id = ? AND is_admin = 1 AND address <> ?
         ORDER BY joined_at, address LIMIT 1`,
      )
      .pluck(),
    passGroup: db.prepare<[string, string]>(`UPDATE chat_groups SET creator_address = ? WHERE id = ?`),
    groupTokens: db.prepare<[string]>(`DELETE FROM bot_tokens WHERE group_id = ?`),
    groupQueue: db.prepare<[string]>(`DELETE FROM envelopes WHERE group_id = ?`),
    groupInvitations: db.prepare<[string]>(`DELETE FROM group_invitations WHERE group_id = ?`),
    groupMembers: db.prepare<[string]>(`DELETE FROM group_members WHERE group_id = ?`),
    group: db.prepare<[string]>(`DELETE FROM chat_groups WHERE id = ?`),
    rest: [
      `DELETE FROM group_members WHERE address = ?`,
      `DELETE FROM group_invitations WHERE ? IN (address, invited_by)`,
      `DELETE FROM envelopes WHERE recipient = ?`,
      `DELETE FROM api_keys WHERE address = ?`,
      `DELETE FROM devices WHERE address = ?`,
      `DELETE FROM entitlements WHERE address = ?`,
      `DELETE FROM contacts WHERE owner = ?`,
      `DELETE FROM sent_before WHERE ? IN (sender, recipient)`,
    ].map((q) => db.prepare<[string]>(q)),
    blobs: db.prepare<[string], string>(`DELETE FROM blobs WHERE uploader = ? RETURNING id`).pluck(),
    account: db.prepare<[string]>(`DELETE FROM accounts WHERE address = ?`),
  };
  const deleteAccount = db.transaction((address: string): AccountDeletion | null => {
    if (!d.exists.get(address)) return null;
    let groupsPassed = 0;
    let groupsDeleted = 0;
    for (const id of d.created.all(address)) {
      // its tokens post as the creator: none may go on posting as the wallet's successor
      d.groupTokens.run(id);
      const next = d.successor.get(id, address);
      if (next) {
        d.passGroup.run(next, id);
        groupsPassed++;
        continue;
      }
      d.groupQueue.run(id);
      d.groupInvitations.run(id);
      d.groupMembers.run(id);
      d.group.run(id);
      groupsDeleted++;
    }
    for (const statement of d.rest) statement.run(address);
    const blobIds = d.blobs.all(address);
    d.account.run(address);
    return { blobIds, groupsPassed, groupsDeleted };
  });

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
    async deleteAccount(address) {
      return deleteAccount.immediate(address.toLowerCase());
    },
    async listUsers() {
      return s.users.all().map(({ suspended, ...u }) => ({ ...u, state: suspended ? 'suspended' : 'active' }));
    },
  };
}
