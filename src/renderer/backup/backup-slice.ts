import { defineMessage } from 'react-intl';
import type { StateCreator } from 'zustand';
import { BACKUP_PIECE_BYTES, type BackupProgress, type BackupSummary } from '../../shared/backup/backup.js';
import { call } from '../bridge/bridge.js';
import { downloadBlob, fromBase64, toBase64 } from '../files/file-transfer.js';
import { DescribedError } from '../i18n/described-error.js';
import type { Store } from '../store.js';

/**
 * Backups: main writes and reads the file (and does all of the crypto); the page only carries
 * the bytes. An export in web mode is downloaded piece by piece and saved by the browser; a
 * restore's file is uploaded piece by piece. Progress comes as `backup.progress` events.
 */
export interface BackupSlice {
  backupProgress: BackupProgress | null;
  backupProgressed: (p: BackupProgress) => void;
  /** null: the person cancelled the save dialog */
  exportBackup: (passphrase: string) => Promise<BackupSummary | null>;
  restoreBackup: (file: File, passphrase: string) => Promise<BackupSummary>;
}

async function download(name: string): Promise<void> {
  const parts: Uint8Array[] = [];
  for (let offset: number | null = 0; offset !== null;) {
    const piece: { data: string; next: number | null } = await call('backup.download', { name, offset });
    parts.push(fromBase64(piece.data));
    offset = piece.next;
  }
  downloadBlob(new Blob(parts as BlobPart[], { type: 'application/octet-stream' }), name);
}

export const createBackupSlice: StateCreator<Store, [], [], BackupSlice> = (set) => ({
  backupProgress: null,
  backupProgressed: (backupProgress) => set({ backupProgress }),
  exportBackup: async (passphrase) => {
    set({ backupProgress: { op: 'export', done: 0, total: 1 } });
    try {
      const summary = await call('backup.export', { passphrase });
      if (summary?.download) await download(summary.download);
      return summary;
    } finally {
      set({ backupProgress: null });
    }
  },
  restoreBackup: async (file, passphrase) => {
    set({ backupProgress: { op: 'restore', done: 0, total: 1 } });
    try {
      let name: string | undefined;
      for (let offset = 0; offset < file.size; offset += BACKUP_PIECE_BYTES) {
        const bytes = new Uint8Array(await file.slice(offset, offset + BACKUP_PIECE_BYTES).arrayBuffer());
        name = (await call('backup.upload', { ...(name ? { name } : {}), offset, data: toBase64(bytes) })).name;
      }
      if (!name)
        throw new DescribedError(
          defineMessage({
            id: 'backup.restore.fileEmpty',
            defaultMessage: 'That file is empty.',
            description: 'Error in the restore form when the chosen backup file has no content',
          }),
        );
      return await call('backup.restore', { name, passphrase });
    } finally {
      set({ backupProgress: null });
    }
  },
});
