/**
 * Attachments (docs/wire-format.md, kind `attachment`): the client's side of files.
 *
 * Sending: each file is encrypted with a fresh AES-256-GCM key and nonce while it is streamed
 * to the relay as a blob; the message that follows carries blob id, key, nonce, name, MIME
 * type, size and the plaintext's SHA-256, sealed like any message.
 *
 * Receiving: a stored attachment message leaves its files `pending` (attachment-store.ts);
 * `fetchPending` downloads each blob to a temp file, opens it, checks tag, size and hash, and
 * keeps the file in `<profile>/files/` encrypted at rest under the profile's file key (random,
 * sealed with the vault's codec in the profile database, like the API key). A file that fails
 * a check is refused and reported, and nothing of it is kept. `exportFile` writes the plaintext
 * where the person asks.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { VaultCodec } from '../../vault/keys/secret-codec.js';
import type { MessageFile } from '../../../shared/attachments.js';
import {
  IntegrityError,
  encryptForUpload,
  exportFile,
  keptFilesIn,
  readAtRestWhole,
  storeAtRest,
} from './attachment-crypto.js';
import type { ArchiveFiles } from '../backup/backup-archive.js';
import type { AttachmentRow } from './attachment-store.js';
import { GCM_TAG_BYTES, MAX_FILES, MAX_FILE_BYTES, cleanName, type AttachmentRef } from './attachment-wire.js';
import { byPercent } from './file-progress.js';
import type { LocalStore } from '../store/local-store.js';
import { MessengerError } from '../core/messenger-error.js';
import { attachmentMimeType } from '../../../shared/mime-types.js';
import { RelayError, isTransient, type Progress, type RelayApi } from '../network/relay-api.js';
import { openSecret, sealSecret } from '../store/sealed-secret.js';

const FILES_KEY_SETTING = 'filesKey';
/** tries of a file whose download failed for a reason that may pass (relay unreachable) */
const MAX_ATTEMPTS = 5;
const BATCH = 20;

export interface FileInfo {
  index: number;
  name: string;
  mime: string;
  size: number;
  state: AttachmentRow['state'];
  /** the file kept encrypted at rest (state `saved`) */
  path: string | null;
  /** why a file was refused, or why the last try failed */
  error: string | null;
}

export interface RefusedFile {
  messageId: string;
  index: number;
  name: string;
  reason: string;
}

export interface AttachmentsDeps {
  api: () => RelayApi;
  store: LocalStore;
  profileDir: string;
  /** the vault's codec once the wallet is open; null while locked */
  codec: () => VaultCodec | null;
  /** a message's files changed (saved or refused) */
  onUpdated?: (messageId: string) => void;
  onRefused?: (r: RefusedFile) => void;
  /** a file's download moved on */
  onDownloadProgress?: (messageId: string, index: number, done: number, total: number) => void;
}

export class Attachments {
  private readonly dir: string;
  private readonly temp: string;
  private restKey: Promise<Buffer> | null = null;
  private fetching: Promise<{ saved: number; refused: number }> | null = null;

  constructor(private readonly d: AttachmentsDeps) {
    this.dir = join(d.profileDir, 'files');
    this.temp = join(this.dir, '.tmp');
  }

