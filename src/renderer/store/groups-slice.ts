import type { StateCreator } from 'zustand';
import type { BotToken, GroupInfo } from '../../shared/domain.js';
import { call } from '../bridge.js';
import type { Store } from './store.js';

export interface GroupsSlice {
  groups: {
    mine: GroupInfo[];
    discover: GroupInfo[];
    loaded: boolean;
    selectedId: string | null;
    detail: GroupInfo | null;
    tokens: BotToken[];
  };
  groupsRequested: () => Promise<void>;
  groupSelected: (id: string | null) => Promise<void>;
  groupCreated: (input: { name: string; isPublic: boolean; password?: string; avatar?: string }) => Promise<GroupInfo>;
  groupJoined: (groupId: string, password?: string) => Promise<GroupInfo>;
  groupLeft: (groupId: string) => Promise<void>;
  memberAdded: (groupId: string, member: string) => Promise<void>;
  memberRemoved: (groupId: string, address: string) => Promise<void>;
  botTokenMinted: (groupId: string, name: string) => Promise<string>;
  botTokenRevoked: (groupId: string, tokenId: string) => Promise<void>;
  groupChatOpened: (groupId: string) => Promise<void>;
}

export const createGroupsSlice: StateCreator<Store, [], [], GroupsSlice> = (set, get) => {
  const patch = (p: Partial<GroupsSlice['groups']>) => set((s) => ({ groups: { ...s.groups, ...p } }));
  const refreshDetail = async (groupId: string, g?: GroupInfo) => {
    const detail = g ?? (await call('groups.get', { groupId }));
    const tokens = detail.isCreator ? await call('groups.listTokens', { groupId }) : [];
    if (get().groups.selectedId === groupId) patch({ detail, tokens });
    return detail;
  };
  return {
    groups: { mine: [], discover: [], loaded: false, selectedId: null, detail: null, tokens: [] },
    groupsRequested: async () => {
      const [mine, discover] = await Promise.all([call('groups.listMine', {}), call('groups.listPublic', {})]);
      patch({ mine, discover, loaded: true });
    },
    groupSelected: async (id) => {
      patch({ selectedId: id, detail: id ? (get().groups.mine.find((g) => g.id === id) ?? get().groups.discover.find((g) => g.id === id) ?? null) : null, tokens: [] });
      if (id) await refreshDetail(id);
    },
    groupCreated: async (input) => {
      const g = await call('groups.create', input);
      await get().groupsRequested();
      patch({ selectedId: g.id });
      await refreshDetail(g.id, g);
      return g;
    },
    groupJoined: async (groupId, password) => {
      const g = await call('groups.join', { groupId, ...(password ? { password } : {}) });
      await get().groupsRequested();
      await refreshDetail(groupId, g);
      get().conversationListed(await call('conversations.list', {}));
      return g;
    },
    groupLeft: async (groupId) => {
      await call('groups.leave', { groupId });
      await get().groupsRequested();
      await refreshDetail(groupId).catch(() => patch({ selectedId: null, detail: null }));
      get().conversationListed(await call('conversations.list', {}));
    },
    memberAdded: async (groupId, member) => {
      await refreshDetail(groupId, await call('groups.addMember', { groupId, member }));
    },
    memberRemoved: async (groupId, address) => {
      await refreshDetail(groupId, await call('groups.removeMember', { groupId, address }));
    },
    botTokenMinted: async (groupId, name) => {
      const { token } = await call('groups.mintToken', { groupId, name });
      await refreshDetail(groupId);
      return token;
    },
    botTokenRevoked: async (groupId, tokenId) => {
      await call('groups.revokeToken', { groupId, tokenId });
      await refreshDetail(groupId);
    },
    groupChatOpened: async (groupId) => {
      const id = `group:${groupId}` as const;
      if (!get().conversations.some((c) => c.id === id)) get().conversationListed(await call('conversations.list', {}));
      await get().conversationSelected(id);
    },
  };
};
