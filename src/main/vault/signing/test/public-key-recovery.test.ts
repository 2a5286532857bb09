import { secp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recoverPublicKey } from '../public-key-recovery.js';

const hex = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b).toString('hex'));

describe('public-key recovery', () => {
  it('recovers the signing key from real signatures, and another key (or none) with the other bit', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 48, maxLength: 48 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (seed, hash) => {
          const key = secp256k1.utils.randomSecretKey(seed);
          const rec = secp256k1.sign(hash, key, { prehash: false, lowS: true, format: 'recovered' });
          const bit = rec[0] as 0 | 1;
          const publicKey = hex(secp256k1.getPublicKey(key, false));
          expect(hex(recoverPublicKey(hash, rec.subarray(1), bit))).toBe(publicKey);
          expect(hex(recoverPublicKey(hash, rec.subarray(1), (1 - bit) as 0 | 1))).not.toBe(publicKey);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('junk: out-of-range r or s, or an r with no point, recovers nothing or a 65-byte key, never throws', () => {
    const n = secp256k1.Point.CURVE().n;
    const big = new Uint8Array(32).fill(0xff);
    const order = Buffer.from(n.toString(16).padStart(64, '0'), 'hex');
    for (const [r, s] of [
      [big, big],
      [new Uint8Array(order), big],
      [new Uint8Array(32), new Uint8Array(32)],
    ]) {
      expect(recoverPublicKey(new Uint8Array(32).fill(7), new Uint8Array([...r, ...s]), 0)).toBeNull();
    }
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.oneof(
          fc.uint8Array({ minLength: 32, maxLength: 32 }),
          fc.constant(big),
          fc.constant(new Uint8Array(order)),
          fc.constant(new Uint8Array(32)),
        ),
        fc.oneof(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constant(big), fc.constant(new Uint8Array(32))),
        fc.constantFrom(0 as const, 1 as const),
        (hash, r, s, bit) => {
          const key = recoverPublicKey(hash, new Uint8Array([...r, ...s]), bit);
          expect(key === null || (key.length === 65 && key[0] === 4)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