  /** Checks the files (at most 10, each 1 byte to 25 MiB less the GCM tag), then encrypts and uploads them one by one. */
  async upload(
    paths: string[],
    onProgress?: (file: number, done: number, total: number) => void,
  ): Promise<AttachmentRef[]> {
    if (paths.length === 0 || paths.length > MAX_FILES)
      throw new MessengerError('bad-argument', `a message carries 1 to ${MAX_FILES} files`);
    const sizes: number[] = [];
    for (const path of paths) {
      const s = await stat(path).catch(() => null);
      if (!s || !s.isFile()) throw new MessengerError('bad-argument', `not a readable file: ${path}`);
      if (s.size === 0) throw new MessengerError('bad-argument', `the file is empty: ${path}`);
      if (s.size > MAX_FILE_BYTES)
        throw new MessengerError('bad-argument', `the file is over ${MAX_FILE_BYTES} bytes (25 MiB less 16): ${path}`);
      sizes.push(s.size);
    }
    const api = this.d.api();
    const refs: AttachmentRef[] = [];
    for (let i = 0; i < paths.length; i++) {
      const key = randomBytes(32);
      const nonce = randomBytes(12);
      let read: ReturnType<typeof encryptForUpload> | null = null;
      const progress: Progress | undefined = onProgress ? (done, total) => onProgress(i, done, total) : undefined;
      const blob = await api.uploadBlob(
        () => (read = encryptForUpload(paths[i], key, nonce)).stream,
        sizes[i] + GCM_TAG_BYTES,
        progress,
      );
      if (blob.size !== sizes[i] + GCM_TAG_BYTES)
        throw new MessengerError('bad-argument', `the file changed while it was sent: ${paths[i]}`);
      const name = cleanName(basename(paths[i]));
      refs.push({
        blob: blob.id,
        key: key.toString('base64'),
        nonce: nonce.toString('base64'),
        name,
        mime: attachmentMimeType(name),
        size: sizes[i],
        sha256: read!.sha256(),
      });
    }
    return refs;
  }

  /**
   * Downloads, checks and keeps every pending file; a call during a run joins it. Each file is
   * tried once per run; one that failed for a passing reason stays pending for the next run.
   */
  fetchPending(): Promise<{ saved: number; refused: number }> {
    return (this.fetching ??= this.fetchAll().finally(() => (this.fetching = null)));
  }

  filesOf(messageId: string): FileInfo[] {
    return this.d.store.attachments.ofMessage(messageId).map((r) => ({
      index: r.index,
      name: r.name,
      mime: r.mime,
      size: r.size,
      state: r.state,
      path: r.path,
      error: r.error,
    }));
  }

  /** The files of a page of messages as the app shows them, by message id (messages without files are absent). */
  viewsOf(messageIds: string[]): Map<string, MessageFile[]> {
    const out = new Map<string, MessageFile[]>();
    for (const r of this.d.store.attachments.ofMessages(messageIds)) {
      let list = out.get(r.messageId);
      if (!list) out.set(r.messageId, (list = []));
      list.push({
        index: r.index,
        name: r.name,
        mime: r.mime,
        size: r.size,
        state: r.state,
        error: r.error,
        preview: r.preview ?? null,
      });
    }
    return out;
  }

  hasPending(messageId: string): boolean {
    return this.d.store.attachments.hasPending(messageId);
  }

  /** Writes a kept file's plaintext to `destPath` (the person's Save). */
  async exportFile(messageId: string, index: number, destPath: string): Promise<void> {
    await exportFile(this.savedPath(messageId, index), await this.profileKey(), destPath);
  }

  /** A kept file's plaintext in memory (at most 25 MiB): web mode's Save hands it to the browser. */
  async readFile(messageId: string, index: number): Promise<Buffer> {
    return readAtRestWhole(this.savedPath(messageId, index), await this.profileKey());
  }

  private savedPath(messageId: string, index: number): string {
    const row = this.d.store.attachments.ofMessage(messageId).find((r) => r.index === index);
    if (!row) throw new MessengerError('not-found', 'no such file');
    if (row.state !== 'saved' || !row.path)
      throw new MessengerError('bad-argument', `the file is not saved on this device (${row.state})`);
    return row.path;
  }

