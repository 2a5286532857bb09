/**
 * The bytes of blobs (docs/protocol.md §14 Blobs) as files named by their id in one folder. An upload
 * is streamed to a temp file in `<dir>/.tmp` (never held whole in memory), fsynced, and renamed
 * into place only once it is complete, so a crash mid-upload leaves nothing under a blob's name;
 * the row in the store is written after the rename, and a file without a row is an orphan the
 * sweep removes.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, type ReadStream } from 'node:fs';
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BLOB_ID_PATTERN } from '../../../shared/api/blobs.js';

const ID = new RegExp(BLOB_ID_PATTERN);
const TEMP = '.tmp';
const WRITE_BYTES = 1024 * 1024;

/** A complete upload in its temp file: `keep` renames it into place, `discard` removes it. */
export interface ReceivedBlob {
  id: string;
  size: number;
  keep(): Promise<void>;
  discard(): Promise<void>;
}

export interface ReceiveLimits {
  maxBytes: number;
  /** how many leading bytes `checkHead` is given (fewer when the blob is shorter) */
  headBytes: number;
  /** throws to refuse the upload on its first bytes (the plaintext check) */
  checkHead(head: Buffer): void;
  /** once every byte is in the temp file: rejects to refuse the upload on bytes `read` from anywhere in it */
  checkWritten?(size: number, read: (start: number, length: number) => Promise<Buffer>): Promise<void>;
  /** throws to refuse an upload that grew past maxBytes */
  onTooLarge(): never;
}

export class BlobFiles {
  private readonly temp: string;

  constructor(readonly dir: string) {
    this.temp = join(dir, TEMP);
    mkdirSync(this.temp, { recursive: true, mode: 0o700 });
  }

  /** A fresh id: 128 random bits, base64url. */
  static newId(): string {
    return randomBytes(16).toString('base64url');
  }

  static isId(s: string): boolean {
    return ID.test(s);
  }

  /** Streams `source` into a temp file, refusing on the head check or past maxBytes; the file is fsynced when this resolves. */
  async receive(source: AsyncIterable<Buffer>, limits: ReceiveLimits): Promise<ReceivedBlob> {
    const id = BlobFiles.newId();
    // pid in the name: nodes of a cluster may share the folder, and each cleans only stale files
    const tempPath = join(this.temp, `${id}.${process.pid}.part`);
    // read as well as written: checkWritten samples the middle and the end
    const fh = await open(tempPath, 'wx+', 0o600);
    let size = 0;
    // the socket hands over small chunks; one write per MiB instead of per chunk
    let pending: Buffer[] = [];
    let pendingLength = 0;
    const flush = async () => {
      const bytes = Buffer.concat(pending, pendingLength);
      pending = [];
      pendingLength = 0;
      for (let at = 0; at < bytes.length;) at += (await fh.write(bytes, at, bytes.length - at)).bytesWritten;
    };
    let head: Buffer[] | null = [];
    let headLength = 0;
    try {
      for await (const chunk of source) {
        size += chunk.length;
        if (size > limits.maxBytes) limits.onTooLarge();
        if (head) {
          head.push(chunk);
          headLength += chunk.length;
          if (headLength >= limits.headBytes) {
            limits.checkHead(Buffer.concat(head).subarray(0, limits.headBytes));
            head = null;
          }
        }
        pending.push(chunk);
        pendingLength += chunk.length;
        if (pendingLength >= WRITE_BYTES) await flush();
      }
      if (head) limits.checkHead(Buffer.concat(head));
      await flush();
      if (limits.checkWritten) {
        await limits.checkWritten(size, async (start, length) => {
          const bytes = Buffer.alloc(length);
          const { bytesRead } = await fh.read(bytes, 0, length, start);
          return bytes.subarray(0, bytesRead);
        });
      }
      await fh.sync();
    } catch (err) {
      await fh.close().catch(() => undefined);
      await rm(tempPath, { force: true });
      throw err;
    }
    await fh.close();
    const finalPath = this.path(id);
    return {
      id,
      size,
      keep: async () => {
        await rename(tempPath, finalPath);
        await this.syncDir();
      },
      discard: () => rm(tempPath, { force: true }),
    };
  }

  /** The bytes `start`..`end` (inclusive) of a blob, or null when its file is gone. */
  async read(id: string, range: { start: number; end: number }): Promise<ReadStream | null> {
    try {
      const fh = await open(this.path(id), 'r');
      return fh.createReadStream({ start: range.start, end: range.end });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(id: string): Promise<void> {
    await rm(this.path(id), { force: true });
  }

  /** Ids of the blob files last changed before `before` (epoch ms). */
  async idsOlderThan(before: number): Promise<string[]> {
    const out: string[] = [];
    for (const name of await readdir(this.dir)) {
      if (!ID.test(name)) continue;
      const s = await stat(join(this.dir, name)).catch(() => null);
      if (s && s.mtimeMs < before) out.push(name);
    }
    return out;
  }

  /** Removes temp files of uploads that cannot still be running (a crash, a kill -9); returns how many. */
  async removeStaleTemp(before: number): Promise<number> {
    let n = 0;
    for (const name of await readdir(this.temp)) {
      const path = join(this.temp, name);
      const s = await stat(path).catch(() => null);
      if (s && s.mtimeMs < before) {
        await rm(path, { force: true });
        n++;
      }
    }
    return n;
  }

  private path(id: string): string {
    if (!ID.test(id)) throw new Error(`not a blob id: ${JSON.stringify(id)}`);
    return join(this.dir, id);
  }

  /** The rename is durable only once the folder's entry is on disk. */
  private async syncDir(): Promise<void> {
    const d = await open(this.dir, 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  }
}
