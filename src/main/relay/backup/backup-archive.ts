/**
 * The relay's backup file: one file holding the database copy, the blobs and the TLS pair, so a
 * backup is one thing to keep and a restore cannot miss a part. A first line names the format,
 * then each entry is a JSON line (`name`, `size`) and that many bytes; a last JSON line counts
 * the entries and carries the SHA-256 of everything before it, so a truncated or damaged file is
 * refused before anything is restored from it. Nothing but the names below is ever written
 * back, so a crafted file cannot reach outside the folder it is restored into.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';

export const MAGIC = 'relay-backup 1\n';
const CHUNK = 1024 * 1024;
/** No header line is longer; a longer one means this is not a backup file. */
const MAX_LINE = 4096;

export class BackupFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupFormatError';
  }
}

/** Appends entries to an open file descriptor, hashing as it goes. */
export class ArchiveWriter {
  private readonly hash: Hash = createHash('sha256');
  private entries = 0;
  bytes = 0;

  constructor(private readonly fd: number) {
    this.write(Buffer.from(MAGIC));
  }

  /** Copies the file `path` in as `name`. */
  addFile(name: string, path: string): void {
    const src = openSync(path, 'r');
    try {
      const size = fstatSync(src).size;
      this.write(Buffer.from(`${JSON.stringify({ name, size })}\n`));
      const buf = Buffer.allocUnsafe(CHUNK);
      let left = size;
      while (left > 0) {
        const n = readSync(src, buf, 0, Math.min(CHUNK, left), null);
        if (n === 0) throw new Error(`${path} shrank while it was copied`);
        this.write(buf.subarray(0, n));
        left -= n;
      }
    } finally {
      closeSync(src);
    }
    this.entries++;
  }

  finish(): void {
    const digest = this.hash.copy().digest('hex');
    this.write(Buffer.from(`${JSON.stringify({ end: true, entries: this.entries, sha256: digest })}\n`));
  }

  private write(b: Buffer): void {
    this.hash.update(b);
    let off = 0;
    while (off < b.length) off += writeSync(this.fd, b, off, b.length - off);
    this.bytes += b.length;
  }
}

export interface ArchiveEntry {
  name: string;
  size: number;
}

/**
 * Reads an archive from an open file descriptor: `each` is called per entry with a function that
 * copies the entry's bytes to a descriptor. The file's digest is checked at the end, so a caller
 * writes into a place it can throw away until this returns.
 */
export function readArchive(fd: number, each: (entry: ArchiveEntry, copyTo: (out: number) => void) => void): number {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(CHUNK);
  let start = 0;
  let end = 0;
  let position = 0;
  const fill = (): boolean => {
    if (start > 0) {
      buf.copy(buf, 0, start, end);
      end -= start;
      start = 0;
    }
    const n = readSync(fd, buf, end, buf.length - end, position);
    position += n;
    end += n;
    return n > 0;
  };
  const line = (): string => {
    for (;;) {
      const nl = buf.indexOf(10, start);
      if (nl >= 0 && nl < end) {
        const text = buf.toString('utf8', start, nl);
        hash.update(buf.subarray(start, nl + 1));
        start = nl + 1;
        return text;
      }
      if (end - start > MAX_LINE || !fill()) throw new BackupFormatError('not a relay backup file, or cut short');
    }
  };
  if (`${line()}\n` !== MAGIC)
    throw new BackupFormatError('not a relay backup file (its first line is not “relay-backup 1”)');
  let entries = 0;
  for (;;) {
    const beforeHeader = hash.copy().digest('hex');
    const header = parseHeader(line());
    if ('end' in header) {
      if (header.entries !== entries || header.sha256 !== beforeHeader)
        throw new BackupFormatError('the backup file is damaged (its checksum does not match)');
      return entries;
    }
    let copied = false;
    each(header, (out) => {
      copied = true;
      let left = header.size;
      while (left > 0) {
        if (start === end && !fill()) throw new BackupFormatError('the backup file is cut short');
        const n = Math.min(left, end - start);
        const piece = buf.subarray(start, start + n);
        hash.update(piece);
        let off = 0;
        while (off < n) off += writeSync(out, piece, off, n - off);
        start += n;
        left -= n;
      }
    });
    if (!copied) throw new Error(`entry ${header.name} was not read`);
    entries++;
  }
}

function parseHeader(text: string): ArchiveEntry | { end: true; entries: number; sha256: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new BackupFormatError('the backup file is damaged (an entry header does not parse)');
  }
  const o = v as Record<string, unknown>;
  if (o && o.end === true && typeof o.entries === 'number' && typeof o.sha256 === 'string')
    return { end: true, entries: o.entries, sha256: o.sha256 };
  if (o && typeof o.name === 'string' && Number.isSafeInteger(o.size) && (o.size as number) >= 0)
    return { name: o.name, size: o.size as number };
  throw new BackupFormatError('the backup file is damaged (an entry header is not one)');
}
