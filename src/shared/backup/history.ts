/** History on a new device: what the app hears of a transfer (src/main/client/history/history-transfer.ts). */

export type HistoryPhase = 'pack' | 'upload' | 'download' | 'verify' | 'import';

export interface HistoryProgress {
  direction: 'send' | 'receive';
  /** the other device */
  deviceKey: string;
  phase: HistoryPhase;
  done: number;
  /** 0 while unknown */
  total: number;
}

export interface HistoryImported {
  conversations: number;
  messages: number;
}

export type HistoryOutcome =
  | ({ state: 'received'; fromDevice: string } & HistoryImported)
  | { state: 'refused'; fromDevice: string; reason: string };

export interface HistorySent {
  deviceKey: string;
  /** the archive's length in bytes */
  size: number;
  blobs: number;
}
