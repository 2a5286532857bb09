/**
 * Backups as the app sees them: what an export or a restore did, and its progress.
 * The file itself never reaches the page whole: in web mode it is carried in base64 pieces of
 * at most BACKUP_PIECE_BYTES (the socket takes frames of 1 MiB), the same pieces as a file's.
 */
import { FILE_CHUNK_BYTES } from '../attachments.js';

export const BACKUP_PIECE_BYTES = FILE_CHUNK_BYTES;
/** a backup kept in the profile's backups folder, to be downloaded or restored */
export const BACKUP_NAME_PATTERN = '^[a-z0-9-]{1,80}\\.relaybackup$';
/** a backup passphrase: long enough to be worth scrypt, not a page of text */
export const BACKUP_PASSPHRASE_MIN = 8;

export interface BackupSummary {
  /** where the file was saved (a path the person chose; Electron), else null */
  savedTo: string | null;
  /** the name to download it by (web mode), else null */
  download: string | null;
  bytes: number;
  conversations: number;
  messages: number;
  files: number;
}

/** units are rows plus KiB of files: only the ratio means anything */
export interface BackupProgress {
  op: 'export' | 'restore';
  done: number;
  total: number;
}

/** "3 conversations, 120 messages, 2 files": what a backup holds, in words. */
export function backupCounts(s: Pick<BackupSummary, 'conversations' | 'messages' | 'files'>): string {
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  return `${n(s.conversations, 'conversation')}, ${n(s.messages, 'message')}, ${n(s.files, 'file')}`;
}
