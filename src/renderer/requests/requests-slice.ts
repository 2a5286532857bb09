import type { StateCreator } from 'zustand';
import type { ContactRequest } from '../../shared/domain.js';
import { call } from '../bridge/bridge.js';
import type { Store } from '../store.js';

export interface RequestsSlice {
  requests: ContactRequest[];
  requestsListed: (list: ContactRequest[]) => void;
  requestReceived: (r: ContactRequest) => void;
  /** the request is settled elsewhere (e.g. marked spam with its stake): it leaves the list */
  requestRemoved: (address: string) => void;
  acceptRequest: (address: string) => Promise<void>;
  declineRequest: (address: string) => Promise<void>;
  /** blocks whoever sent the request; it leaves the list (an unblock, or Undo, brings it back) */
  blockSender: (address: string) => Promise<void>;
}

export const createRequestsSlice: StateCreator<Store, [], [], RequestsSlice> = (set, get) => {
  const drop = (address: string) => set((s) => ({ requests: s.requests.filter((r) => r.address !== address) }));
  return {
    requests: [],
    requestsListed: (requests) => {
      set({ requests });
      // main renames them (request.new) when it learns their handles
      void get().wantHandles(requests.filter((r) => !r.handle).map((r) => r.address));
    },
    requestReceived: (r) => set((s) => ({ requests: [r, ...s.requests.filter((x) => x.address !== r.address)] })),
    requestRemoved: drop,
    acceptRequest: async (address) => {
      await call('requests.accept', { address });
      drop(address);
      get().conversationsListed(await call('conversations.list', {}));
    },
    declineRequest: async (address) => {
      await call('requests.decline', { address });
      drop(address);
    },
    blockSender: async (address) => {
      await get().block(address);
      drop(address);
    },
  };
};
