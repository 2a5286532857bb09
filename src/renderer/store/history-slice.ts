import type { StateCreator } from 'zustand';
import type { HistoryOutcome, HistoryProgress } from '../../shared/history.js';
import { call } from '../bridge.js';
import type { Store } from './store.js';

/** History on a new device: what this device sends or receives, as main reports it. */
export interface HistorySlice {
  history: {
    /** the transfer under way, either way */
    progress: HistoryProgress | null;
    /** the device this one last sent its history to */
    sentTo: string | null;
    /** the last history received here (or refused) */
    outcome: HistoryOutcome | null;
    /** devices the person said "Not now" to, this session */
    dismissed: string[];
  };
  sendHistory: (deviceKey: string) => Promise<void>;
  dismissHistoryOffer: (deviceKey: string) => void;
  historyProgressed: (p: HistoryProgress) => void;
  historyFinished: (o: HistoryOutcome) => void;
}

export const createHistorySlice: StateCreator<Store, [], [], HistorySlice> = (set) => {
  const patch = (p: Partial<HistorySlice['history']>) => set((s) => ({ history: { ...s.history, ...p } }));
  return {
    history: { progress: null, sentTo: null, outcome: null, dismissed: [] },
    sendHistory: async (deviceKey) => {
      patch({ sentTo: null, progress: { direction: 'send', deviceKey, phase: 'pack', done: 0, total: 0 } });
      try {
        await call('history.send', { deviceKey });
        patch({ sentTo: deviceKey });
      } finally {
        patch({ progress: null });
      }
    },
    dismissHistoryOffer: (deviceKey) => set((s) => ({ history: { ...s.history, dismissed: [...s.history.dismissed, deviceKey] } })),
    historyProgressed: (p) => patch({ progress: p }),
    historyFinished: (o) => patch({ outcome: o, progress: null }),
  };
};
