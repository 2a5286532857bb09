/**
 * Backup and restore of a profile: an archive of its history (backup-archive.ts) in a
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
import { mkdirSync } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BACKUP_PASSPHRASE_MIN,
  BACKUP_PIECE_BYTES,
  type BackupProgress,
  type BackupSummary,
} from '../../../shared/backup/backup.js';
import type { Attachments } from '../attachments/attachments.js';
import {
  ArchiveError,
  readArchive,
  writeArchive,
  type ArchiveErrorCode,
  type ArchiveFiles,
  type OnProgress,
} from './backup-archive.js';
import { DEFAULT_BACKUP_PARAMS, readBackupFile, writeBackupFile, type BackupParams } from './backup-file.js';
import type { LocalStore } from '../store/local-store.js';
import type { OffThread, StoreAccess, WorkerStore } from '../store/store-worker-client.js';
import { MessengerError, type MessengerErrorCode } from '../core/messenger-error.js';

export interface BackupsDeps {
  store: LocalStore;
  profileDir: string;
  attachments: Pick<Attachments, 'archiveFiles'>;
  /** the profile's wallet address; throws when there is none or it is locked */
  wallet: () => string;
  /** opens (creating) a database file the way the profile's own is opened; `key`: a fresh one of its own */
  openStore: (file: string, key: Buffer) => LocalStore;
  /** when given, the database work runs in the store worker (store-worker-client.ts), off the main thread */
  offThread?: OffThread;
  params?: BackupParams;
}

type Progress = (p: BackupProgress) => void;

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
    if (passphrase.length < BACKUP_PASSPHRASE_MIN)
      throw new MessengerError('bad-argument', `a backup passphrase has at least ${BACKUP_PASSPHRASE_MIN} characters`);
    const files = await this.d.attachments.archiveFiles();
    let head: Awaited<ReturnType<typeof writeArchive>> | null = null;
    const access = await this.d.offThread?.profile();
    const { bytes } = await writeBackupFile(
      path,
      passphrase,
      async (sink) => {
        if (!access) {
          head = await writeArchive(this.d.store, files, wallet, sink, onProgress);
          return;
        }
        const snapshot = await this.d.offThread!.worker.open(access.file, access.key);
        try {
          // every row from one state of the database, however long the file takes to write
          await snapshot.beginSnapshot();
          head = await writeArchive(snapshot, files, wallet, sink, onProgress);
        } finally {
          await snapshot.close();
        }
      },
      this.d.params ?? DEFAULT_BACKUP_PARAMS,
    );
    const h = head!;
    return {
      savedTo: path,
      download: null,
      bytes,
      conversations: h.rows.conversations ?? 0,
      messages: h.rows.messages ?? 0,
      files: h.files.count,
    };
  }

  /** Restores the backup at `path` into this (new) profile; on any failure nothing has changed. */
  async restore(path: string, passphrase: string, onProgress?: OnProgress): Promise<BackupSummary> {
    const wallet = this.d.wallet();
    if (!this.d.store.backup.holdsNoHistory()) throw notNew();
    const files = await this.d.attachments.archiveFiles();
    const temp = join(this.d.profileDir, `restore-${randomBytes(6).toString('hex')}.db`);
    // the staging file is encrypted under a key that dies with it: nothing lands on disk in clear
    const key = randomBytes(32);
    const access = await this.d.offThread?.profile();
    if (access) return this.restoreOffThread(access, temp, key, path, passphrase, files, wallet, onProgress);
    const restored = this.d.openStore(temp, key);
    key.fill(0);
    try {
      const head = await readArchive(
        readBackupFile(path, passphrase),
        { store: restored, files, wallet },
        onProgress,
      ).catch((e: unknown) => {
        throw e instanceof ArchiveError ? new MessengerError(ARCHIVE_TO_MESSENGER[e.code], e.message) : e;
      });
      // the sync loop may have stored something while the file was read: then nothing is adopted
      if (!this.d.store.backup.adopt(restored.backup)) throw notNew();
      return {
        savedTo: null,
        download: null,
        bytes: (await stat(path)).size,
        conversations: restored.backup.count('conversations'),
        messages: restored.backup.count('messages'),
        files: head.files.count,
      };
    } finally {
      restored.close();
      await removeDatabase(temp);
    }
  }

  /** restore() with the staging database and the adoption in the store worker. */
  private async restoreOffThread(
    access: StoreAccess,
    temp: string,
    key: Buffer,
    path: string,
    passphrase: string,
    files: ArchiveFiles,
    wallet: string,
    onProgress?: OnProgress,
  ): Promise<BackupSummary> {
    const worker = this.d.offThread!.worker;
    let restored: WorkerStore | null = null;
    let profile: WorkerStore | null = null;
    try {
      restored = await worker.open(temp, key);
      const head = await readArchive(
        readBackupFile(path, passphrase),
        { store: restored, files, wallet },
        onProgress,
      ).catch((e: unknown) => {
        throw e instanceof ArchiveError ? new MessengerError(ARCHIVE_TO_MESSENGER[e.code], e.message) : e;
      });
      profile = await worker.open(access.file, access.key);
      if (!(await profile.adopt(restored))) throw notNew();
      return {
        savedTo: null,
        download: null,
        bytes: (await stat(path)).size,
        conversations: await restored.count('conversations'),
        messages: await restored.count('messages'),
        files: head.files.count,
      };
    } finally {
      key.fill(0);
      await profile?.close();
      await restored?.close();
      await removeDatabase(temp);
    }
  }
}

