/**
 * Groups (docs/protocol.md, Groups): the ones we are in and the public ones, members, admins,
 * invitations and bot tokens. The relay is the source of truth; what a member sees is kept in
 * the local store so the group's conversation shows offline.
 */
import type { GroupDetail, GroupSummary } from '../../../shared/api/groups.js';
import type { BotToken, GroupAddResult, GroupInfo, GroupInvitation } from '../../../shared/domain.js';
import type { CommandArgs } from '../../../shared/ipc.js';
import type { FeatureContext, FeatureHandlers } from '../core/feature-context.js';
import { MessengerError } from '../core/messenger-error.js';
import type { IncomingSignal } from '../core/sync-pass.js';
import { RelayError } from '../network/relay-api.js';
import { groupInfoOf, type GroupRecord } from '../store/local-store.js';

type GroupCommands =
  | 'groups.listPublic'
  | 'groups.listMine'
  | 'groups.get'
  | 'groups.create'
  | 'groups.join'
  | 'groups.leave'
  | 'groups.addMember'
  | 'groups.removeMember'
  | 'groups.listTokens'
  | 'groups.mintToken'
  | 'groups.revokeToken'
  | 'groups.addAdmin'
  | 'groups.removeAdmin'
  | 'invitations.list'
  | 'invitations.accept'
  | 'invitations.decline';

export interface GroupsDeps extends FeatureContext {
  /** `0x…` or `@handle` to an address (contacts/) */
  resolveRecipient(to: string): Promise<string>;
  /** blocks an inviter who is declined with `blockInviter` (contacts/) */
  block(a: { address: string }): Promise<void>;
  /** tells a removed member so, sealed to their devices (conversations/receipts-and-typing.ts) */
  tellRemoved(member: string, groupId: string): Promise<void>;
}

/** The relay's word that we are not (or no longer) in a group: 404, or 401 `not-a-member`. */
function notInGroup(e: unknown): boolean {
  return e instanceof RelayError && (e.status === 404 || e.code === 'not-a-member');
}

export class Groups {
  constructor(private readonly ctx: GroupsDeps) {}

  handlers(): FeatureHandlers<GroupCommands> {
    return {
      'groups.listPublic': () => this.listPublic(),
      'groups.listMine': () => this.listMine(),
      'groups.get': (a) => this.get(a),
      'groups.create': (a) => this.create(a),
      'groups.join': (a) => this.join(a),
      'groups.leave': (a) => this.leave(a),
      'groups.addMember': (a) => this.addMember(a),
      'groups.removeMember': (a) => this.removeMember(a),
      'groups.listTokens': (a) => this.listBotTokens(a),
      'groups.mintToken': (a) => this.mintBotToken(a),
      'groups.revokeToken': (a) => this.revokeBotToken(a),
      'groups.addAdmin': (a) => this.setAdmin(a, true),
      'groups.removeAdmin': (a) => this.setAdmin(a, false),
      'invitations.list': () => this.listInvitations(),
      'invitations.accept': (a) => this.acceptInvitation(a),
      'invitations.decline': (a) => this.declineInvitation(a),
    };
  }

  async listPublic(): Promise<GroupInfo[]> {
    const list = await this.ctx.ready().listGroups(false);
    return list.map((g) => this.infoFromSummary(g));
  }

  async listMine(): Promise<GroupInfo[]> {
    const { store } = this.ctx;
    const list = await this.ctx.ready().listGroups(true);
    for (const g of list) {
      const local = store.getGroup(g.id);
      store.upsertGroup(
        { ...recordFromSummary(g), creator: local?.creator ?? null, members: local?.members ?? null, isMember: true },
        this.ctx.nowMs(),
      );
    }
    return list.map((g) => groupInfoOf(store.getGroup(g.id)!, this.ctx.me().address));
  }

