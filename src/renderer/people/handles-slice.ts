import type { StateCreator } from 'zustand';
import type { KnownHandle } from '../../shared/domain.js';
import { call } from '../bridge/bridge.js';
import type { Store } from '../store.js';

/**
 * Handles of addresses shown on their own (group members, inviters): main knows or learns them
 * (its directory lookups are paced with everything else it asks the relay) and tells us.
 */
export interface HandlesSlice {
  handles: Record<string, KnownHandle>;
  /** these addresses are on screen: show their handles, now or when main learns them */
  wantHandles: (addresses: readonly string[]) => Promise<void>;
  handleLearned: (known: KnownHandle) => void;
}

export const createHandlesSlice: StateCreator<Store, [], [], HandlesSlice> = (set, get) => ({
  handles: {},
  wantHandles: async (addresses) => {
    const missing = [...new Set(addresses.map((a) => a.toLowerCase()))].filter((a) => !get().handles[a]);
    if (missing.length === 0) return;
    const known = await call('contacts.handles', { addresses: missing.slice(0, 500) }).catch(() => []);
    if (known.length > 0)
      set((s) => ({ handles: { ...s.handles, ...Object.fromEntries(known.map((k) => [k.address, k])) } }));
  },
  handleLearned: (known) => set((s) => ({ handles: { ...s.handles, [known.address]: known } })),
});
