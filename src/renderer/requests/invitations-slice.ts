import type { StateCreator } from 'zustand';
import type { GroupInvitation } from '../../shared/domain.js';
import { call } from '../bridge/bridge.js';
import type { Store } from '../store.js';

/**
 * An invitation is no envelope, so no sync event announces it: the list is fetched again
 * after a sync pass, at most this often, so that a quiet app does not ask the relay every few seconds.
 */
const SYNC_REFRESH_MS = 15_000;

export interface InvitationsSlice {
  invitations: GroupInvitation[];
  invitationsListed: (list: GroupInvitation[]) => void;
  loadInvitations: () => Promise<void>;
  /** after a sync pass: fetches the list again unless it was fetched recently */
  refreshInvitations: () => Promise<void>;
  acceptInvitation: (groupId: string) => Promise<void>;
  declineInvitation: (groupId: string) => Promise<void>;
  /** declines, and blocks whoever invited me so that they cannot invite or write to me again */
  blockInviter: (groupId: string) => Promise<void>;
}

export const createInvitationsSlice: StateCreator<Store, [], [], InvitationsSlice> = (set, get) => {
  let fetchedAt = 0;
  const drop = (groupId: string) => set((s) => ({ invitations: s.invitations.filter((i) => i.groupId !== groupId) }));
  return {
    invitations: [],
    invitationsListed: (invitations) => {
      set({ invitations: [...invitations].sort((a, b) => b.invitedAt.localeCompare(a.invitedAt)) });
      void get().wantHandles(invitations.map((i) => i.invitedBy));
    },
    loadInvitations: async () => {
      fetchedAt = Date.now();
      get().invitationsListed(await call('invitations.list', {}));
    },
    refreshInvitations: async () => {
      if (Date.now() - fetchedAt < SYNC_REFRESH_MS) return;
      await get().loadInvitations();
    },
    acceptInvitation: async (groupId) => {
      await call('invitations.accept', { groupId });
      drop(groupId);
      get().conversationsListed(await call('conversations.list', {}));
      await get().loadGroups();
    },
    declineInvitation: async (groupId) => {
      await call('invitations.decline', { groupId });
      drop(groupId);
    },
    blockInviter: async (groupId) => {
      await call('invitations.decline', { groupId, blockInviter: true });
      drop(groupId);
    },
  };
};
