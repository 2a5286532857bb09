import type { StateCreator } from 'zustand';
import type { HistoryOutcome, HistoryProgress } from '../../shared/backup/history.js';
import { call } from '../bridge/bridge.js';
import type { Store } from '../store.js';

/** History on a new device: what this device sends or receives, as main reports it. */
export interface HistorySlice {
  history: {
    /** the transfer under way, either way */
    progress: HistoryProgress | null;
    /** the device this one last sent its history to */
    sentTo: string | null;
    /** the last history received here (or refused) */
    outcome: HistoryOutcome | null;
  };
  sendHistory: (deviceKey: string) => Promise<void>;
  /** "Not now": main remembers it, so the offer does not come back after a restart */
  dismissHistoryOffer: (deviceKey: string) => Promise<void>;
  historyProgressed: (p: HistoryProgress) => void;
  historyFinished: (o: HistoryOutcome) => void;
}

export const createHistorySlice: StateCreator<Store, [], [], HistorySlice> = (set, get) => {
  const patch = (p: Partial<HistorySlice['history']>) => set((s) => ({ history: { ...s.history, ...p } }));
  const answered = (deviceKey: string, history: 'sent' | 'declined') => get().deviceHistoryAnswered(deviceKey, history);
  return {
    history: { progress: null, sentTo: null, outcome: null },
    sendHistory: async (deviceKey) => {
      patch({ sentTo: null, progress: { direction: 'send', deviceKey, phase: 'pack', done: 0, total: 0 } });
      try {
        await call('history.send', { deviceKey });
        patch({ sentTo: deviceKey });
        answered(deviceKey, 'sent');
      } finally {
        patch({ progress: null });
      }
    },
    dismissHistoryOffer: async (deviceKey) => {
      await call('history.decline', { deviceKey });
      answered(deviceKey, 'declined');
    },
    historyProgressed: (p) => patch({ progress: p }),
    historyFinished: (o) => patch({ outcome: o, progress: null }),
  };
};
