import type { StateCreator } from 'zustand';
import type { ContactRequest } from '../../shared/domain.js';
import { call } from '../bridge.js';
import { resolveHandles } from './conversations-slice.js';
import type { Store } from './store.js';

export interface RequestsSlice {
  requests: ContactRequest[];
  requestsListed: (list: ContactRequest[]) => void;
  requestReceived: (r: ContactRequest) => void;
  requestAccepted: (address: string) => Promise<void>;
  requestDeclined: (address: string) => Promise<void>;
  senderBlocked: (address: string) => Promise<void>;
  senderUnblocked: (address: string) => Promise<void>;
}

export const createRequestsSlice: StateCreator<Store, [], [], RequestsSlice> = (set, get) => {
  const drop = (address: string) => set((s) => ({ requests: s.requests.filter((r) => r.address !== address) }));
  return {
    requests: [],
    requestsListed: (requests) => {
      set({ requests });
      void resolveHandles(requests.filter((r) => !r.handle).map((r) => r.address), get).then(() => get().handlesResolved({}));
    },
    requestReceived: (r) => {
      set((s) => ({ requests: [r, ...s.requests.filter((x) => x.address !== r.address)] }));
      if (!r.handle) void resolveHandles([r.address], get).then(() => get().handlesResolved({}));
    },
    requestAccepted: async (address) => {
      await call('requests.accept', { address });
      drop(address);
      get().conversationListed(await call('conversations.list', {}));
    },
    requestDeclined: async (address) => {
      await call('requests.decline', { address });
      drop(address);
    },
    senderBlocked: async (address) => {
      await call('contacts.block', { address });
      drop(address);
    },
    senderUnblocked: async (address) => {
      await call('contacts.unblock', { address });
    },
  };
};