  private async fetchAll(): Promise<{ saved: number; refused: number }> {
    mkdirSync(this.temp, { recursive: true, mode: 0o700 });
    const tried = new Set<string>();
    let saved = 0;
    let refused = 0;
    for (;;) {
      const rows = this.d.store.attachments
        .pending(MAX_ATTEMPTS, BATCH + tried.size)
        .filter((r) => !tried.has(`${r.messageId}/${r.index}`));
      if (rows.length === 0) return { saved, refused };
      for (const row of rows) {
        tried.add(`${row.messageId}/${row.index}`);
        const outcome = await this.fetchOne(row);
        if (outcome === 'saved') saved++;
        if (outcome === 'refused') refused++;
        if (outcome !== 'later') this.d.onUpdated?.(row.messageId);
      }
    }
  }

  private async fetchOne(row: AttachmentRow): Promise<'saved' | 'refused' | 'later'> {
    const blobPath = join(this.temp, `${row.messageId}.${row.index}.blob`);
    const dest = join(this.dir, `${row.messageId}.${row.index}`);
    try {
      const progress: Progress | undefined = this.d.onDownloadProgress
        ? byPercent((done, total) => this.d.onDownloadProgress!(row.messageId, row.index, done, total))
        : undefined;
      await this.d
        .api()
        .downloadBlob(row.blob, createWriteStream(blobPath, { mode: 0o600 }), row.size + GCM_TAG_BYTES, progress);
      await storeAtRest(
        blobPath,
        {
          key: Buffer.from(row.key, 'base64'),
          nonce: Buffer.from(row.nonce, 'base64'),
          size: row.size,
          sha256: row.sha256,
        },
        await this.profileKey(),
        dest,
      );
      this.d.store.attachments.markSaved(row.messageId, row.index, dest);
      return 'saved';
    } catch (e) {
      const reason =
        e instanceof IntegrityError
          ? `${e.message}; the file was not kept`
          : e instanceof RelayError && e.status === 404
            ? 'the relay no longer has this file (it expired or was deleted)'
            : null;
      if (reason !== null) {
        this.d.store.attachments.markRefused(row.messageId, row.index, reason);
        this.d.onRefused?.({ messageId: row.messageId, index: row.index, name: row.name, reason });
        return 'refused';
      }
      if (!isTransient(e) && !(e instanceof MessengerError)) throw e;
      this.d.store.attachments.markAttempt(row.messageId, row.index, e instanceof Error ? e.message : String(e));
      return 'later';
    } finally {
      await rm(blobPath, { force: true });
    }
  }

  /** The profile's file key: made on first use and kept sealed with the vault's codec (one unwrap per session). */
  private profileKey(): Promise<Buffer> {
    const codec = this.d.codec();
    if (!codec) return Promise.reject(new MessengerError('locked', 'unlock the profile first'));
    this.restKey ??= (async () => {
      const stored = this.d.store.getSetting(FILES_KEY_SETTING);
      if (stored) return Buffer.from(await openSecret(codec, stored), 'base64');
      const key = randomBytes(32);
      this.d.store.setSetting(FILES_KEY_SETTING, await sealSecret(codec, key.toString('base64')));
      return key;
    })().catch((e: unknown) => {
      this.restKey = null;
      throw e;
    });
    return this.restKey;
  }

  /**
   * Removes the kept files no message refers to any more (deleted for everyone, or expired):
   * the database lets go of them first, in the same transaction as the message.
   */
  async sweepFiles(): Promise<number> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      // kept files are named <message id>.<index>; a row in any state keeps its file (a fetch
      // in flight writes it before it records it)
      const dot = name.lastIndexOf('.');
      if (name === '.tmp' || dot <= 0 || this.d.store.attachments.has(name.slice(0, dot), Number(name.slice(dot + 1))))
        continue;
      await rm(join(this.dir, name), { force: true });
      removed++;
    }
    return removed;
  }

  /** The kept files' plaintext for an archive (backup-archive.ts), and where a restored one is kept: under this profile's key. */
  async archiveFiles(): Promise<ArchiveFiles> {
    const key = await this.profileKey();
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    return keptFilesIn(this.dir, key);
  }

  /** Forgets the unwrapped key (the profile locked). */
  lock(): void {
    this.restKey = null;
  }
}
