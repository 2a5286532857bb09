/**
 * Blobs look sealed throughout (docs/protocol.md, Blobs): zero-filled data, UTF-16 text and
 * padded images are refused 400 not-sealed wherever the regular bytes lie (the first, a middle
 * or the last 4 KiB); random bytes, which is what sealed bytes look like, always pass.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ENTROPY_WINDOW,
  MIN_BITS_PER_BYTE,
  MIN_ENTROPY_BLOB,
  byteEntropy,
  entropyWindows,
} from '../../blobs/blob-entropy.js';
import { signIn, startRelay, type TestRelay, type TestUser } from '../harness.js';

const KIB = 1024;

describe('the entropy rule', () => {
  it('measures bits per byte and samples the first, a middle and the last window', () => {
    expect(byteEntropy(Buffer.alloc(4096))).toBe(0);
    expect(byteEntropy(Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256)))).toBe(8);
    expect(byteEntropy(Buffer.from('ab'.repeat(100)))).toBe(1);
    expect(entropyWindows(MIN_ENTROPY_BLOB - 1)).toEqual([]);
    expect(entropyWindows(1024)).toEqual([{ start: 0, length: 1024 }]);
    expect(entropyWindows(4096)).toEqual([{ start: 0, length: 4096 }]);
    expect(entropyWindows(10_000)).toEqual([
      { start: 0, length: 4096 },
      { start: 2952, length: 4096 },
      { start: 5904, length: 4096 },
    ]);
  });

  it('random windows of 1 to 4 KiB are never under the threshold (property), and the odds say never', () => {
    let lowest = 8;
    fc.assert(
      fc.property(fc.integer({ min: MIN_ENTROPY_BLOB, max: ENTROPY_WINDOW }), (n) => {
        const bits = byteEntropy(randomBytes(n));
        lowest = Math.min(lowest, bits);
        return bits >= MIN_BITS_PER_BYTE;
      }),
      { numRuns: 5000 },
    );
    // 1 KiB windows average 7.81 bits with a standard deviation of 0.017: far above 7.5
    expect(lowest).toBeGreaterThan(7.65);
    // Entropy is 8 − G/(2n·ln 2) with G ≈ χ²(255); under 7.5 needs G > n·ln 2. Chernoff:
    // P(χ²_k > x) ≤ (z·e^(1−z))^(k/2), z = x/k. For the smallest window, n = 1 KiB:
    const k = 255;
    const z = (MIN_ENTROPY_BLOB * Math.log(2) * (8 - MIN_BITS_PER_BYTE) * 2) / k;
    const log10Bound = ((k / 2) * (Math.log(z) + 1 - z)) / Math.LN10;
    expect(log10Bound).toBeLessThan(-40);
  });
});

describe('uploads', () => {
  let relay: TestRelay;
  let alice: TestUser;
  beforeAll(async () => {
    relay = await startRelay();
    alice = await signIn(relay.url);
  });
  afterAll(async () => relay?.close());

  async function upload(body: Buffer) {
    const res = await fetch(`${relay.url}/api/v1/blobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.apiKey}`, 'content-type': 'application/octet-stream' },
      body,
    });
    return { status: res.status, body: (await res.json()) as { code?: string; error?: string } };
  }

  /** A body sent in chunks with no Content-Length, so the middle is not known until the end. */
  async function uploadChunked(body: Buffer) {
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= body.length) return controller.close();
        controller.enqueue(body.subarray(at, (at += 3000)));
      },
    });
    const res = await fetch(`${relay.url}/api/v1/blobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.apiKey}`, 'content-type': 'application/octet-stream' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    return { status: res.status, body: (await res.json()) as { code?: string } };
  }

  const utf16 = (chars: number) =>
    Buffer.from(
      'Dear Bob, the report is attached. Привет, 你好! '.repeat(Math.ceil(chars / 40)).slice(0, chars),
      'utf16le',
    );
  const refused = {
    'zeros, 1 KiB': Buffer.alloc(KIB),
    'zeros, 64 KiB': Buffer.alloc(64 * KIB),
    'UTF-16 text': utf16(6000),
    'an image padded with zeros at the end': Buffer.concat([randomBytes(20 * KIB), Buffer.alloc(5 * KIB)]),
    'random ends around zeros in the middle': Buffer.concat([
      randomBytes(8 * KIB),
      Buffer.alloc(8 * KIB),
      randomBytes(8 * KIB),
    ]),
    'random bytes with zero padding inside the first window': Buffer.concat([
      randomBytes(2 * KIB),
      Buffer.alloc(2 * KIB),
      randomBytes(40 * KIB),
    ]),
  };

  it('refuses regular bytes wherever they lie, streamed or not, and keeps nothing of them', async () => {
    for (const [what, bytes] of Object.entries(refused)) {
      for (const [how, send] of [
        ['with a length', upload],
        ['chunked', uploadChunked],
      ] as const) {
        const r = await send(bytes);
        expect({ what, how, status: r.status, code: r.body.code }).toEqual({
          what,
          how,
          status: 400,
          code: 'not-sealed',
        });
      }
    }
    expect(await relay.store.blobUsage(alice.address, Date.now())).toBe(0);
  });

  it('takes random bytes of every size around the windows, and keeps the old check under 1 KiB', async () => {
    for (const size of [17, 1023, 1024, 1025, 4095, 4096, 4097, 8191, 12 * KIB + 1, 300 * KIB]) {
      const r = await uploadChunked(randomBytes(size));
      expect({ size, status: r.status }).toEqual({ size, status: 200 });
    }
    // under 1 KiB only the envelope check applies: zeros are not text
    expect((await upload(Buffer.alloc(MIN_ENTROPY_BLOB - 1))).status).toBe(200);
  });
});
