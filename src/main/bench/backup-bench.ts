/**
 * Backup and restore of a large history (issue 13): a profile of 100,000 messages in 50
 * conversations (texts of 3–25 words; a 256 KiB file per 10,000 messages), backed up into a `.relaybackup` file with the
 * real scrypt cost, then restored into a fresh profile of the same wallet.
 *
 * Figures: backup_ms and restore_ms (each includes one scrypt derivation), the file's size, and
 * the heap the process grew by during each (streaming keeps it flat however long the history).
 * BACKUP_BENCH_MESSAGES sets a smaller count to try the section quickly.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keptFilesIn } from '../client/attachments/attachment-crypto.js';
import type { ArchiveFiles } from '../client/backup/backup-archive.js';
import { Backups } from '../client/backup/backups.js';
import { LocalStore, type IncomingMessage } from '../client/store/local-store.js';

export interface BackupBenchOptions {
  quick?: boolean;
  messages?: number;
  log?: (line: string) => void;
}

const CONVERSATIONS = 50;
const WALLET = '0x' + 'ab'.repeat(20);
const PASSPHRASE = 'bench backup passphrase';

export function profile(root: string, name: string) {
  const dir = join(root, name);
  const filesDir = join(dir, 'files');
  mkdirSync(filesDir, { recursive: true });
  const files = keptFilesIn(filesDir, randomBytes(32));
  const store = LocalStore.open(join(dir, 'client.db'));
  const backups = new Backups({ store, profileDir: dir, attachments: { archiveFiles: async () => files }, wallet: () => WALLET, openStore: (f) => LocalStore.open(f) });
  return { store, files, backups };
}

export async function fill(store: LocalStore, files: ArchiveFiles, total: number): Promise<void> {
  const peers = Array.from({ length: CONVERSATIONS }, (_, i) => '0x' + (i + 1).toString(16).padStart(40, '0'));
  const words = ['relay', 'backup', 'lunch', 'tomorrow', 'the', 'a', 'meeting', 'photo', 'café', 'train', 'late', 'yes', 'no', 'maybe'];
  const start = Date.UTC(2025, 0, 1);
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < total; i += 1_000) {
    const batch: IncomingMessage[] = [];
    for (let j = i; j < Math.min(total, i + 1_000); j++) {
      const peer = peers[j % CONVERSATIONS];
      const at = new Date(start + j * 60_000).toISOString();
      const text = Array.from({ length: 3 + Math.floor(rnd() * 22) }, () => words[Math.floor(rnd() * words.length)]).join(' ');
      batch.push({
        id: globalThis.crypto.randomUUID(), envelopeId: globalThis.crypto.randomUUID(), conversationId: `direct:${peer}`, conversationKind: 'direct', peer, author: peer,
        fromMe: false, kind: 'text', text, sentAt: at, receivedAt: at, routed: 'inbox', via: null, botName: null, isRequest: false,
      });
    }
    store.applyIncoming(batch, [], Date.now());
  }
  // a photo of 256 KiB every 10,000 messages: the files travel too
  for (let n = 0; n < Math.max(1, Math.floor(total / 10_000)); n++) {
    const data = randomBytes(256 * 1024);
    const peer = peers[n % CONVERSATIONS];
    const id = globalThis.crypto.randomUUID();
    const at = new Date(start + (total + n) * 60_000).toISOString();
    const ref = { blob: `b${n}`, key: '', nonce: '', name: `photo-${n}.jpg`, mime: 'image/jpeg', size: data.length, sha256: createHash('sha256').update(data).digest('hex') };
    store.applyIncoming([{ id, envelopeId: id, conversationId: `direct:${peer}`, conversationKind: 'direct', peer, author: peer, fromMe: false, kind: 'text', text: '', sentAt: at, receivedAt: at, routed: 'inbox', via: null, botName: null, isRequest: false, files: [ref] }], [], Date.now());
    const out = files.create(id, 0);
    await out.write(data);
    await out.end();
    store.attachments.markSaved(id, 0, out.path);
  }
}

export async function benchBackup(opts: BackupBenchOptions = {}): Promise<Record<string, number>> {
  const log = opts.log ?? (() => undefined);
  const total = opts.messages ?? (Number(process.env.BACKUP_BENCH_MESSAGES) || 100_000);
  const root = mkdtempSync(join(tmpdir(), 'backup-bench-'));
  try {
    const src = profile(root, 'source');
    await fill(src.store, src.files, total);
    log(`backup bench: ${total} messages stored`);
    const file = join(root, 'bench.relaybackup');
    const heap0 = process.memoryUsage().heapUsed;
    let peak = heap0;
    const watch = () => (peak = Math.max(peak, process.memoryUsage().heapUsed));
    let t = performance.now();
    await src.backups.export(file, PASSPHRASE, watch);
    const backupMs = performance.now() - t;
    const backupHeap = peak - heap0;
    log(`backup bench: backup in ${(backupMs / 1000).toFixed(1)} s`);
    src.store.close();

    const dst = profile(root, 'restored');
    const heap1 = process.memoryUsage().heapUsed;
    peak = heap1;
    t = performance.now();
    const restored = await dst.backups.restore(file, PASSPHRASE, watch);
    const restoreMs = performance.now() - t;
    if (restored.messages < total) throw new Error(`restored ${restored.messages} messages of ${total}`);
    log(`backup bench: restore in ${(restoreMs / 1000).toFixed(1)} s`);
    dst.store.close();
    return {
      messages: total,
      backup_ms: Math.round(backupMs),
      restore_ms: Math.round(restoreMs),
      file_mb: Math.round((statSync(file).size / 2 ** 20) * 10) / 10,
      backup_heap_growth_mb: Math.round((backupHeap / 2 ** 20) * 10) / 10,
      restore_heap_growth_mb: Math.round(((peak - heap1) / 2 ** 20) * 10) / 10,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
