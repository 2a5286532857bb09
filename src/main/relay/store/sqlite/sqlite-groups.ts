import type Database from 'better-sqlite3';
import type { UnknownSenders } from '../../../../shared/api/account.js';
import { routeGroupAdd } from '../../routing.js';
import { invitationsPending, tooManyGroups, tooManyTokens } from '../limit-refusals.js';
import {
  StoreError,
  type AddOutcome,
  type BotTokenRow,
  type DeviceRow,
  type GroupRole,
  type GroupRow,
  type InvitationRow,
  type InviteRules,
} from '../store.js';
import type { GroupsPart } from '../store-parts.js';

interface GroupRecord extends Omit<GroupRow, 'isPublic' | 'verified'> {
  isPublic: number;
  verified: number;
}

const GROUP_COLUMNS = `g.id, g.name, g.is_public AS isPublic, g.verified, g.password_hash AS passwordHash, g.avatar,
  g.creator_address AS creatorAddress, g.created_at AS createdAt,
  (SELECT count(*) FROM group_members m WHERE m.group_id = g.id) AS memberCount`;

const BOT_TOKEN_COLUMNS = `id, group_id AS groupId, name, prefix, created_at AS createdAt, revoked_at AS revokedAt, minted_by AS mintedBy`;

/** Stands in for "no cursor": every real (created_at, seq) sorts below it. */
const NO_CURSOR = { createdAt: Number.MAX_SAFE_INTEGER, seq: Number.MAX_SAFE_INTEGER };

const toGroup = (r: GroupRecord): GroupRow => ({ ...r, isPublic: r.isPublic === 1, verified: r.verified === 1 });

interface PatchParams {
  id: string;
  setName: number;
  name: string | null;
  setPublic: number;
  isPublic: number | null;
  setPassword: number;
  passwordHash: string | null;
  setAvatar: number;
  avatar: string | null;
}

/** The bot-token lookup runs on every group-token request; exported so that tests can EXPLAIN it. */
export const BOT_TOKEN_BY_HASH_SQL = `SELECT ${BOT_TOKEN_COLUMNS}, hash FROM bot_tokens WHERE hash = ?`;

