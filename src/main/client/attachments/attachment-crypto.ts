/**
 * The bytes of attachments, in node:crypto (the renderer does no crypto, and the vault worker
 * holds only long-lived keys; a file key is single-use and travels inside the sealed message):
 *
 * - on the wire, a blob is AES-256-GCM(file key, nonce, file) followed by its 16-byte tag;
 * - at rest in the profile, a file is `0x01 ‖ nonce(12) ‖ AES-256-GCM(profile file key, file) ‖ tag(16)`,
 *   the profile file key being random and kept sealed with the vault's codec (files-key.ts).
 *
 * Nothing here writes a plaintext byte to disk except `exportFile`, on the person's request
 * (`readAtRestWhole` hands them to web mode's Save in memory).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GCM_TAG_BYTES } from './attachment-wire.js';
import type { ArchiveFiles } from '../backup/backup-archive.js';

const AT_REST_VERSION = 1;
const NONCE_BYTES = 12;

/** A file being encrypted for upload; `sha256()` is the plaintext's hash once the stream has ended. */
export interface EncryptingRead {
  stream: Readable;
  sha256(): string;
}

export function encryptForUpload(path: string, key: Buffer, nonce: Buffer): EncryptingRead {
  const hash = createHash('sha256');
  let digest: string | null = null;
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  async function* bytes() {
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      yield cipher.update(chunk);
    }
    yield cipher.final();
    yield cipher.getAuthTag();
    digest = hash.digest('hex');
  }
  return {
    stream: Readable.from(bytes(), { objectMode: false }),
    sha256: () => {
      if (digest === null) throw new Error('the file has not been read to its end');
      return digest;
    },
  };
}

export class IntegrityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IntegrityError';
  }
}

/**
 * Opens a downloaded blob (`blobPath`, ciphertext ‖ tag) and writes the file encrypted at rest to
 * `destPath`, renamed into place only once the GCM tag, the size and the SHA-256 all match: a
 * tampered blob throws IntegrityError and leaves nothing behind.
 */
