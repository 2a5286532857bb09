import type { GroupsPart } from '../store-parts.js';
import type { UnknownSenders } from '../../../../shared/api/account.js';
import { routeGroupAdd } from '../../routing.js';
import { isForeignKeyViolation, type PgSql, type PgTx } from './pg-client.js';
import { PG_DEVICE_COLUMNS } from './pg-credentials.js';
import { RECIPIENT_LOCKS } from './queue/pg-delivery-batch.js';
import { invitationsPending, tooManyGroups, tooManyTokens } from '../limit-refusals.js';
import {
  StoreError,
  type BotTokenRow,
  type DeviceRow,
  type GroupRole,
  type GroupRow,
  type InvitationRow,
} from '../store.js';

const GROUP_COLUMNS = `g.id, g.name, g.is_public AS "isPublic", g.verified, g.password_hash AS "passwordHash", g.avatar,
  g.creator_address AS "creatorAddress", g.created_at AS "createdAt",
  (SELECT count(*)::int FROM group_members m WHERE m.group_id = g.id) AS "memberCount"`;
const BOT_TOKEN_COLUMNS = `id, group_id AS "groupId", name, prefix, created_at AS "createdAt", revoked_at AS "revokedAt", minted_by AS "mintedBy"`;

/** The namespace (first key) of the per-creator locks that make the group count and the insert one step. */
const CREATOR_LOCKS = 0x67726f75; // "grou"

/** Stands in for "no cursor": every real (created_at, seq) sorts below it. */
const NO_CURSOR = { createdAt: Number.MAX_SAFE_INTEGER, seq: Number.MAX_SAFE_INTEGER };

