/**
 * The messages between the app and the store worker (store-worker.ts): the client database's
 * heavy work (a backup's snapshot read, a restore or history import written into its staging
 * database and adopted or merged) runs there on connections of its own, so the main thread's
 * event loop keeps answering meanwhile.
 */
import type { ArchiveDb } from '../backup/backup-archive.js';

export type StoreMethod = keyof ArchiveDb;

export const STORE_METHODS: readonly StoreMethod[] = [
  'schemaVersion',
  'count',
  'page',
  'rowTexts',
  'holdsNoHistory',
  'writeRows',
  'setAttachmentPath',
  'refetchUnkeptFiles',
  'hasAttachment',
  'attachmentSha256',
];

export type StoreRequest =
  /** `key`: the file's 32-byte database key, zeroed on both sides once the file is open */
  | { id: number; op: 'open'; file: string; key: Uint8Array | null }
  | { id: number; op: 'call'; handle: number; method: StoreMethod; args: unknown[] }
  | { id: number; op: 'snapshot'; handle: number; begin: boolean }
  | { id: number; op: 'adopt' | 'merge'; into: number; from: number }
  | { id: number; op: 'close'; handle: number };

export type StoreResponse = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };
