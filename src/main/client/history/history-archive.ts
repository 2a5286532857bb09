/**
 * What a history transfer carries: the backup archive (backup-archive.ts: contacts, groups,
 * conversations, messages, settings and the kept files), the same stream a backup file holds.
 *
 * The receiving side reads it into a database of its own in the profile's `history/` folder
 * (readArchive checks every record: the wallet, the schema, the counts, each file's SHA-256),
 * and only then merges that into the profile (history-store.ts), so a malformed archive changes
 * nothing. Files are written once, straight into the profile's `files/` under its own key.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { HistoryImported } from '../../../shared/backup/history.js';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  readArchive,
  writeArchive,
  type ArchiveFiles,
} from '../backup/backup-archive.js';
import type { HistorySink, HistorySource } from './history-transfer.js';
import { LocalStore } from '../store/local-store.js';
import type { OffThread, WorkerStore } from '../store/store-worker-client.js';

/** the format a `history` message names */
export const HISTORY_ARCHIVE_FORMAT = `${ARCHIVE_FORMAT}-v${ARCHIVE_VERSION}`;

export interface ArchiveParts {
  store: LocalStore;
  /** the profile's kept files (Attachments.archiveFiles: needs the profile unlocked) */
  files: () => Promise<ArchiveFiles>;
  wallet: () => string;
  /** when given, the database work runs in the store worker, off the main thread (backups.ts does the same) */
  offThread?: OffThread;
}

export function archiveSource(p: ArchiveParts): HistorySource {
  return {
    format: HISTORY_ARCHIVE_FORMAT,
    async write(sink: Writable, onProgress) {
      const files = await p.files();
      const access = await p.offThread?.profile();
      const snapshot = access ? await p.offThread!.worker.open(access.file, access.key) : null;
      try {
        await snapshot?.beginSnapshot();
        await writeArchive(
          snapshot ?? p.store,
          files,
          p.wallet(),
          async (chunk) => {
            if (!sink.write(chunk)) await once(sink, 'drain');
          },
          (pr) => onProgress?.(pr.done, pr.total),
        );
      } finally {
        await snapshot?.close();
      }
      sink.end();
    },
  };
}

export function archiveSink(p: ArchiveParts & { tempDir: string }): HistorySink {
  return {
    formats: [HISTORY_ARCHIVE_FORMAT],
    async read(source: Readable, onProgress): Promise<HistoryImported> {
      mkdirSync(p.tempDir, { recursive: true, mode: 0o700 });
      const file = join(p.tempDir, `in-${randomUUID()}.db`);
      const access = await p.offThread?.profile();
      if (access) {
        let staging: WorkerStore | null = null;
        let profile: WorkerStore | null = null;
        try {
          staging = await p.offThread!.worker.open(file, randomBytes(32));
          await readArchive(source, { store: staging, files: await p.files(), wallet: p.wallet() }, (pr) =>
            onProgress?.(pr.done, pr.total),
          );
          profile = await p.offThread!.worker.open(access.file, access.key);
          return await profile.merge(staging);
        } finally {
          await profile?.close();
          await staging?.close();
          for (const suffix of ['', '-wal', '-shm']) await rm(`${file}${suffix}`, { force: true });
        }
      }
      // encrypted under a key that dies with it: no history is ever written to disk in clear
      const staging = LocalStore.open(file, { key: randomBytes(32) });
      try {
        await readArchive(source, { store: staging, files: await p.files(), wallet: p.wallet() }, (pr) =>
          onProgress?.(pr.done, pr.total),
        );
        return p.store.historyMerge.merge(staging.backup);
      } finally {
        staging.close();
        for (const suffix of ['', '-wal', '-shm']) await rm(`${file}${suffix}`, { force: true });
      }
    },
  };
}
