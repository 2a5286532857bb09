import type { AccountDeletion, Admission, InviteRow, UserRow } from '../moderation-rows.js';
import type { ModerationPart } from '../store-parts.js';
import type { PgSql } from './pg-client.js';

const INVITE_COLUMNS = `code, uses_left AS "usesLeft", expires_at AS "expiresAt", revoked_at AS "revokedAt", created_at AS "createdAt"`;

/** Who may sign in, invite codes, suspension and the list of users (PostgreSQL). */
export function pgModerationPart(sql: PgSql): ModerationPart {
  return {
    async admitSignIn(address, { mode, invite, now }) {
      const a = address.toLowerCase();
      return sql.begin(async (tx): Promise<Admission> => {
        // Locked, so that a suspension on another node cannot pass between the look and the update.
        const [known] = await tx<
          { suspendedAt: number | null }[]
        >`SELECT suspended_at AS "suspendedAt" FROM accounts WHERE address = ${a} FOR UPDATE`;
        if (known) {
          if (known.suspendedAt !== null) return 'suspended';
          await tx`UPDATE accounts SET last_sign_in_at = ${now} WHERE address = ${a}`;
          return 'admitted';
        }
        if (mode === 'closed') return 'registration-closed';
        if (mode === 'invite') {
          if (invite === null) return 'invite-required';
          // One use of a live code, or nothing: two nodes spending the last use cannot both succeed.
          const spent = await tx`UPDATE invites SET uses_left = uses_left - 1
            WHERE code = ${invite} AND revoked_at IS NULL AND uses_left > 0 AND (expires_at IS NULL OR expires_at > ${now})`;
          if (spent.count === 0) return 'invite-invalid';
        }
        await tx`INSERT INTO accounts (address, last_sign_in_at) VALUES (${a}, ${now})
          ON CONFLICT (address) DO UPDATE SET last_sign_in_at = excluded.last_sign_in_at`;
        return 'admitted';
      });
    },
    async createInvite(i) {
      await sql`INSERT INTO invites (code, uses_left, expires_at, created_at) VALUES (${i.code}, ${i.uses}, ${i.expiresAt}, ${i.now})`;
      return { code: i.code, usesLeft: i.uses, expiresAt: i.expiresAt, revokedAt: null, createdAt: i.now };
    },
    async listInvites() {
      return sql<InviteRow[]>`SELECT ${sql.unsafe(INVITE_COLUMNS)} FROM invites ORDER BY created_at DESC, code`;
    },
    async revokeInvite(code, now) {
      return (await sql`UPDATE invites SET revoked_at = coalesce(revoked_at, ${now}) WHERE code = ${code}`).count > 0;
    },
    async setSuspended(address, suspended, reason, now) {
      const a = address.toLowerCase();
      if (!suspended)
        return (
          (await sql`UPDATE accounts SET suspended_at = NULL, suspended_reason = NULL WHERE address = ${a}`).count > 0
        );
      return sql.begin(async (tx) => {
        const done =
          await tx`UPDATE accounts SET suspended_at = coalesce(suspended_at, ${now}), suspended_reason = ${reason} WHERE address = ${a}`;
        if (done.count === 0) return false;
        await tx`UPDATE api_keys SET revoked_at = ${now} WHERE address = ${a} AND revoked_at IS NULL`;
        // Tokens of the wallet's groups post as it, so they stop with its keys.
        await tx`UPDATE bot_tokens SET revoked_at = ${now} WHERE revoked_at IS NULL
          AND group_id IN (SELECT id FROM chat_groups WHERE creator_address = ${a})`;
        return true;
      });
    },
    async deleteAccount(address) {
      const a = address.toLowerCase();
      return sql.begin(async (tx): Promise<AccountDeletion | null> => {
        const [known] = await tx`SELECT 1 FROM accounts WHERE address = ${a} FOR UPDATE`;
        if (!known) return null;
        let groupsPassed = 0;
        let groupsDeleted = 0;
        const groups = await tx<{ id: string }[]>`SELECT id FROM chat_groups WHERE creator_address = ${a} FOR UPDATE`;
        for (const { id } of groups) {
          // its tokens post as the creator: none may go on posting as the wallet's successor
          await tx`DELETE FROM bot_tokens WHERE group_id = ${id}`;
          const [next] = await tx<{ address: string }[]>`SELECT address FROM group_members
            WHERE group_id = ${id} AND is_admin AND address <> ${a} ORDER BY joined_at, address LIMIT 1`;
          if (next) {
            await tx`UPDATE chat_groups SET creator_address = ${next.address} WHERE id = ${id}`;
            groupsPassed++;
            continue;
          }
          await tx`DELETE FROM envelopes WHERE group_id = ${id}`;
          await tx`DELETE FROM group_invitations WHERE group_id = ${id}`;
          await tx`DELETE FROM group_members WHERE group_id = ${id}`;
          await tx`DELETE FROM chat_groups WHERE id = ${id}`;
          groupsDeleted++;
        }
        await tx`DELETE FROM group_members WHERE address = ${a}`;
        await tx`DELETE FROM group_invitations WHERE address = ${a} OR invited_by = ${a}`;
        await tx`DELETE FROM envelopes WHERE recipient = ${a}`;
        await tx`DELETE FROM api_keys WHERE address = ${a}`;
        await tx`DELETE FROM devices WHERE address = ${a}`;
        await tx`DELETE FROM entitlements WHERE address = ${a}`;
        await tx`DELETE FROM contacts WHERE owner = ${a}`;
        await tx`DELETE FROM sent_before WHERE sender = ${a} OR recipient = ${a}`;
        const blobs = await tx<{ id: string }[]>`DELETE FROM blobs WHERE uploader = ${a} RETURNING id`;
        await tx`DELETE FROM accounts WHERE address = ${a}`;
        return { blobIds: blobs.map((b) => b.id), groupsPassed, groupsDeleted };
      });
    },
    async listUsers() {
      const rows = await sql<(Omit<UserRow, 'state'> & { suspended: boolean })[]>`
        SELECT a.address, a.handle,
          (SELECT count(*) FROM devices d WHERE d.address = a.address AND d.revoked_at IS NULL)::int AS devices,
          a.last_sign_in_at AS "lastSignIn",
          (SELECT count(*) FROM envelopes e WHERE e.recipient = a.address)::int AS queued,
          a.suspended_at IS NOT NULL AS suspended
        FROM accounts a ORDER BY a.seq`;
      return rows.map(({ suspended, ...u }) => ({ ...u, state: suspended ? 'suspended' : 'active' }));
    },
  };
}