const removeDatabase = (file: string) =>
  Promise.all(['', '-wal', '-shm', '-journal'].map((s) => rm(file + s, { force: true })));

/**
 * The page's side of backups (web mode, and restore in both shells): a backup is written into
 * the profile's `backups` folder and read out in pieces for a download; an upload is written
 * there in pieces, restored, and removed. Names are the folder's own (BACKUP_NAME_PATTERN,
 * checked at the doorway), so the page never names a path.
 */
export class BackupFolder {
  private readonly dir: string;

  constructor(
    private readonly backups: Backups,
    profileDir: string,
    private readonly progress: Progress,
  ) {
    this.dir = join(profileDir, 'backups');
  }

  private path(name: string): string {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    return join(this.dir, name);
  }

  /** Exports to `path` when given (the shell's save dialog), else into the folder for a download. */
  async export(passphrase: string, path?: string): Promise<BackupSummary> {
    const name = `relay-${new Date().toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}.relaybackup`;
    const summary = await this.backups.export(path ?? this.path(name), passphrase, (p) =>
      this.progress({ op: 'export', ...p }),
    );
    return path ? summary : { ...summary, savedTo: null, download: name };
  }

  /** One piece of a download from `offset`; the file goes once its last piece is read. */
  async download(name: string, offset: number): Promise<{ data: string; next: number | null }> {
    const path = this.path(name);
    const fh = await open(path, 'r').catch(() => {
      throw new MessengerError('not-found', 'that backup is no longer here; export it again');
    });
    try {
      const buf = Buffer.alloc(BACKUP_PIECE_BYTES);
      const { bytesRead } = await fh.read(buf, 0, buf.length, offset);
      const next = offset + bytesRead < (await fh.stat()).size ? offset + bytesRead : null;
      if (next === null) await rm(path, { force: true });
      return { data: buf.subarray(0, bytesRead).toString('base64'), next };
    } finally {
      await fh.close();
    }
  }

  /** Writes a piece of an upload at `offset` (no name: a new upload). */
  async upload(name: string | undefined, offset: number, data: string): Promise<{ name: string; size: number }> {
    const bytes = Buffer.from(data, 'base64');
    if (bytes.length > BACKUP_PIECE_BYTES)
      throw new MessengerError('bad-argument', `a piece holds at most ${BACKUP_PIECE_BYTES} bytes`);
    const upload = name ?? `upload-${randomBytes(8).toString('hex')}.relaybackup`;
    if (name === undefined && offset !== 0) throw new MessengerError('bad-argument', 'an upload starts at offset 0');
    const fh = await open(this.path(upload), name === undefined ? 'wx' : 'r+', 0o600).catch(() => {
      throw new MessengerError('not-found', 'that upload is no longer here; pick the file again');
    });
    try {
      if ((await fh.stat()).size !== offset)
        throw new MessengerError('bad-argument', 'pieces of an upload come in order');
      await fh.write(bytes, 0, bytes.length, offset);
      return { name: upload, size: offset + bytes.length };
    } finally {
      await fh.close();
    }
  }

  /** Restores an upload, which is removed whatever the outcome (a retry uploads again). */
  async restore(name: string, passphrase: string): Promise<BackupSummary> {
    const path = this.path(name);
    try {
      return await this.backups.restore(path, passphrase, (p) => this.progress({ op: 'restore', ...p }));
    } finally {
      await rm(path, { force: true });
    }
  }
}

const notNew = () =>
  new MessengerError(
    'backup-not-new-profile',
    'a backup restores into a new profile only, and this one already holds conversations',
  );
