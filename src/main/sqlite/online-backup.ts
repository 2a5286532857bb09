/**
 * A consistent copy of a live SQLite database through SQLite's online backup API, taken beside
 * a running relay (WAL lets it go on writing). The first step copies a few pages; the next asks
 * for every page left, so the copy finishes inside one read transaction even when another
 * connection's write made SQLite start it over. Also the check a restored copy passes.
 */
import { connectExisting } from './open-database.js';
import { fsyncPath } from './fsync-path.js';

export async function backupDatabase(file: string, destination: string): Promise<void> {
  const db = connectExisting(file);
  try {
    await db.backup(destination, { progress: ({ remainingPages }) => Math.max(remainingPages, 1) });
  } finally {
    db.close();
  }
  fsyncPath(destination);
}

/** `PRAGMA integrity_check`'s answer for `file`: 'ok' for a sound database. */
export function integrityOf(file: string): string {
  const db = connectExisting(file, { readonly: true });
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}
