import type { StateCreator } from 'zustand';
import type { DirectoryHit } from '../../shared/domain.js';
import { call } from '../bridge/bridge.js';
import type { Store } from '../store.js';
import { bareHandle } from '../../shared/identity-patterns.js';

export interface DirectorySlice {
  directory: { query: string; hits: DirectoryHit[]; loading: boolean; error: string | null };
  searchDirectory: (q: string) => Promise<void>;
}

let latest = 0;

export const createDirectorySlice: StateCreator<Store, [], [], DirectorySlice> = (set) => ({
  directory: { query: '', hits: [], loading: false, error: null },
  searchDirectory: async (query) => {
    const ticket = ++latest;
    set((s) => ({ directory: { ...s.directory, query, loading: true, error: null } }));
    try {
      const hits = await call('directory.search', { q: bareHandle(query.trim()) });
      // Answers can overtake each other while the user types: keep only the newest.
      if (ticket === latest) set({ directory: { query, hits, loading: false, error: null } });
    } catch (e) {
      if (ticket === latest)
        set((s) => ({ directory: { ...s.directory, loading: false, error: (e as Error).message } }));
    }
  },
});
