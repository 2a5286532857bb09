import type { StateCreator } from 'zustand';
import type { BotToken, GroupInfo } from '../../shared/domain.js';
import { call } from '../bridge/bridge.js';
import type { Store } from '../store.js';

export interface GroupsSlice {
  groups: {
    mine: GroupInfo[];
    discover: GroupInfo[];
    loaded: boolean;
    selectedId: string | null;
    detail: GroupInfo | null;
    tokens: BotToken[];
  };
  loadGroups: () => Promise<void>;
  selectGroup: (id: string | null) => Promise<void>;
  createGroup: (input: { name: string; isPublic: boolean; password?: string; avatar?: string }) => Promise<GroupInfo>;
  joinGroup: (groupId: string, password?: string) => Promise<GroupInfo>;
  leaveGroup: (groupId: string) => Promise<void>;
  /** `invited` when they must accept first: a stranger to me, per their own inbox rules */
  addMember: (groupId: string, member: string) => Promise<'member' | 'invited'>;
  /** takes a member out, or withdraws an invitation */
  removeMember: (groupId: string, address: string) => Promise<void>;
  makeAdmin: (groupId: string, address: string) => Promise<void>;
  revokeAdmin: (groupId: string, address: string) => Promise<void>;
  mintBotToken: (groupId: string, name: string) => Promise<string>;
  revokeBotToken: (groupId: string, tokenId: string) => Promise<void>;
  openGroupChat: (groupId: string) => Promise<void>;
}

export const createGroupsSlice: StateCreator<Store, [], [], GroupsSlice> = (set, get) => {
  const patch = (p: Partial<GroupsSlice['groups']>) => set((s) => ({ groups: { ...s.groups, ...p } }));
  const refreshDetail = async (groupId: string, g?: GroupInfo) => {
    const detail = g ?? (await call('groups.get', { groupId }));
    const tokens = (detail.canManage ?? detail.isCreator) ? await call('groups.listTokens', { groupId }) : [];
    // The lists show the same group: what the relay just said about it replaces their copy, so
    // the list's member count never lags behind the open group's.
    const fresh = (list: GroupInfo[]) => list.map((x) => (x.id === groupId ? { ...x, ...detail } : x));
    set((s) => ({
      groups: {
        ...s.groups,
        mine: fresh(s.groups.mine),
        discover: fresh(s.groups.discover),
        ...(s.groups.selectedId === groupId ? { detail, tokens } : {}),
      },
    }));
    return detail;
  };
  return {
    groups: { mine: [], discover: [], loaded: false, selectedId: null, detail: null, tokens: [] },
    loadGroups: async () => {
      const [mine, discover] = await Promise.all([call('groups.listMine', {}), call('groups.listPublic', {})]);
      patch({ mine, discover, loaded: true });
    },
    selectGroup: async (id) => {
      patch({
        selectedId: id,
        detail: id
          ? (get().groups.mine.find((g) => g.id === id) ?? get().groups.discover.find((g) => g.id === id) ?? null)
          : null,
        tokens: [],
      });
      if (id) await refreshDetail(id);
    },
    createGroup: async (input) => {
      const g = await call('groups.create', input);
      await get().loadGroups();
      patch({ selectedId: g.id });
      await refreshDetail(g.id, g);
      return g;
    },
    joinGroup: async (groupId, password) => {
      const g = await call('groups.join', { groupId, ...(password ? { password } : {}) });
      await get().loadGroups();
      await refreshDetail(groupId, g);
      get().conversationsListed(await call('conversations.list', {}));
      return g;
    },
    leaveGroup: async (groupId) => {
      await call('groups.leave', { groupId });
      await get().loadGroups();
      await refreshDetail(groupId).catch(() => patch({ selectedId: null, detail: null }));
      get().conversationsListed(await call('conversations.list', {}));
    },
    addMember: async (groupId, member) => {
      const { added, ...g } = await call('groups.addMember', { groupId, member });
      await refreshDetail(groupId, g);
      return added;
    },
    removeMember: async (groupId, address) => {
      await refreshDetail(groupId, await call('groups.removeMember', { groupId, address }));
    },
    makeAdmin: async (groupId, address) => {
      await refreshDetail(groupId, await call('groups.addAdmin', { groupId, address }));
    },
    revokeAdmin: async (groupId, address) => {
      await refreshDetail(groupId, await call('groups.removeAdmin', { groupId, address }));
    },
    mintBotToken: async (groupId, name) => {
      const { token } = await call('groups.mintToken', { groupId, name });
      await refreshDetail(groupId);
      return token;
    },
    revokeBotToken: async (groupId, tokenId) => {
      await call('groups.revokeToken', { groupId, tokenId });
      await refreshDetail(groupId);
    },
    openGroupChat: async (groupId) => {
      const id = `group:${groupId}` as const;
      if (!get().conversations.some((c) => c.id === id))
        get().conversationsListed(await call('conversations.list', {}));
      await get().selectConversation(id);
    },
  };
};
