import { secp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recoverPublicKey, recoveryImplementation } from '../public-key-recovery.js';

const hex = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b).toString('hex'));

describe('public-key recovery', () => {
  it('uses libsecp256k1 here', () => {
    expect(recoveryImplementation()).toBe('libsecp256k1');
  });

  it('libsecp256k1 and @noble recover the same key from real signatures', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 48, maxLength: 48 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (seed, hash) => {
        const key = secp256k1.utils.randomSecretKey(seed);
        const rec = secp256k1.sign(hash, key, { prehash: false, lowS: true, format: 'recovered' });
        const bit = rec[0] as 0 | 1;
        const fast = recoverPublicKey(hash, rec.subarray(1), bit);
        expect(hex(fast)).toBe(hex(secp256k1.getPublicKey(key, false)));
        expect(hex(fast)).toBe(hex(recoverPublicKey(hash, rec.subarray(1), bit, 'noble')));
        // the other recovery bit names another key (or none), the same in both
        const other = (1 - bit) as 0 | 1;
        expect(hex(recoverPublicKey(hash, rec.subarray(1), other))).toBe(hex(recoverPublicKey(hash, rec.subarray(1), other, 'noble')));
      }),
      { numRuns: 60 },
    );
  });

  it('agree on junk: out-of-range r or s, or an r with no point, recovers nothing or the same thing', () => {
    const n = secp256k1.Point.CURVE().n;
    const big = new Uint8Array(32).fill(0xff);
    const order = Buffer.from(n.toString(16).padStart(64, '0'), 'hex');
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.oneof(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constant(big), fc.constant(new Uint8Array(order)), fc.constant(new Uint8Array(32))),
        fc.oneof(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constant(big), fc.constant(new Uint8Array(32))),
        fc.constantFrom(0 as const, 1 as const),
        (hash, r, s, bit) => {
          const sig = new Uint8Array([...r, ...s]);
          expect(hex(recoverPublicKey(hash, sig, bit))).toBe(hex(recoverPublicKey(hash, sig, bit, 'noble')));
        },
      ),
      { numRuns: 200 },
    );
  });
});
