/**
 * The store worker's thread (store-worker-client.ts starts it): holds connections to client
 * databases by handle and runs, one request at a time, what store-worker-protocol.ts names.
 * Only database keys reach it, never a private key (those stay in the vault worker).
 */
import { parentPort } from 'node:worker_threads';
import { archiveDbOf, type ArchiveDb } from '../backup/backup-archive.js';
import { LocalStore } from './local-store.js';
import { STORE_METHODS, type StoreRequest, type StoreResponse } from './store-worker-protocol.js';

if (!parentPort) throw new Error('store-worker.ts must run as a worker thread (use StoreWorker)');
const port = parentPort;

const stores = new Map<number, { store: LocalStore; db: ArchiveDb }>();
let nextHandle = 1;

function held(handle: number): { store: LocalStore; db: ArchiveDb } {
  const s = stores.get(handle);
  if (!s) throw new Error(`no store open as ${handle}`);
  return s;
}

function serve(req: StoreRequest): unknown {
  switch (req.op) {
    case 'open': {
      const key = req.key ? Buffer.from(req.key) : undefined;
      try {
        const store = LocalStore.open(req.file, key ? { key } : {});
        stores.set(nextHandle, { store, db: archiveDbOf(store) });
        return nextHandle++;
      } finally {
        // SQLite keeps its own copy for the connection
        key?.fill(0);
        req.key?.fill(0);
      }
    }
    case 'call': {
      if (!STORE_METHODS.includes(req.method)) throw new Error(`the store worker has no method ${req.method}`);
      const fn = held(req.handle).db[req.method] as (...args: unknown[]) => unknown;
      return fn(...req.args);
    }
    case 'snapshot':
      if (req.begin) held(req.handle).store.backup.beginSnapshot();
      else held(req.handle).store.backup.endSnapshot();
      return null;
    case 'adopt':
      return held(req.into).store.backup.adopt(held(req.from).store.backup);
    case 'merge':
      return held(req.into).store.historyMerge.merge(held(req.from).store.backup);
    case 'close':
      stores.get(req.handle)?.store.close();
      stores.delete(req.handle);
      return null;
  }
}

port.on('message', (req: StoreRequest) => {
  let res: StoreResponse;
  try {
    res = { id: req.id, ok: true, value: serve(req) };
  } catch (e) {
    res = { id: req.id, ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(res);
});