export async function storeAtRest(
  blobPath: string,
  ref: { key: Buffer; nonce: Buffer; size: number; sha256: string },
  restKey: Buffer,
  destPath: string,
): Promise<void> {
  const fh = await open(blobPath, 'r');
  let length: number;
  const tag = Buffer.alloc(GCM_TAG_BYTES);
  try {
    length = (await fh.stat()).size - GCM_TAG_BYTES;
    if (length !== ref.size)
      throw new IntegrityError(`the blob holds ${Math.max(0, length)} bytes, the message says ${ref.size}`);
    await fh.read(tag, 0, GCM_TAG_BYTES, length);
  } finally {
    await fh.close();
  }
  const decipher = createDecipheriv('aes-256-gcm', ref.key, ref.nonce).setAuthTag(tag);
  const hash = createHash('sha256');
  const restNonce = randomBytes(NONCE_BYTES);
  const rest = createCipheriv('aes-256-gcm', restKey, restNonce);
  const temp = `${destPath}.part`;
  const out = createWriteStream(temp, { mode: 0o600 });
  try {
    out.write(Buffer.from([AT_REST_VERSION]));
    out.write(restNonce);
    await pipeline(
      createReadStream(blobPath, { start: 0, end: length - 1 }),
      new Transform({
        transform(chunk: Buffer, _enc, cb) {
          const plain = decipher.update(chunk);
          hash.update(plain);
          cb(null, rest.update(plain));
        },
        flush(cb) {
          try {
            decipher.final();
          } catch {
            cb(new IntegrityError('the blob failed its authentication tag: it was altered or corrupted'));
            return;
          }
          if (hash.digest('hex') !== ref.sha256) {
            cb(new IntegrityError('the file does not match the SHA-256 the sender signed'));
            return;
          }
          cb(null, Buffer.concat([rest.final(), rest.getAuthTag()]));
        },
      }),
      out,
    );
    await syncFile(temp);
    await rename(temp, destPath);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

/** Decrypts a file kept at rest into `destPath` (the person's Save). */
export async function exportFile(restPath: string, restKey: Buffer, destPath: string): Promise<void> {
  const temp = `${destPath}.part`;
  try {
    await pipeline(Readable.from(readAtRest(restPath, restKey)), createWriteStream(temp, { mode: 0o600 }));
    await rename(temp, destPath);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

/** Decrypts a file kept at rest into memory (web mode's Save hands the bytes to the browser); a file is at most 25 MiB. */
export async function readAtRestWhole(restPath: string, restKey: Buffer): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of readAtRest(restPath, restKey)) parts.push(chunk);
  return Buffer.concat(parts);
}

async function syncFile(path: string): Promise<void> {
  const fh = await open(path, 'r+');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * A kept file's plaintext as a stream (a backup's copy). The tag is checked at the end: an
 * altered file throws IntegrityError after its bytes were read, so a caller keeps nothing of a
 * stream that did not end cleanly.
 */
export async function* readAtRest(restPath: string, restKey: Buffer): AsyncGenerator<Buffer> {
  const fh = await open(restPath, 'r');
  const head = Buffer.alloc(1 + NONCE_BYTES);
  const tag = Buffer.alloc(GCM_TAG_BYTES);
  let end: number;
  try {
    const size = (await fh.stat()).size;
    if (size < head.length + GCM_TAG_BYTES) throw new IntegrityError('the stored file is too short');
    await fh.read(head, 0, head.length, 0);
    end = size - GCM_TAG_BYTES;
    await fh.read(tag, 0, GCM_TAG_BYTES, end);
  } finally {
    await fh.close();
  }
  if (head[0] !== AT_REST_VERSION) throw new IntegrityError('the stored file is not in a known format');
  const decipher = createDecipheriv('aes-256-gcm', restKey, head.subarray(1)).setAuthTag(tag);
  if (end > head.length)
    for await (const chunk of createReadStream(restPath, { start: head.length, end: end - 1 }) as AsyncIterable<Buffer>)
      yield decipher.update(chunk);
  try {
    yield decipher.final();
  } catch {
    throw new IntegrityError('the stored file was altered or corrupted');
  }
}

/** Writes a file to keep at rest from its plaintext, bit by bit; `end` renames it into place, `abort` removes it (even once in place). */
export function writeAtRest(
  destPath: string,
  restKey: Buffer,
): { write(chunk: Uint8Array): Promise<void>; end(): Promise<void>; abort(): Promise<void> } {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', restKey, nonce);
  const temp = `${destPath}.part`;
  const out = createWriteStream(temp, { mode: 0o600 });
  const put = (b: Buffer) => new Promise<void>((resolve, reject) => out.write(b, (e) => (e ? reject(e) : resolve())));
  let started: Promise<void> | null = null;
  const head = () => (started ??= put(Buffer.concat([Buffer.from([AT_REST_VERSION]), nonce])));
  return {
    async write(chunk) {
      await head();
      await put(cipher.update(chunk));
    },
    async end() {
      await head();
      await put(Buffer.concat([cipher.final(), cipher.getAuthTag()]));
      await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
      await syncFile(temp);
      await rename(temp, destPath);
    },
    async abort() {
      // the stream may still be opening its file: removing it before 'close' would leave it behind
      await new Promise<void>((resolve) => {
        if (out.closed) return resolve();
        out.once('close', () => resolve());
        out.destroy();
      });
      await rm(temp, { force: true });
      await rm(destPath, { force: true });
    },
  };
}

/** The kept files of a profile's folder `dir` under `restKey`, as an archive reads and writes them (`<message id>.<index>`). */
export function keptFilesIn(dir: string, restKey: Buffer): ArchiveFiles {
  return {
    read: (path) => readAtRest(path, restKey),
    create: (messageId, index) => {
      const path = join(dir, `${messageId}.${index}`);
      return { path, ...writeAtRest(path, restKey) };
    },
  };
}
