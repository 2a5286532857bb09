import type { RelayStore } from '../store/store.js';
import type { BlobFiles } from './blob-files.js';

const SWEEP_CHUNK = 500;
/**
 * A whole request may take at most 30 s (the server's requestTimeout), so a temp file older than
 * this belongs to no running upload; the same margin covers a file renamed into place whose row
 * is being committed.
 */
export const STALE_AFTER_MS = 10 * 60 * 1000;

/**
 * Expired blobs go, row first and then file (a crash in between leaves an orphan file, which the
 * next sweep finds); then orphans and stale temp files. Returns how many blobs expired.
 */
export async function sweepBlobs(store: RelayStore, files: BlobFiles, now: number): Promise<number> {
  let expired = 0;
  for (;;) {
    const ids = await store.sweepBlobs(now, SWEEP_CHUNK);
    for (const id of ids) await files.remove(id);
    expired += ids.length;
    if (ids.length < SWEEP_CHUNK) break;
  }
  const cutoff = Date.now() - STALE_AFTER_MS;
  const candidates = await files.idsOlderThan(cutoff);
  for (let i = 0; i < candidates.length; i += SWEEP_CHUNK) {
    for (const id of await store.unknownBlobIds(candidates.slice(i, i + SWEEP_CHUNK))) await files.remove(id);
  }
  await files.removeStaleTemp(cutoff);
  return expired;
}
