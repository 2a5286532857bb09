/**
 * Backup and restore of a profile (issue 13): an archive of its history (backup-archive.ts) in a
 * passphrase-sealed `.relaybackup` file (backup-file.ts). Never the wallet key: the recovery
 * phrase restores the wallet, and a backup restores only into a profile of the same wallet.
 *
 * Restore changes nothing until the whole file has passed: the archive is read into a new
 * database file beside the profile's, and only once its final chunk authenticated are its rows
 * adopted into the profile's database, in one transaction (BackupStore.adopt). Files are written
 * to the profile's files folder as they come and removed again if the restore fails. A profile
 * that already holds conversations is refused: a restore does not merge histories.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Attachments } from './attachments.js';
import { ArchiveError, readArchive, writeArchive, type ArchiveErrorCode, type OnProgress } from './backup-archive.js';
import { DEFAULT_BACKUP_PARAMS, readBackupFile, writeBackupFile, type BackupParams } from './backup-file.js';
import type { LocalStore } from './local-store.js';
import { MessengerError, type MessengerErrorCode } from './messenger-error.js';

export interface BackupsDeps {
  store: LocalStore;
  profileDir: string;
  attachments: Pick<Attachments, 'archiveFiles'>;
  /** the profile's wallet address; throws when there is none or it is locked */
  wallet: () => string;
  /** opens (creating) a database file the way the profile's own is opened */
  openStore: (file: string) => LocalStore;
  params?: BackupParams;
}

export interface BackupSummary {
  path: string;
  bytes: number;
  conversations: number;
  messages: number;
  files: number;
}

const ARCHIVE_TO_MESSENGER: Record<ArchiveErrorCode, MessengerErrorCode> = {
  'archive-malformed': 'backup-damaged',
  'archive-truncated': 'backup-damaged',
  'archive-other-wallet': 'backup-other-wallet',
  'archive-too-new': 'backup-too-new',
  'archive-target-not-empty': 'backup-not-new-profile',
};

export class Backups {
  constructor(private readonly d: BackupsDeps) {}

  /** Writes a backup of the profile to `path` (replacing it only once complete). */
  async export(path: string, passphrase: string, onProgress?: OnProgress): Promise<BackupSummary> {
    const wallet = this.d.wallet();
    const files = await this.d.attachments.archiveFiles();
    let head: Awaited<ReturnType<typeof writeArchive>> | null = null;
    const { bytes } = await writeBackupFile(path, passphrase, async (sink) => {
      head = await writeArchive(this.d.store, files, wallet, sink, onProgress);
    }, this.d.params ?? DEFAULT_BACKUP_PARAMS);
    const h = head!;
    return { path, bytes, conversations: h.rows.conversations ?? 0, messages: h.rows.messages ?? 0, files: h.files.count };
  }

  /** Restores the backup at `path` into this (new) profile; on any failure nothing has changed. */
  async restore(path: string, passphrase: string, onProgress?: OnProgress): Promise<BackupSummary> {
    const wallet = this.d.wallet();
    if (!this.d.store.backup.holdsNoHistory()) throw notNew();
    const files = await this.d.attachments.archiveFiles();
    const temp = join(this.d.profileDir, `restore-${randomBytes(6).toString('hex')}.db`);
    const restored = this.d.openStore(temp);
    try {
      const head = await readArchive(readBackupFile(path, passphrase), { store: restored, files, wallet }, onProgress).catch((e: unknown) => {
        throw e instanceof ArchiveError ? new MessengerError(ARCHIVE_TO_MESSENGER[e.code], e.message) : e;
      });
      // the sync loop may have stored something while the file was read
      if (!this.d.store.backup.holdsNoHistory()) throw notNew();
      this.d.store.backup.adopt(restored.backup);
      return { path, bytes: 0, conversations: restored.backup.count('conversations'), messages: restored.backup.count('messages'), files: head.files.count };
    } finally {
      restored.close();
      await Promise.all(['', '-wal', '-shm', '-journal'].map((s) => rm(temp + s, { force: true })));
    }
  }
}

const notNew = () => new MessengerError('backup-not-new-profile', 'a backup restores into a new profile only, and this one already holds conversations');
