/**
 * `relay backup` and `relay restore` (docs/operations.md, Backup and restore). A backup is taken
 * while the relay runs: the database first, through SQLite's online backup API (a consistent
 * copy, WAL and all), then the blob files (a blob's file is in place before its row is written,
 * so every blob the copy names is there; one deleted since is an expired blob the restored
 * relay's sweep forgets), then the TLS pair. A restore goes into a folder of its own making, moved
 * into place only once the file checked out whole, and never over anything that exists.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  rmdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { backupDatabase, integrityOf } from '../../sqlite/online-backup.js';
import { fsyncPath } from '../../sqlite/fsync-path.js';
import { DB_FILE } from '../admin.js';
import { BlobFiles } from '../blobs/blob-files.js';
import { CERT_FILE, KEY_FILE } from '../tls/lan-certificate.js';
import { ArchiveWriter, BackupFormatError, readArchive } from './backup-archive.js';

/** A refusal the operator should read: printed on stderr, exit 1. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

export interface BackupOptions {
  dataDir: string;
  /** null: <dataDir>/blobs */
  blobDir: string | null;
  out: string;
}

export async function backupRelay(o: BackupOptions): Promise<{ savedTo: string; bytes: number }> {
  const db = join(o.dataDir, DB_FILE);
  if (!existsSync(db)) throw new BackupError(`no relay database at ${db} (is --data the relay's data folder?)`);
  if (existsSync(o.out)) throw new BackupError(`${o.out} exists already: name a new file`);
  mkdirSync(dirname(o.out), { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'relay-backup-'));
  const partial = `${o.out}.${process.pid}.partial`;
  try {
    const copy = join(scratch, DB_FILE);
    await backupDatabase(db, copy);
    const fd = openSync(partial, 'wx', 0o600);
    let bytes: number;
    try {
      const w = new ArchiveWriter(fd);
      w.addFile(DB_FILE, copy);
      const blobDir = o.blobDir ?? join(o.dataDir, 'blobs');
      for (const id of existsSync(blobDir) ? readdirSync(blobDir).sort() : []) {
        if (!BlobFiles.isId(id)) continue;
        try {
          w.addFile(`blobs/${id}`, join(blobDir, id));
        } catch (err) {
          // deleted since the database copy: expired or removed by its uploader
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
      for (const f of [KEY_FILE, CERT_FILE]) if (existsSync(join(o.dataDir, f))) w.addFile(f, join(o.dataDir, f));
      w.finish();
      fsyncSync(fd);
      bytes = w.bytes;
    } finally {
      closeSync(fd);
    }
    renameSync(partial, o.out);
    fsyncPath(dirname(o.out));
    return { savedTo: o.out, bytes };
  } finally {
    rmSync(partial, { force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function restoreRelay(o: { in: string; dataDir: string }): { restoredTo: string } {
  if (existsSync(o.dataDir) && readdirSync(o.dataDir).length > 0)
    throw new BackupError(`${o.dataDir} is not empty: restore into a new or empty folder`);
  if (!existsSync(o.in)) throw new BackupError(`no backup file at ${o.in}`);
  const parent = dirname(o.dataDir);
  mkdirSync(parent, { recursive: true });
  const staging = mkdtempSync(join(parent, `.${basename(o.dataDir)}.restoring-`));
  try {
    mkdirSync(join(staging, 'blobs'), { mode: 0o700 });
    const src = openSync(o.in, 'r');
    try {
      readArchive(src, (entry, copyTo) => {
        const target = join(staging, placeOf(entry.name));
        const out = openSync(target, 'wx', 0o600);
        try {
          copyTo(out);
          fsyncSync(out);
        } finally {
          closeSync(out);
        }
      });
    } catch (err) {
      if (err instanceof BackupFormatError) throw new BackupError(`${o.in}: ${err.message}`);
      throw err;
    } finally {
      closeSync(src);
    }
    if (!existsSync(join(staging, DB_FILE))) throw new BackupError(`${o.in} holds no database`);
    const integrity = integrityOf(join(staging, DB_FILE));
    if (integrity !== 'ok') throw new BackupError(`the database in ${o.in} is damaged: ${integrity}`);
    fsyncPath(join(staging, 'blobs'));
    fsyncPath(staging);
    // an empty folder that exists is replaced by the restored one (checked empty above)
    if (existsSync(o.dataDir)) rmdirSync(o.dataDir);
    renameSync(staging, o.dataDir);
    fsyncPath(parent);
    return { restoredTo: o.dataDir };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Where an entry goes inside the data folder; anything else is refused, never written. */
function placeOf(name: string): string {
  if (name === DB_FILE || name === KEY_FILE || name === CERT_FILE) return name;
  const blob = /^blobs\/([^/]+)$/.exec(name);
  if (blob && BlobFiles.isId(blob[1])) return join('blobs', blob[1]);
  throw new BackupError(`the backup file holds an entry the relay does not restore: ${JSON.stringify(name)}`);
}
