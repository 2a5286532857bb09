/**
 * Backup and restore of a large history: a profile of 100,000 messages in 50
 * conversations (texts of 3–25 words; a 256 KiB file per 10,000 messages; the database
 * encrypted as the app's is), backed up into a `.relaybackup` file with the real scrypt cost,
 * restored into a fresh profile of the same wallet, and the same history imported as a new
 * device does (the app's event loop must not stall over 50 ms meanwhile).
 *
 * Figures, each the old way (database work on this thread) beside the store worker's: the wall
 * time of backup, restore and import (backup and restore include one scrypt derivation), and the
 * main thread's event-loop delay during each, max and p99; the file's size, and the heap the
 * process grew by (streaming keeps it flat however long the history).
 * BACKUP_BENCH_MESSAGES sets a smaller count to try the section quickly.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { keptFilesIn } from '../../client/attachments/attachment-crypto.js';
import type { ArchiveFiles } from '../../client/backup/backup-archive.js';
import { writeArchive } from '../../client/backup/backup-archive.js';
import { Backups } from '../../client/backup/backups.js';
import { archiveSink } from '../../client/history/history-archive.js';
import { LocalStore, type IncomingMessage } from '../../client/store/local-store.js';
import { StoreWorker } from '../../client/store/store-worker-client.js';
import { watchStalls, type LoopStalls } from '../loop-stalls.js';

export interface BackupBenchOptions {
  quick?: boolean;
  messages?: number;
  log?: (line: string) => void;
}

const CONVERSATIONS = 50;
const WALLET = '0x' + 'ab'.repeat(20);
const PASSPHRASE = 'bench backup passphrase';

/** A profile as the app keeps it (its database encrypted); `worker`: its backups and imports use the store worker. */
export function profile(root: string, name: string, worker: StoreWorker | null) {
  const dir = join(root, name);
  const filesDir = join(dir, 'files');
  mkdirSync(filesDir, { recursive: true });
  const files = keptFilesIn(filesDir, randomBytes(32));
  const file = join(dir, 'client.db');
  const dbKey = randomBytes(32);
  const store = LocalStore.open(file, { key: Buffer.from(dbKey) });
  const offThread = worker ? { worker, profile: async () => ({ file, key: Buffer.from(dbKey) }) } : undefined;
  const backups = new Backups({
    store,
    profileDir: dir,
    attachments: { archiveFiles: async () => files },
    wallet: () => WALLET,
    openStore: (f, key) => LocalStore.open(f, { key }),
    offThread,
  });
  const history = archiveSink({
    store,
    files: async () => files,
    wallet: () => WALLET,
    tempDir: join(dir, 'history'),
    offThread,
  });
  return { store, files, backups, history };
}