  /** The group as a member sees it (with creator and members); a non-member gets what the public list knows. */
  async get(a: CommandArgs<'groups.get'>): Promise<GroupInfo> {
    const id = a.groupId.toLowerCase();
    try {
      return await this.refresh(id);
    } catch (e) {
      // 404: no such group; 401 not-a-member: it exists but we are not (or no longer) in it
      if (!notInGroup(e)) throw e;
      if (this.ctx.store.getGroup(id)?.isMember) this.removed(id, null);
      const local = this.ctx.store.getGroup(id);
      if (local) return groupInfoOf(local, this.ctx.me().address);
      throw new MessengerError('not-found', 'no such group, or it is private');
    }
  }

  async create(a: CommandArgs<'groups.create'>): Promise<GroupInfo> {
    const g = await this.ctx.ready().createGroup({
      name: a.name,
      isPublic: a.isPublic,
      ...(a.password ? { password: a.password } : {}),
      ...(a.avatar ? { avatar: a.avatar } : {}),
    });
    return this.storeDetail(g);
  }

  async join(a: CommandArgs<'groups.join'>): Promise<GroupInfo> {
    const g = await this.ctx.ready().joinGroup(a.groupId.toLowerCase(), a.password);
    return this.storeDetail(g);
  }

  async leave(a: CommandArgs<'groups.leave'>): Promise<void> {
    const id = a.groupId.toLowerCase();
    await this.ctx.ready().removeMember(id, this.ctx.me().address);
    this.ctx.store.setGroupMembership(id, false);
    this.ctx.emitConversation(`group:${id}`);
  }

  /** Adds at once when they allow us, otherwise invites them (`added: 'invited'`); a wallet that refuses is 403. */
  async addMember(a: CommandArgs<'groups.addMember'>): Promise<GroupAddResult> {
    const address = await this.ctx.resolveRecipient(a.member);
    const res = await this.ctx.ready().addMember(a.groupId.toLowerCase(), address);
    return { ...this.storeDetail(res), added: res.status };
  }

  async setAdmin(a: CommandArgs<'groups.addAdmin'>, admin: boolean): Promise<GroupInfo> {
    const id = a.groupId.toLowerCase();
    await this.ctx.ready().setAdmin(id, a.address.toLowerCase(), admin);
    return this.refresh(id);
  }

  async listInvitations(): Promise<GroupInvitation[]> {
    return (await this.ctx.ready().invitations()).map((i) => ({ ...i, groupId: i.groupId.toLowerCase() }));
  }

  async acceptInvitation(a: CommandArgs<'invitations.accept'>): Promise<GroupInfo> {
    const res = await this.ctx.ready().answerInvitation(a.groupId.toLowerCase(), true);
    if (!res.group) throw new MessengerError('not-found', 'the relay did not return the group');
    return this.storeDetail(res.group);
  }

  async declineInvitation(a: CommandArgs<'invitations.decline'>): Promise<void> {
    const id = a.groupId.toLowerCase();
    const inviter = a.blockInviter
      ? (await this.ctx.ready().invitations()).find((i) => i.groupId.toLowerCase() === id)?.invitedBy
      : undefined;
    await this.ctx.ready().answerInvitation(id, false);
    if (inviter) await this.ctx.block({ address: inviter });
  }

  /** Removes a member (and tells them, so their app says who) or withdraws an invitation. */
  async removeMember(a: CommandArgs<'groups.removeMember'>): Promise<GroupInfo> {
    const id = a.groupId.toLowerCase();
    const address = a.address.toLowerCase();
    // the relay's list, not ours: ours is as of our last look, before they may have accepted
    const before = await this.ctx.ready().group(id);
    const wasMember = before.group.members.some((m) => m.toLowerCase() === address);
    await this.ctx.ready().removeMember(id, address);
    // awaited, so that a command-line `group remove` does not exit before its notice left; a
    // notice that cannot go is made up for by the member's next send there
    if (wasMember && address !== this.ctx.me().address) await this.ctx.tellRemoved(address, id).catch(() => undefined);
    return this.refresh(id);
  }

