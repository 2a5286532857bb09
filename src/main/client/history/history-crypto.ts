/**
 * The bytes of a history transfer (wire format, kind `history`): the archive is cut into
 * chunks of `chunkSize` plaintext bytes, each sealed with AES-256-GCM under the transfer's
 * fresh key, its index and whether it is the last in the associated data, so that a relay
 * cannot reorder, drop or cut off chunks without the receiver noticing:
 *
 *   nonce(i) = 0x00000000 ‖ uint64be(i)        (the key is used for this one archive only)
 *   aad(i)   = "relay-history-v1" ‖ uint64be(i) ‖ final ? 0x01 : 0x00
 *   chunk(i) = AES-256-GCM(key, nonce(i), aad(i), plaintext[i·chunkSize …]) ‖ tag (16)
 *
 * Every chunk but the last holds exactly `chunkSize` bytes; the last holds 0 to `chunkSize`
 * (an empty archive is one empty final chunk). The chunks, concatenated, are cut into blobs at
 * chunk boundaries.
 */
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { GCM_TAG_BYTES } from '../attachments/attachment-wire.js';

const AAD_LABEL = Buffer.from('relay-history-v1', 'ascii');

export class HistoryIntegrityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HistoryIntegrityError';
  }
}

function nonceOf(index: number): Buffer {
  const n = Buffer.alloc(12);
  n.writeBigUInt64BE(BigInt(index), 4);
  return n;
}

function aadOf(index: number, final: boolean): Buffer {
  const a = Buffer.alloc(AAD_LABEL.length + 9);
  AAD_LABEL.copy(a);
  a.writeBigUInt64BE(BigInt(index), AAD_LABEL.length);
  a[a.length - 1] = final ? 1 : 0;
  return a;
}

/** How many chunks an archive of `size` bytes makes (at least one). */
export function chunkCount(size: number, chunkSize: number): number {
  return Math.max(1, Math.ceil(size / chunkSize));
}

/** The length of the encrypted stream of an archive of `size` bytes. */
export function sealedLength(size: number, chunkSize: number): number {
  return size + chunkCount(size, chunkSize) * GCM_TAG_BYTES;
}

function sealChunk(key: Buffer, index: number, final: boolean, plain: Buffer): Buffer {
  const c = createCipheriv('aes-256-gcm', key, nonceOf(index)).setAAD(aadOf(index, final));
  return Buffer.concat([c.update(plain), c.final(), c.getAuthTag()]);
}

function openChunk(key: Buffer, index: number, final: boolean, sealed: Buffer): Buffer {
  if (sealed.length < GCM_TAG_BYTES) throw new HistoryIntegrityError(`chunk ${index} is cut short`);
  const d = createDecipheriv('aes-256-gcm', key, nonceOf(index)).setAAD(aadOf(index, final));
  d.setAuthTag(sealed.subarray(sealed.length - GCM_TAG_BYTES));
  try {
    return Buffer.concat([d.update(sealed.subarray(0, sealed.length - GCM_TAG_BYTES)), d.final()]);
  } catch {
    throw new HistoryIntegrityError(
      `chunk ${index} does not authenticate (altered, reordered or from another transfer)`,
    );
  }
}

/**
 * Plaintext in, sealed chunks out; `size()` and `sha256()` describe the plaintext once the
 * stream has ended. A chunk is held back until the next byte arrives (or the end), as only
 * then is it known whether it is the last.
 */
export class ChunkSealer extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private index = 0;
  private total = 0;
  private readonly hash = createHash('sha256');
  private digest: string | null = null;

  constructor(
    private readonly key: Buffer,
    private readonly chunkSize: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.total += chunk.length;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    // strictly more than one chunk held: the first is not the last
    if (this.pendingBytes > this.chunkSize) {
      const all = Buffer.concat(this.pending);
      let at = 0;
      for (; all.length - at > this.chunkSize; at += this.chunkSize)
        this.push(sealChunk(this.key, this.index++, false, all.subarray(at, at + this.chunkSize)));
      this.pending = [all.subarray(at)];
      this.pendingBytes = all.length - at;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    this.push(sealChunk(this.key, this.index++, true, Buffer.concat(this.pending)));
    this.pending = [];
    this.digest = this.hash.digest('hex');
    done();
  }

  size(): number {
    return this.total;
  }

  sha256(): string {
    if (this.digest === null) throw new Error('the archive has not been read to its end');
    return this.digest;
  }
}

/**
 * Opens the sealed chunks read from `source` (the blobs in order) and yields the plaintext;
 * throws HistoryIntegrityError on any chunk that fails, on a stream of the wrong length, and
 * (at the end) on a size or SHA-256 other than the message's.
 */
export async function* openChunks(
  source: AsyncIterable<Buffer>,
  key: Buffer,
  expect: { size: number; sha256: string; chunkSize: number },
): AsyncGenerator<Buffer> {
  const count = chunkCount(expect.size, expect.chunkSize);
  const hash = createHash('sha256');
  let held: Buffer[] = [];
  let heldBytes = 0;
  let index = 0;
  let total = 0;
  const sealedSize = (i: number) =>
    (i < count - 1 ? expect.chunkSize : expect.size - (count - 1) * expect.chunkSize) + GCM_TAG_BYTES;
  for await (const piece of source) {
    held.push(piece);
    heldBytes += piece.length;
    if (index < count && heldBytes >= sealedSize(index)) {
      const all = Buffer.concat(held);
      let at = 0;
      for (; index < count && all.length - at >= sealedSize(index); index++) {
        const want = sealedSize(index);
        const plain = openChunk(key, index, index === count - 1, all.subarray(at, at + want));
        at += want;
        hash.update(plain);
        total += plain.length;
        if (plain.length > 0) yield plain;
      }
      held = [all.subarray(at)];
      heldBytes = all.length - at;
    }
    if (index === count && heldBytes > 0) throw new HistoryIntegrityError('the blobs hold more bytes than the archive');
  }
  if (index < count) throw new HistoryIntegrityError(`the blobs end after ${index} of ${count} chunks`);
  if (total !== expect.size)
    throw new HistoryIntegrityError(`the archive holds ${total} bytes, the message says ${expect.size}`);
  if (hash.digest('hex') !== expect.sha256) throw new HistoryIntegrityError('the archive does not match its SHA-256');
}

/** A readable of the plaintext (for the archive reader). */
export function openedStream(
  source: AsyncIterable<Buffer>,
  key: Buffer,
  expect: { size: number; sha256: string; chunkSize: number },
): Readable {
  return Readable.from(openChunks(source, key, expect), { objectMode: false });
}