/** Groups, their members and their bot tokens. */
export function groupsPart(db: Database.Database): GroupsPart {
  const s = {
    insertGroup: db.prepare<[string, string, number, string | null, string | null, string, number]>(
      `INSERT INTO chat_groups (id, name, is_public, password_hash, avatar, creator_address, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    group: db.prepare<[string], GroupRecord>(`SELECT ${GROUP_COLUMNS} FROM chat_groups g WHERE g.id = ?`),
    cursor: db.prepare<[string], { createdAt: number; seq: number }>(
      `SELECT created_at AS createdAt, seq FROM chat_groups WHERE id = ?`,
    ),
    // One statement for every patch shape, so that it is prepared once.
    patch: db.prepare<[PatchParams]>(
      `UPDATE chat_groups SET
         name = CASE WHEN :setName THEN :name ELSE name END,
         is_public = CASE WHEN :setPublic THEN :isPublic ELSE is_public END,
         password_hash = CASE WHEN :setPassword THEN :passwordHash ELSE password_hash END,
         avatar = CASE WHEN :setAvatar THEN :avatar ELSE avatar END
       WHERE id = :id`,
    ),
    publicGroups: db.prepare<[number, number, number], GroupRecord>(
      `SELECT ${GROUP_COLUMNS} FROM chat_groups g
       WHERE g.is_public = 1 AND (g.created_at, g.seq) < (?, ?)
       ORDER BY g.created_at DESC, g.seq DESC LIMIT ?`,
    ),
    myGroups: db.prepare<[string, number, number, number], GroupRecord>(
      `SELECT ${GROUP_COLUMNS} FROM group_members me JOIN chat_groups g ON g.id = me.group_id
       WHERE me.address = ? AND (g.created_at, g.seq) < (?, ?)
       ORDER BY g.created_at DESC, g.seq DESC LIMIT ?`,
    ),
    members: db
      .prepare<[string], string>(`SELECT address FROM group_members WHERE group_id = ? ORDER BY joined_at, address`)
      .pluck(),
    isMember: db
      .prepare<[string, string], number>(`SELECT 1 FROM group_members WHERE group_id = ? AND address = ?`)
      .pluck(),
    addMember: db.prepare<[string, string, number]>(
      `INSERT INTO group_members (group_id, address, joined_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    removeMember: db.prepare<[string, string]>(`DELETE FROM group_members WHERE group_id = ? AND address = ?`),
    createdBy: db.prepare<[string], number>(`SELECT count(*) FROM chat_groups WHERE creator_address = ?`).pluck(),
    addFacts: db.prepare<
      [{ wallet: string; creator: string; adder: string }],
      { blocks: number; knows: number; policy: UnknownSenders | null; stakePaid: number }
    >(
      `SELECT
         EXISTS (SELECT 1 FROM contacts WHERE owner = :wallet AND kind = 'block' AND other IN (:creator, :adder)) AS blocks,
         (EXISTS (SELECT 1 FROM contacts WHERE owner = :wallet AND kind = 'allow' AND other = :adder)
           OR EXISTS (SELECT 1 FROM sent_before WHERE sender = :wallet AND recipient = :adder)) AS knows,
         (SELECT unknown_senders FROM accounts WHERE address = :wallet) AS policy,
         EXISTS (SELECT 1 FROM stakes WHERE sender = :adder AND recipient = :wallet AND status IN ('active', 'released')) AS stakePaid`,
    ),
    isInvited: db
      .prepare<[string, string], number>(`SELECT 1 FROM group_invitations WHERE group_id = ? AND address = ?`)
      .pluck(),
    // Kept by triggers: the sender's undelivered request-routed envelopes and pending invitations.
    pendingRequests: db
      .prepare<[string, string], number>(`SELECT envelopes FROM pending_requests WHERE sender = ? AND recipient = ?`)
      .pluck(),
    invite: db.prepare<[string, string, string, number]>(
      `INSERT INTO group_invitations (group_id, address, invited_by, invited_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    dropInvitation: db.prepare<[string, string]>(`DELETE FROM group_invitations WHERE group_id = ? AND address = ?`),
    invitations: db.prepare<[string], InvitationRow>(
      `SELECT i.group_id AS groupId, g.name, g.creator_address AS creatorAddress, i.invited_by AS invitedBy, i.invited_at AS invitedAt
       FROM group_invitations i JOIN chat_groups g ON g.id = i.group_id
       WHERE i.address = ? ORDER BY i.invited_at DESC, i.group_id`,
    ),
    invited: db
      .prepare<[string], string>(
        `SELECT address FROM group_invitations WHERE group_id = ? ORDER BY invited_at, address`,
      )
      .pluck(),
    role: db.prepare<[string, string], { creator: number; admin: number }>(
      `SELECT g.creator_address = m.address AS creator, m.is_admin AS admin
       FROM group_members m JOIN chat_groups g ON g.id = m.group_id WHERE m.group_id = ? AND m.address = ?`,
    ),
    admins: db
      .prepare<[string], string>(
        `SELECT address FROM group_members WHERE group_id = ? AND is_admin = 1 ORDER BY joined_at, address`,
      )
      .pluck(),
    setAdmin: db.prepare<[number, string, string]>(
      `UPDATE group_members SET is_admin = ? WHERE group_id = ? AND address = ?`,
    ),
    creatorAndCount: db.prepare<[string], { creatorAddress: string; memberCount: number }>(
      `SELECT creator_address AS creatorAddress, (SELECT count(*) FROM group_members WHERE group_id = g.id) AS memberCount
       FROM chat_groups g WHERE id = ?`,
    ),
    memberDevices: db.prepare<[string], { member: string } & { [K in keyof DeviceRow]: DeviceRow[K] | null }>(
      `SELECT m.address AS member, d.public_key AS publicKey, d.address, d.certificate, d.created_at AS createdAt, d.revoked_at AS revokedAt
       FROM group_members m LEFT JOIN devices d ON d.address = m.address AND d.revoked_at IS NULL
       WHERE m.group_id = ? ORDER BY m.joined_at, m.address, d.created_at, d.rowid`,
    ),
    insertBotToken: db.prepare<[string, string, string, string, Buffer, number, number | null, string | null]>(
      `INSERT INTO bot_tokens (id, group_id, name, prefix, hash, created_at, revoked_at, minted_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    liveTokens: db
      .prepare<[string], number>(`SELECT count(*) FROM bot_tokens WHERE group_id = ? AND revoked_at IS NULL`)
      .pluck(),
    revokeMintedBy: db.prepare<[number, string, string]>(
      `UPDATE bot_tokens SET revoked_at = ? WHERE group_id = ? AND minted_by = ? AND revoked_at IS NULL`,
    ),
    botTokenByHash: db.prepare<[Buffer], BotTokenRow & { hash: Buffer }>(BOT_TOKEN_BY_HASH_SQL),
    botTokens: db.prepare<[string], BotTokenRow>(
      `SELECT ${BOT_TOKEN_COLUMNS} FROM bot_tokens WHERE group_id = ? ORDER BY created_at, rowid`,
    ),
    revokeBotToken: db.prepare<[number, string, string]>(
      `UPDATE bot_tokens SET revoked_at = coalesce(revoked_at, ?) WHERE group_id = ? AND id = ?`,
    ),
    setVerified: db.prepare<[number, string]>(`UPDATE chat_groups SET verified = ? WHERE id = ?`),
  };

  const getGroup = (id: string): GroupRow | null => {
    const r = s.group.get(id);
    return r ? toGroup(r) : null;
  };

  const createGroup = db.transaction(
    (
      g: {
        id: string;
        name: string;
        isPublic: boolean;
        passwordHash: string | null;
        avatar: string | null;
        creatorAddress: string;
        now: number;
      },
      max: number,
    ) => {
      if (s.createdBy.get(g.creatorAddress)! >= max) throw tooManyGroups(max);
      s.insertGroup.run(g.id, g.name, g.isPublic ? 1 : 0, g.passwordHash, g.avatar, g.creatorAddress, g.now);
      s.addMember.run(g.id, g.creatorAddress, g.now);
      return getGroup(g.id)!;
    },
  );

  const removeMember = db.transaction((groupId: string, address: string, now: number): boolean => {
    const g = s.creatorAndCount.get(groupId);
    if (!g || !s.isMember.get(groupId, address)) return false;
    if (g.creatorAddress === address && g.memberCount > 1) {
      throw new StoreError('creator-cannot-leave', 'the creator cannot leave a group that still has other members');
    }
    if (s.removeMember.run(groupId, address).changes === 0) return false;
    s.revokeMintedBy.run(now, groupId, address);
    return true;
  });

  const setAdmin = db.transaction((groupId: string, address: string, admin: boolean, now: number): boolean => {
    if (s.setAdmin.run(admin ? 1 : 0, groupId, address).changes === 0) return false;
    if (!admin) s.revokeMintedBy.run(now, groupId, address);
    return true;
  });

  const insertBotToken = db.transaction((t: BotTokenRow & { hash: Buffer }, maxLive: number) => {
    if (s.liveTokens.get(t.groupId)! >= maxLive) throw tooManyTokens(maxLive);
    s.insertBotToken.run(t.id, t.groupId, t.name, t.prefix, t.hash, t.createdAt, t.revokedAt, t.mintedBy);
  });

  const join = db.transaction((groupId: string, address: string, now: number) => {
    s.addMember.run(groupId, address, now);
    s.dropInvitation.run(groupId, address);
  });

  const addOrInvite = db.transaction(
    (groupId: string, address: string, by: string, now: number, rules: InviteRules | undefined): AddOutcome => {
      const g = s.creatorAndCount.get(groupId);
      if (!g) throw new StoreError('not-found', 'no such group');
      if (s.isMember.get(groupId, address)) return 'member';
      const f = s.addFacts.get({ wallet: address, creator: g.creatorAddress, adder: by })!;
      const outcome = routeGroupAdd({
        blocksCreatorOrAdder: f.blocks === 1,
        knowsAdder: f.knows === 1,
        policy: f.policy ?? 'request',
        stakePaid: f.stakePaid === 1,
        stakesEnabled: rules?.stakesEnabled ?? true,
      });
      if (outcome === 'member') join(groupId, address, now);
      else if (outcome === 'invited' && s.isInvited.get(groupId, address) === undefined) {
        const max = rules?.maxRequestsPerPair ?? Infinity;
        if ((s.pendingRequests.get(by, address) ?? 0) + 1 > max) throw invitationsPending(address, max);
        s.invite.run(groupId, address, by, now);
      }
      return outcome;
    },
  );

  const answerInvitation = db.transaction((groupId: string, address: string, accept: boolean, now: number): boolean => {
    if (s.dropInvitation.run(groupId, address).changes === 0) return false;
    if (accept) s.addMember.run(groupId, address, now);
    return true;
  });

  const id = (groupId: string) => groupId.toLowerCase();

  return {
    async createGroup(g, maxPerCreator = Infinity) {
      return createGroup.immediate(
        { ...g, id: id(g.id), creatorAddress: g.creatorAddress.toLowerCase() },
        maxPerCreator,
      );
    },
    async getGroup(groupId) {
      return getGroup(id(groupId));
    },
    async patchGroup(groupId, p) {
      const changed = s.patch.run({
        id: id(groupId),
        setName: p.name !== undefined ? 1 : 0,
        name: p.name ?? null,
        setPublic: p.isPublic !== undefined ? 1 : 0,
        isPublic: p.isPublic === undefined ? null : p.isPublic ? 1 : 0,
        setPassword: p.passwordHash !== undefined ? 1 : 0,
        passwordHash: p.passwordHash ?? null,
        setAvatar: p.avatar !== undefined ? 1 : 0,
        avatar: p.avatar ?? null,
      }).changes;
      if (changed === 0) throw new StoreError('not-found', 'no such group');
      return getGroup(id(groupId))!;
    },
    async listGroups({ mine, limit, before }) {
      // An unknown cursor yields an empty page rather than restarting from the newest.
      const cursor = before === null ? NO_CURSOR : s.cursor.get(id(before));
      if (!cursor) return [];
      const rows =
        mine === null
          ? s.publicGroups.all(cursor.createdAt, cursor.seq, limit)
          : s.myGroups.all(mine.toLowerCase(), cursor.createdAt, cursor.seq, limit);
      return rows.map(toGroup);
    },
    async listMembers(groupId) {
      return s.members.all(id(groupId));
    },
    async isMember(groupId, address) {
      return s.isMember.get(id(groupId), address.toLowerCase()) !== undefined;
    },
    async addMember(groupId, address, now) {
      if (!s.cursor.get(id(groupId))) throw new StoreError('not-found', 'no such group');
      join.immediate(id(groupId), address.toLowerCase(), now);
    },
    async addOrInvite(groupId, address, by, now, rules) {
      return addOrInvite.immediate(id(groupId), address.toLowerCase(), by.toLowerCase(), now, rules);
    },
    async listInvitations(address) {
      return s.invitations.all(address.toLowerCase());
    },
    async listInvited(groupId) {
      return s.invited.all(id(groupId));
    },
    async answerInvitation(groupId, address, accept, now) {
      return answerInvitation.immediate(id(groupId), address.toLowerCase(), accept, now);
    },
    async role(groupId, address): Promise<GroupRole | null> {
      const r = s.role.get(id(groupId), address.toLowerCase());
      if (!r) return null;
      return r.creator === 1 ? 'creator' : r.admin === 1 ? 'admin' : 'member';
    },
    async listAdmins(groupId) {
      return s.admins.all(id(groupId));
    },
    async setAdmin(groupId, address, admin, now = Date.now()) {
      return setAdmin.immediate(id(groupId), address.toLowerCase(), admin, now);
    },
    async removeMember(groupId, address, now = Date.now()) {
      return removeMember.immediate(id(groupId), address.toLowerCase(), now);
    },
    async memberDevices(groupId) {
      const result = new Map<string, DeviceRow[]>();
      for (const r of s.memberDevices.all(id(groupId))) {
        let list = result.get(r.member);
        if (!list) result.set(r.member, (list = []));
        if (r.publicKey !== null) {
          list.push({
            publicKey: r.publicKey,
            address: r.address!,
            certificate: r.certificate!,
            createdAt: r.createdAt!,
            revokedAt: null,
          });
        }
      }
      return result;
    },
    async insertBotToken(t, maxLive = Infinity) {
      const row = { ...t, id: t.id.toLowerCase(), groupId: id(t.groupId), mintedBy: t.mintedBy?.toLowerCase() ?? null };
      try {
        insertBotToken.immediate(row, maxLive);
      } catch (e) {
        if ((e as { code?: unknown }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
          throw new StoreError('not-found', 'no such group');
        throw e;
      }
    },
    async findBotTokenByHash(hash) {
      return s.botTokenByHash.get(hash) ?? null;
    },
    async listBotTokens(groupId) {
      return s.botTokens.all(id(groupId));
    },
    async revokeBotToken(groupId, tokenId, now) {
      return s.revokeBotToken.run(now, id(groupId), tokenId.toLowerCase()).changes > 0;
    },
    async setGroupVerified(groupId, verified) {
      return s.setVerified.run(verified ? 1 : 0, id(groupId)).changes > 0;
    },
  };
}
