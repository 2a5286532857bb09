/**
 * The history room's part of the command table (the Messenger's `handlers()` merges it):
 * answering another of our devices that asked for this one's history.
 */
import type { FeatureHandlers } from '../core/feature-context.js';
import type { HistoryTransfer } from './history-transfer.js';

export function historyHandlers(history: HistoryTransfer): FeatureHandlers<'history.send' | 'history.decline'> {
  return {
    'history.send': (a) => history.send(a.deviceKey),
    'history.decline': async (a) => history.decline(a.deviceKey),
  };
}
