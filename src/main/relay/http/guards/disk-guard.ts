import { statfs } from 'node:fs/promises';
import { HttpError } from '../errors.js';

const RECHECK_MS = 1000;

/**
 * Refuses sends, and the other writes (groups, handles, minted keys and tokens), with 507 while
 * the data folder's file system has less than `minFreeBytes` free (docs/protocol.md §4 Limits), so
 * that a flood cannot fill the disk under SQLite; pulls, acks and sign-in never ask it and keep
 * working. The free space is read at most once a second.
 */
export function diskGuard(
  dir: string | undefined,
  minFreeBytes: number | (() => number),
  now: () => number = Date.now,
): () => Promise<void> {
  // read at every check, so that a reload changes it (0 turns the guard off)
  const minFree = typeof minFreeBytes === 'number' ? () => minFreeBytes : minFreeBytes;
  if (!dir) return async () => undefined;
  let checkedAt = -Infinity;
  let free = Infinity;
  let pending: Promise<void> | null = null;
  const refresh = async () => {
    try {
      const s = await statfs(dir);
      free = s.bavail * s.bsize;
    } catch {
      // A folder that cannot be measured is not refused for it; SQLite reports a full disk itself.
      free = Infinity;
    }
    checkedAt = now();
  };
  return async () => {
    const min = minFree();
    if (min <= 0) return;
    if (now() - checkedAt >= RECHECK_MS) await (pending ??= refresh().finally(() => (pending = null)));
    if (free < min) {
      throw new HttpError(
        507,
        `the relay is low on disk space (${Math.floor(free / 1048576)} MiB free); sends and other writes are refused until its operator frees some`,
        'storage-full',
      );
    }
  };
}
