import { closeSync, fsyncSync, openSync } from 'node:fs';

/** Flushes a file (or a folder's entries) to the disk by path. */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
