/**
 * The chunked sealing of a history archive (history-crypto.ts): any cut of the plaintext comes
 * back whole; reordered, dropped, altered or cut-off chunks, and a wrong size or hash, are refused.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ChunkSealer, HistoryIntegrityError, openChunks, sealedLength } from '../history-crypto.js';

const CHUNK = 1024;
const TAG = 16;

async function seal(plain: Buffer, key: Buffer): Promise<{ sealed: Buffer; size: number; sha256: string }> {
  const sealer = new ChunkSealer(key, CHUNK);
  // pieces unlike the chunks, as an archive writer would hand them over
  const pieces: Buffer[] = [];
  for (let at = 0; at < plain.length; at += 333) pieces.push(plain.subarray(at, at + 333));
  const sealed = Buffer.concat(await Readable.from(pieces).pipe(sealer).toArray());
  return { sealed, size: sealer.size(), sha256: sealer.sha256() };
}

async function open(
  sealed: Buffer,
  key: Buffer,
  expect: { size: number; sha256: string },
  piece = 500,
): Promise<Buffer> {
  async function* source() {
    for (let at = 0; at < sealed.length; at += piece) yield sealed.subarray(at, at + piece);
  }
  const out: Buffer[] = [];
  for await (const p of openChunks(source(), key, { ...expect, chunkSize: CHUNK })) out.push(p);
  return Buffer.concat(out);
}

describe('history chunks', () => {
  it('round-trip archives of every awkward length', async () => {
    for (const size of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 7]) {
      const key = randomBytes(32);
      const plain = randomBytes(size);
      const s = await seal(plain, key);
      expect(s.size).toBe(size);
      expect(s.sha256).toBe(createHash('sha256').update(plain).digest('hex'));
      expect(s.sealed.length).toBe(sealedLength(size, CHUNK));
      expect((await open(s.sealed, key, s)).equals(plain)).toBe(true);
    }
  });

  it('refuse altered, reordered, dropped and cut-off chunks, another key, and a wrong size or hash', async () => {
    const key = randomBytes(32);
    const plain = randomBytes(3 * CHUNK + 100);
    const s = await seal(plain, key);
    const whole = CHUNK + TAG;
    const chunk = (i: number) => s.sealed.subarray(i * whole, Math.min(s.sealed.length, (i + 1) * whole));
    const refused = (sealed: Buffer, over: Partial<{ size: number; sha256: string }> = {}, k = key) =>
      open(sealed, k, { ...s, ...over }).then(
        () => null,
        (e: unknown) => e,
      );

    const flipped = Buffer.from(s.sealed);
    flipped[whole + 10] ^= 1;
    expect(await refused(flipped)).toMatchObject({
      name: 'HistoryIntegrityError',
      message: expect.stringMatching(/chunk 1 does not authenticate/),
    });
    expect(await refused(Buffer.concat([chunk(1), chunk(0), chunk(2), chunk(3)]))).toMatchObject({
      message: expect.stringMatching(/chunk 0 does not authenticate/),
    });
    expect(await refused(Buffer.concat([chunk(0), chunk(1), chunk(2)]))).toMatchObject({
      message: expect.stringMatching(/end after 3 of 4 chunks/),
    });
    expect(await refused(Buffer.concat([s.sealed, Buffer.alloc(5)]))).toMatchObject({
      message: expect.stringMatching(/more bytes than the archive/),
    });
    expect(await refused(s.sealed, {}, randomBytes(32))).toBeInstanceOf(HistoryIntegrityError);
    // the first three chunks passed off as a whole archive: the third was not sealed as the last
    expect(await refused(Buffer.concat([chunk(0), chunk(1), chunk(2)]), { size: 3 * CHUNK })).toMatchObject({
      message: expect.stringMatching(/chunk 2 does not authenticate/),
    });
    expect(await refused(s.sealed, { sha256: '00'.repeat(32) })).toMatchObject({
      message: expect.stringMatching(/SHA-256/),
    });
  });
});
