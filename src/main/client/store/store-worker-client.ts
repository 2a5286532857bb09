/**
 * The app's handle on the store worker (store-worker.ts): a thread of its own that opens client
 * databases on connections of its own and does their heavy work there — a backup's rows read
 * from one snapshot, a restore or history import written into its staging database and adopted
 * or merged in one transaction — while the main thread's event loop keeps answering. Started on
 * the first open and ended when the last store it holds is closed, so an idle app has no thread.
 *
 * Two connections to one file: WAL lets the worker's snapshot read while the app writes; a write
 * of the app while the worker adopts waits for it (busy_timeout), the one wait left on the main
 * thread, and only while a restore or import commits.
 */
import type { Worker } from 'node:worker_threads';
import type { HistoryImported } from '../../../shared/backup/history.js';
import type { ArchiveDb, RowsWritten } from '../backup/backup-archive.js';
import type { ArchiveRow, ArchiveTable, RowValue } from '../backup/backup-store.js';
import { startThread, threadEntry } from '../../threads/start-thread.js';
import type { StoreMethod, StoreRequest, StoreResponse } from './store-worker-protocol.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Where a database file is, and its key when it is encrypted: what the worker opens it with. */
export interface StoreAccess {
  file: string;
  key?: Uint8Array;
}

/** The store worker and how to reach the profile's own database (null: it is in memory, locked). */
export interface OffThread {
  worker: StoreWorker;
  profile: () => Promise<StoreAccess | null>;
}

export class StoreWorker {
  private worker: Worker | null = null;
  private readonly pending = new Map<
    number,
    { worker: Worker; resolve: (v: unknown) => void; reject: (e: Error) => void }
  >();
  private seq = 0;
  private open_ = 0;

  /** `workerEntry`: where the worker's entry is when a bundler put it elsewhere (as VaultClientOptions.workerEntry) */
  constructor(private readonly workerEntry?: string | URL) {}

  /** Opens `file` in the worker (creating and migrating it as LocalStore.open does); `key` is zeroed once sent. */
  async open(file: string, key?: Uint8Array): Promise<WorkerStore> {
    // a copy of its own, so the caller's buffer (maybe a slice of a pool) can be zeroed now
    const sent = key ? new Uint8Array(key) : null;
    key?.fill(0);
    this.open_++;
    try {
      const handle = (await this.request({ op: 'open', file, key: sent }, sent ? [sent.buffer] : [])) as number;
      return new WorkerStore(this, handle);
    } catch (e) {
      this.released();
      throw e;
    }
  }

  /** @internal one round trip (WorkerStore's) */
  request(req: DistributiveOmit<StoreRequest, 'id'>, transfer: ArrayBuffer[] = []): Promise<unknown> {
    const worker = this.worker ?? this.start();
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { worker, resolve, reject });
      worker.postMessage({ ...req, id }, transfer);
    });
  }

  /** @internal a store was closed: the last one ends the thread */
  released(): void {
    if (--this.open_ > 0 || !this.worker) return;
    const w = this.worker;
    this.worker = null;
    void w.terminate();
  }

  private start(): Worker {
    const worker = startThread(threadEntry(import.meta.url, 'store-worker', this.workerEntry));
    worker.on('message', (res: StoreResponse) => {
      const p = this.pending.get(res.id);
      if (!p) return;
      this.pending.delete(res.id);
      if (res.ok) p.resolve(res.value);
      else p.reject(new Error(res.message));
    });
    // a thread ended when its last store closed may exit after the next one started
    const gone = (why: string) => {
      if (this.worker === worker) this.worker = null;
      for (const [id, p] of this.pending) {
        if (p.worker !== worker) continue;
        this.pending.delete(id);
        p.reject(new Error(why));
      }
    };
    worker.on('error', (e) => gone(`the store worker crashed (${e.message})`));
    worker.on('exit', (code) => gone(`the store worker exited (code ${code})`));
    this.worker = worker;
    return worker;
  }
}

/** A database the store worker holds open: an ArchiveDb whose every call is a round trip. */
export class WorkerStore implements ArchiveDb {
  private closed = false;

  constructor(
    private readonly w: StoreWorker,
    readonly handle: number,
  ) {}

  private call<T>(method: StoreMethod, ...args: unknown[]): Promise<T> {
    return this.w.request({ op: 'call', handle: this.handle, method, args }) as Promise<T>;
  }

  /** A record's bytes are handed over, not copied, when they fill a buffer of their own (records() slices them so). */
  writeRows(body: Uint8Array): Promise<RowsWritten> {
    const own =
      body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer;
    return this.w.request(
      { op: 'call', handle: this.handle, method: 'writeRows', args: [body] },
      own ? [body.buffer as ArrayBuffer] : [],
    ) as Promise<RowsWritten>;
  }

  schemaVersion = () => this.call<number>('schemaVersion');
  count = (table: ArchiveTable) => this.call<number>('count', table);
  page = (table: ArchiveTable, after: RowValue, limit: number) =>
    this.call<{ rows: ArchiveRow[]; next: RowValue }>('page', table, after, limit);
  rowTexts = (table: ArchiveTable, after: RowValue, limit: number) =>
    this.call<{ texts: string[]; next: RowValue }>('rowTexts', table, after, limit);
  holdsNoHistory = () => this.call<boolean>('holdsNoHistory');
  setAttachmentPath = (messageId: string, index: number, path: string) =>
    this.call<void>('setAttachmentPath', messageId, index, path);
  refetchUnkeptFiles = () => this.call<number>('refetchUnkeptFiles');
  hasAttachment = (messageId: string, index: number) => this.call<boolean>('hasAttachment', messageId, index);
  attachmentSha256 = (messageId: string, index: number) =>
    this.call<string | null>('attachmentSha256', messageId, index);

  /** Every read until endSnapshot() sees one state of the database (BackupStore.beginSnapshot). */
  async beginSnapshot(): Promise<void> {
    await this.w.request({ op: 'snapshot', handle: this.handle, begin: true });
  }

  async endSnapshot(): Promise<void> {
    await this.w.request({ op: 'snapshot', handle: this.handle, begin: false });
  }

  /** BackupStore.adopt of `from` into this one, in the worker: false when this one holds history. */
  adopt(from: WorkerStore): Promise<boolean> {
    return this.w.request({ op: 'adopt', into: this.handle, from: from.handle }) as Promise<boolean>;
  }

  /** HistoryMergeStore.merge of `from` into this one, in the worker. */
  merge(from: WorkerStore): Promise<HistoryImported> {
    return this.w.request({ op: 'merge', into: this.handle, from: from.handle }) as Promise<HistoryImported>;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.w.request({ op: 'close', handle: this.handle });
    } finally {
      this.w.released();
    }
  }
}