  /**
   * Someone's notice that they took us out of a group. Anyone can send one, so the relay is
   * asked first: only once it no longer counts us a member does the group's chat say who did it.
   */
  async removalNoticed(from: string, groupId: string): Promise<void> {
    const id = groupId.toLowerCase();
    const local = this.ctx.store.getGroup(id);
    if (!local || (!local.isMember && (!local.removedAt || local.removedBy))) return;
    try {
      await this.ctx.ready().group(id);
      return;
    } catch (e) {
      if (!notInGroup(e)) return;
    }
    this.removed(id, from);
  }

  /** A sync pass's signals: the removal notices among them are checked, off the pass's path. */
  signalsArrived(signals: readonly IncomingSignal[]): void {
    for (const { from, signal } of signals)
      if (signal.kind === 'group-removed') void this.removalNoticed(from, signal.group).catch(() => undefined);
  }

  /** The relay no longer counts us a member (a send, or a look at the group, said so). */
  noLongerMember(groupId: string): void {
    this.removed(groupId.toLowerCase(), null);
  }

  private removed(id: string, by: string | null): void {
    if (this.ctx.store.membership.markRemoved(id, by, new Date(this.ctx.nowMs()).toISOString()))
      this.ctx.emitConversation(`group:${id}`);
  }

  async listBotTokens(a: CommandArgs<'groups.listTokens'>): Promise<BotToken[]> {
    const view = await this.ctx.ready().group(a.groupId.toLowerCase());
    return (view.botTokens ?? []).map((t) => ({ ...t }));
  }

  async mintBotToken(a: CommandArgs<'groups.mintToken'>): Promise<{ token: string; botToken: BotToken }> {
    const res = await this.ctx.ready().mintBotToken(a.groupId.toLowerCase(), a.name);
    return { token: res.token, botToken: { ...res.botToken } };
  }

  async revokeBotToken(a: CommandArgs<'groups.revokeToken'>): Promise<void> {
    await this.ctx.ready().revokeBotToken(a.groupId.toLowerCase(), a.tokenId.toLowerCase());
  }

  /** Fetches the group from the relay and keeps what a member sees (the sync loop calls it for groups a pass brought). */
  async refresh(id: string): Promise<GroupInfo> {
    const view = await this.ctx.ready().group(id);
    return this.storeDetail(view.group);
  }

  private storeDetail(g: GroupDetail): GroupInfo {
    const me = this.ctx.me().address;
    const members = g.members.map((m) => m.toLowerCase());
    const rec: GroupRecord = {
      ...recordFromSummary(g),
      creator: g.creatorAddress.toLowerCase(),
      members,
      isMember: members.includes(me),
    };
    this.ctx.store.upsertGroup(rec, this.ctx.nowMs());
    if (rec.isMember) this.ctx.store.ensureConversation(`group:${g.id}`, 'group', g.id, g.createdAt);
    this.ctx.emitConversation(`group:${g.id}`);
    // Admins and invitations are the relay's to know: shown as fetched, not kept locally.
    const admins = (g.admins ?? []).map((x) => x.toLowerCase());
    const info = groupInfoOf(rec, me);
    return {
      ...info,
      admins,
      ...(g.invited ? { invited: g.invited.map((x) => x.toLowerCase()) } : {}),
      canManage: info.isCreator || admins.includes(me),
    };
  }

  private infoFromSummary(g: GroupSummary): GroupInfo {
    const local = this.ctx.store.getGroup(g.id.toLowerCase());
    return groupInfoOf(
      {
        ...recordFromSummary(g),
        creator: local?.creator ?? null,
        members: local?.members ?? null,
        isMember: local?.isMember ?? false,
      },
      this.ctx.me().address,
    );
  }
}

function recordFromSummary(g: GroupSummary): Omit<GroupRecord, 'creator' | 'members' | 'isMember'> {
  return {
    id: g.id.toLowerCase(),
    name: g.name,
    isPublic: g.isPublic,
    verified: g.verified,
    hasPassword: g.hasPassword,
    avatar: typeof g.avatar === 'string' ? g.avatar : null,
    memberCount: g.memberCount,
    createdAt: g.createdAt,
  };
}