/** Groups, their members and their bot tokens (PostgreSQL). */
export function pgGroupsPart(sql: PgSql): GroupsPart {
  const groupCols = sql.unsafe(GROUP_COLUMNS);
  const tokenCols = sql.unsafe(BOT_TOKEN_COLUMNS);
  const id = (groupId: string) => groupId.toLowerCase();

  const getGroup = async (q: PgSql | PgTx, groupId: string): Promise<GroupRow | null> => {
    const [r] = await q<GroupRow[]>`SELECT ${groupCols} FROM chat_groups g WHERE g.id = ${groupId}`;
    return r ?? null;
  };
  const join = (tx: PgTx, groupId: string, address: string, now: number) => [
    tx`INSERT INTO group_members (group_id, address, joined_at) VALUES (${groupId}, ${address}, ${now}) ON CONFLICT DO NOTHING`,
    tx`DELETE FROM group_invitations WHERE group_id = ${groupId} AND address = ${address}`,
  ];
  const revokeMintedBy = (tx: PgTx, groupId: string, minter: string, now: number) =>
    tx`UPDATE bot_tokens SET revoked_at = ${now} WHERE group_id = ${groupId} AND minted_by = ${minter} AND revoked_at IS NULL`;
  /** The group's row, locked for the rest of the transaction: membership changes of one group run one at a time. */
  const lockGroup = async (tx: PgTx, groupId: string) => {
    const [g] = await tx<
      { creatorAddress: string }[]
    >`SELECT creator_address AS "creatorAddress" FROM chat_groups WHERE id = ${groupId} FOR UPDATE`;
    return g ?? null;
  };
  const isMember = async (q: PgSql | PgTx, groupId: string, address: string) =>
    (await q`SELECT 1 FROM group_members WHERE group_id = ${groupId} AND address = ${address}`).length > 0;

  return {
    async createGroup(g, maxPerCreator = Infinity) {
      const gid = id(g.id);
      const creator = g.creatorAddress.toLowerCase();
      return sql.begin(async (tx) => {
        if (Number.isFinite(maxPerCreator)) {
          // Two nodes creating the creator's last allowed group at once: the second waits, then counts it.
          await tx`SELECT pg_advisory_xact_lock(${CREATOR_LOCKS}, hashtext(${creator}))`;
          const [{ n }] = await tx<
            { n: number }[]
          >`SELECT count(*)::int AS n FROM chat_groups WHERE creator_address = ${creator}`;
          if (n >= maxPerCreator) throw tooManyGroups(maxPerCreator);
        }
        await tx`INSERT INTO chat_groups (id, name, is_public, password_hash, avatar, creator_address, created_at)
          VALUES (${gid}, ${g.name}, ${g.isPublic}, ${g.passwordHash}, ${g.avatar}, ${creator}, ${g.now})`;
        await tx`INSERT INTO group_members (group_id, address, joined_at) VALUES (${gid}, ${creator}, ${g.now})`;
        return (await getGroup(tx, gid))!;
      });
    },
    getGroup: (groupId) => getGroup(sql, id(groupId)),
    async patchGroup(groupId, p) {
      const gid = id(groupId);
      const done = await sql`UPDATE chat_groups SET
          name = CASE WHEN ${p.name !== undefined} THEN ${p.name ?? null}::text ELSE name END,
          is_public = CASE WHEN ${p.isPublic !== undefined} THEN ${p.isPublic ?? null}::boolean ELSE is_public END,
          password_hash = CASE WHEN ${p.passwordHash !== undefined} THEN ${p.passwordHash ?? null}::text ELSE password_hash END,
          avatar = CASE WHEN ${p.avatar !== undefined} THEN ${p.avatar ?? null}::text ELSE avatar END
        WHERE id = ${gid}`;
      if (done.count === 0) throw new StoreError('not-found', 'no such group');
      return (await getGroup(sql, gid))!;
    },
    async listGroups({ mine, limit, before }) {
      let cursor = NO_CURSOR;
      if (before !== null) {
        // An unknown cursor yields an empty page rather than restarting from the newest.
        const [c] = await sql<
          { createdAt: number; seq: number }[]
        >`SELECT created_at AS "createdAt", seq FROM chat_groups WHERE id = ${id(before)}`;
        if (!c) return [];
        cursor = c;
      }
      return mine === null
        ? sql<
            GroupRow[]
          >`SELECT ${groupCols} FROM chat_groups g WHERE g.is_public AND (g.created_at, g.seq) < (${cursor.createdAt}, ${cursor.seq})
            ORDER BY g.created_at DESC, g.seq DESC LIMIT ${limit}`
        : sql<GroupRow[]>`SELECT ${groupCols} FROM group_members me JOIN chat_groups g ON g.id = me.group_id
            WHERE me.address = ${mine.toLowerCase()} AND (g.created_at, g.seq) < (${cursor.createdAt}, ${cursor.seq})
            ORDER BY g.created_at DESC, g.seq DESC LIMIT ${limit}`;
    },
    async listMembers(groupId) {
      return (
        await sql<
          { address: string }[]
        >`SELECT address FROM group_members WHERE group_id = ${id(groupId)} ORDER BY joined_at, address`
      ).map((r) => r.address);
    },
    isMember: (groupId, address) => isMember(sql, id(groupId), address.toLowerCase()),
    async addMember(groupId, address, now) {
      const gid = id(groupId);
      await sql.begin(async (tx) => {
        if (!(await lockGroup(tx, gid))) throw new StoreError('not-found', 'no such group');
        await Promise.all(join(tx, gid, address.toLowerCase(), now));
      });
    },
    async addOrInvite(groupId, address, by, now, rules) {
      const gid = id(groupId);
      const wallet = address.toLowerCase();
      const adder = by.toLowerCase();
      return sql.begin(async (tx) => {
        const g = await lockGroup(tx, gid);
        if (!g) throw new StoreError('not-found', 'no such group');
        if (await isMember(tx, gid, wallet)) return 'member' as const;
        // The recipient's delivery lock: the pending-request counter read here is the one a send
        // to the same wallet on another node checks and adds to (LOCK_RECIPIENTS in pg-envelopes).
        if (rules) await tx`SELECT pg_advisory_xact_lock(${RECIPIENT_LOCKS}, hashtext(${wallet}))`;
        const [f] = await tx<
          {
            blocks: boolean;
            knows: boolean;
            policy: UnknownSenders | null;
            stakePaid: boolean;
            invited: boolean;
            pending: number;
          }[]
        >`SELECT
            EXISTS (SELECT 1 FROM contacts WHERE owner = ${wallet} AND kind = 'block' AND other IN (${g.creatorAddress}, ${adder})) AS blocks,
            (EXISTS (SELECT 1 FROM contacts WHERE owner = ${wallet} AND kind = 'allow' AND other = ${adder})
              OR EXISTS (SELECT 1 FROM sent_before WHERE sender = ${wallet} AND recipient = ${adder})) AS knows,
            (SELECT unknown_senders FROM accounts WHERE address = ${wallet}) AS policy,
            EXISTS (SELECT 1 FROM stakes WHERE sender = ${adder} AND recipient = ${wallet} AND status IN ('active', 'released')) AS "stakePaid",
            EXISTS (SELECT 1 FROM group_invitations WHERE group_id = ${gid} AND address = ${wallet}) AS invited,
            coalesce((SELECT envelopes FROM pending_requests WHERE sender = ${adder} AND recipient = ${wallet}), 0) AS pending`;
        const outcome = routeGroupAdd({
          blocksCreatorOrAdder: f.blocks,
          knowsAdder: f.knows,
          policy: f.policy ?? 'request',
          stakePaid: f.stakePaid,
          stakesEnabled: rules?.stakesEnabled ?? true,
        });
        if (outcome === 'member') await Promise.all(join(tx, gid, wallet, now));
        else if (outcome === 'invited' && !f.invited) {
          const max = rules?.maxRequestsPerPair ?? Infinity;
          if (f.pending + 1 > max) throw invitationsPending(wallet, max);
          await tx`INSERT INTO group_invitations (group_id, address, invited_by, invited_at) VALUES (${gid}, ${wallet}, ${adder}, ${now}) ON CONFLICT DO NOTHING`;
        }
        return outcome;
      });
    },
    async listInvitations(address) {
      return sql<
        InvitationRow[]
      >`SELECT i.group_id AS "groupId", g.name, g.creator_address AS "creatorAddress", i.invited_by AS "invitedBy", i.invited_at AS "invitedAt"
        FROM group_invitations i JOIN chat_groups g ON g.id = i.group_id
        WHERE i.address = ${address.toLowerCase()} ORDER BY i.invited_at DESC, i.group_id`;
    },
    async listInvited(groupId) {
      return (
        await sql<
          { address: string }[]
        >`SELECT address FROM group_invitations WHERE group_id = ${id(groupId)} ORDER BY invited_at, address`
      ).map((r) => r.address);
    },
    async answerInvitation(groupId, address, accept, now) {
      const gid = id(groupId);
      const a = address.toLowerCase();
      return sql.begin(async (tx) => {
        if ((await tx`DELETE FROM group_invitations WHERE group_id = ${gid} AND address = ${a}`).count === 0)
          return false;
        if (accept)
          await tx`INSERT INTO group_members (group_id, address, joined_at) VALUES (${gid}, ${a}, ${now}) ON CONFLICT DO NOTHING`;
        return true;
      });
    },
    async role(groupId, address): Promise<GroupRole | null> {
      const [r] = await sql<
        { creator: boolean; admin: boolean }[]
      >`SELECT g.creator_address = m.address AS creator, m.is_admin AS admin
        FROM group_members m JOIN chat_groups g ON g.id = m.group_id WHERE m.group_id = ${id(groupId)} AND m.address = ${address.toLowerCase()}`;
      if (!r) return null;
      return r.creator ? 'creator' : r.admin ? 'admin' : 'member';
    },
    async listAdmins(groupId) {
      return (
        await sql<
          { address: string }[]
        >`SELECT address FROM group_members WHERE group_id = ${id(groupId)} AND is_admin ORDER BY joined_at, address`
      ).map((r) => r.address);
    },
    async setAdmin(groupId, address, admin, now = Date.now()) {
      const gid = id(groupId);
      const a = address.toLowerCase();
      return sql.begin(async (tx) => {
        if (
          (await tx`UPDATE group_members SET is_admin = ${admin} WHERE group_id = ${gid} AND address = ${a}`).count ===
          0
        )
          return false;
        if (!admin) await revokeMintedBy(tx, gid, a, now);
        return true;
      });
    },
    async removeMember(groupId, address, now = Date.now()) {
      const gid = id(groupId);
      const a = address.toLowerCase();
      return sql.begin(async (tx) => {
        const g = await lockGroup(tx, gid);
        if (!g || !(await isMember(tx, gid, a))) return false;
        const [{ n }] = await tx<{ n: number }[]>`SELECT count(*)::int AS n FROM group_members WHERE group_id = ${gid}`;
        if (g.creatorAddress === a && n > 1)
          throw new StoreError('creator-cannot-leave', 'the creator cannot leave a group that still has other members');
        if ((await tx`DELETE FROM group_members WHERE group_id = ${gid} AND address = ${a}`).count === 0) return false;
        await revokeMintedBy(tx, gid, a, now);
        return true;
      });
    },
    async memberDevices(groupId) {
      const rows = await sql<({ member: string } & { [K in keyof DeviceRow]: DeviceRow[K] | null })[]>`
        SELECT m.address AS member, ${sql.unsafe(PG_DEVICE_COLUMNS.replace(/(^|, )(\w+)/g, '$1d.$2'))}
        FROM group_members m LEFT JOIN devices d ON d.address = m.address AND d.revoked_at IS NULL
        WHERE m.group_id = ${id(groupId)} ORDER BY m.joined_at, m.address, d.created_at, d.seq`;
      const result = new Map<string, DeviceRow[]>();
      for (const r of rows) {
        let list = result.get(r.member);
        if (!list) result.set(r.member, (list = []));
        if (r.publicKey !== null)
          list.push({
            publicKey: r.publicKey,
            address: r.address!,
            certificate: r.certificate!,
            createdAt: r.createdAt!,
            revokedAt: null,
          });
      }
      return result;
    },
    async insertBotToken(t, maxLive = Infinity) {
      const gid = id(t.groupId);
      try {
        await sql.begin(async (tx) => {
          // the group's row lock: two mints on two nodes cannot both find room for the last token
          if (maxLive !== Infinity && (await lockGroup(tx, gid))) {
            const [{ n }] = await tx<
              { n: number }[]
            >`SELECT count(*)::int AS n FROM bot_tokens WHERE group_id = ${gid} AND revoked_at IS NULL`;
            if (n >= maxLive) throw tooManyTokens(maxLive);
          }
          await tx`INSERT INTO bot_tokens (id, group_id, name, prefix, hash, created_at, revoked_at, minted_by)
            VALUES (${t.id.toLowerCase()}, ${gid}, ${t.name}, ${t.prefix}, ${t.hash}, ${t.createdAt}, ${t.revokedAt}, ${t.mintedBy?.toLowerCase() ?? null})`;
        });
      } catch (e) {
        if (isForeignKeyViolation(e)) throw new StoreError('not-found', 'no such group');
        throw e;
      }
    },
    async findBotTokenByHash(hash) {
      const [r] = await sql<
        (BotTokenRow & { hash: Buffer })[]
      >`SELECT ${tokenCols}, hash FROM bot_tokens WHERE hash = ${hash}`;
      return r ?? null;
    },
    async listBotTokens(groupId) {
      return sql<
        BotTokenRow[]
      >`SELECT ${tokenCols} FROM bot_tokens WHERE group_id = ${id(groupId)} ORDER BY created_at, seq`;
    },
    async revokeBotToken(groupId, tokenId, now) {
      return (
        (
          await sql`UPDATE bot_tokens SET revoked_at = coalesce(revoked_at, ${now}) WHERE group_id = ${id(groupId)} AND id = ${tokenId.toLowerCase()}`
        ).count > 0
      );
    },
    async setGroupVerified(groupId, verified) {
      return (await sql`UPDATE chat_groups SET verified = ${verified} WHERE id = ${id(groupId)}`).count > 0;
    },
  };
}