export async function fill(store: LocalStore, files: ArchiveFiles, total: number): Promise<void> {
  const peers = Array.from({ length: CONVERSATIONS }, (_, i) => '0x' + (i + 1).toString(16).padStart(40, '0'));
  const words = [
    'relay',
    'backup',
    'lunch',
    'tomorrow',
    'the',
    'a',
    'meeting',
    'photo',
    'café',
    'train',
    'late',
    'yes',
    'no',
    'maybe',
  ];
  const start = Date.UTC(2025, 0, 1);
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < total; i += 1_000) {
    const batch: IncomingMessage[] = [];
    for (let j = i; j < Math.min(total, i + 1_000); j++) {
      const peer = peers[j % CONVERSATIONS];
      const at = new Date(start + j * 60_000).toISOString();
      const text = Array.from(
        { length: 3 + Math.floor(rnd() * 22) },
        () => words[Math.floor(rnd() * words.length)],
      ).join(' ');
      batch.push({
        id: globalThis.crypto.randomUUID(),
        envelopeId: globalThis.crypto.randomUUID(),
        conversationId: `direct:${peer}`,
        conversationKind: 'direct',
        peer,
        author: peer,
        fromMe: false,
        kind: 'text',
        text,
        sentAt: at,
        receivedAt: at,
        routed: 'inbox',
        via: null,
        botName: null,
        isRequest: false,
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
    const ref = {
      blob: `b${n}`,
      key: '',
      nonce: '',
      name: `photo-${n}.jpg`,
      mime: 'image/jpeg',
      size: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
    };
    store.applyIncoming(
      [
        {
          id,
          envelopeId: id,
          conversationId: `direct:${peer}`,
          conversationKind: 'direct',
          peer,
          author: peer,
          fromMe: false,
          kind: 'text',
          text: '',
          sentAt: at,
          receivedAt: at,
          routed: 'inbox',
          via: null,
          botName: null,
          isRequest: false,
          files: [ref],
        },
      ],
      [],
      Date.now(),
    );
    const out = files.create(id, 0);
    await out.write(data);
    await out.end();
    store.attachments.markSaved(id, 0, out.path);
  }
}

/**
 * Each operation runs twice in a row, the old way (the database work on this thread's own
 * connection, as before the store worker) and through the store worker, each watched for
 * event-loop stalls (loop-stalls.ts). Restores and imports go into fresh profiles.
 */
export async function benchBackup(opts: BackupBenchOptions = {}): Promise<Record<string, number>> {
  const log = opts.log ?? (() => undefined);
  const total = opts.messages ?? (Number(process.env.BACKUP_BENCH_MESSAGES) || 100_000);
  const root = mkdtempSync(join(tmpdir(), 'backup-bench-'));
  const worker = new StoreWorker();
  const out: Record<string, number> = { messages: total };
  const note = (op: string, way: string, s: LoopStalls) => {
    out[`${op}_${way}_ms`] = s.wall_ms;
    out[`${op}_${way}_loop_max_ms`] = Math.max(s.max_ms, s.probe_max_ms);
    out[`${op}_${way}_loop_p99_ms`] = Math.max(s.p99_ms, s.probe_p99_ms);
    log(
      `backup bench: ${op} (${way}) in ${(s.wall_ms / 1000).toFixed(1)} s, loop delay max ${out[`${op}_${way}_loop_max_ms`]} ms, p99 ${out[`${op}_${way}_loop_p99_ms`]} ms`,
    );
  };
  try {
    const src = profile(root, 'source', worker);
    await fill(src.store, src.files, total);
    log(`backup bench: ${total} messages stored`);
    // the floor of this machine at this moment: the loop delay of doing nothing for as long
    // (on a shared 2-core machine the thread is not always given a core when its timer is due)
    note('idle', '10s', (await watchStalls(() => new Promise((r) => setTimeout(r, 10_000)))).stalls);
    // the same profile, reached the old way: its own store on this thread
    const oldWay = new Backups({
      store: src.store,
      profileDir: join(root, 'source'),
      attachments: { archiveFiles: async () => src.files },
      wallet: () => WALLET,
      openStore: (f, key) => LocalStore.open(f, { key }),
    });

    const files = { old: join(root, 'old.relaybackup'), worker: join(root, 'worker.relaybackup') };
    note('backup', 'old', (await watchStalls(() => oldWay.export(files.old, PASSPHRASE))).stalls);
    const heap0 = process.memoryUsage().heapUsed;
    let peak = heap0;
    const watch = () => (peak = Math.max(peak, process.memoryUsage().heapUsed));
    note('backup', 'worker', (await watchStalls(() => src.backups.export(files.worker, PASSPHRASE, watch))).stalls);
    out.backup_heap_growth_mb = Math.round(((peak - heap0) / 2 ** 20) * 10) / 10;
    out.file_mb = Math.round((statSync(files.worker).size / 2 ** 20) * 10) / 10;

    for (const way of ['old', 'worker'] as const) {
      const dst = profile(root, `restored-${way}`, way === 'worker' ? worker : null);
      const heap1 = process.memoryUsage().heapUsed;
      peak = heap1;
      const { result, stalls } = await watchStalls(() => dst.backups.restore(files[way], PASSPHRASE, watch));
      if (result.messages < total) throw new Error(`restored ${result.messages} messages of ${total}`);
      note('restore', way, stalls);
      if (way === 'worker') out.restore_heap_growth_mb = Math.round(((peak - heap1) / 2 ** 20) * 10) / 10;
      dst.store.close();
    }

    // a history sent to a new device: the archive's plaintext, as the transfer hands it over once checked
    const chunks: Uint8Array[] = [];
    await writeArchive(src.store, src.files, WALLET, async (c) => void chunks.push(c));
    src.store.close();
    for (const way of ['old', 'worker'] as const) {
      const dst = profile(root, `imported-${way}`, way === 'worker' ? worker : null);
      const { result, stalls } = await watchStalls(() => dst.history.read(Readable.from(chunks)));
      if (result.messages < total) throw new Error(`imported ${result.messages} messages of ${total}`);
      note('import', way, stalls);
      dst.store.close();
    }
    return out;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
