import { createPrivateKey, createPublicKey, diffieHellman } from 'node:crypto';
import { gcm } from '@noble/ciphers/aes.js';
import { x25519 } from '@noble/curves/ed25519.js';
import { extract, hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from '../base64.js';
import { nodeSealer } from '../sealer-node.js';
import {
  TEST_ONLY_SEAL_WITH,
  assertSharedSecretNonZero,
  isLowOrderPoint,
  type SealedFields,
  type Sealer,
} from '../sealer.js';
import { isVaultError } from '../../vault-error.js';
import { sealVectors } from '../../../test-support/doc-vectors.js';

// The seal test vectors published in docs/vectors/seal-vectors.json (walked through in docs/test-vectors.md):
// the one sealer must reproduce them byte for byte.
const vectors = sealVectors();

const hex = (s: string) => new Uint8Array(Buffer.from(s, 'hex'));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const sealers: Sealer[] = [nodeSealer];

function expectCode(fn: () => unknown, code: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected a VaultError ${code}`).toBeDefined();
  expect(isVaultError(caught) ? caught.code : String(caught)).toBe(code);
}

function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  globalThis.crypto.getRandomValues(out.subarray(0, Math.min(n, 65536)));
  for (let i = 65536; i < n; i += 65536) globalThis.crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
  return out;
}

describe('docs/vectors/seal-vectors.json', () => {
  expect(vectors.vectors).toHaveLength(3);
  for (const sealer of sealers) {
    for (const v of vectors.vectors) {
      it(`${sealer.name} reproduces "${v.name}"`, () => {
        const fields = sealer[TEST_ONLY_SEAL_WITH](
          v.recipientDeviceKey,
          hex(v.frameHex),
          hex(v.ephemeralPrivateKey),
          fromBase64(v.nonce),
        );
        expect(fields).toEqual({ ephemeralPublicKey: v.ephemeralPublicKey, nonce: v.nonce, ciphertext: v.ciphertext });
      });
      it(`${sealer.name} opens "${v.name}"`, () => {
        const frame = sealer.open(hex(v.recipientPrivateKey), {
          ephemeralPublicKey: v.ephemeralPublicKey,
          nonce: v.nonce,
          ciphertext: v.ciphertext,
        });
        expect(toHex(frame)).toBe(v.frameHex);
      });
    }
    it(`${sealer.name} derives the vectors' device key from its private key`, () => {
      const v = vectors.vectors[0];
      expect(toHex(sealer.publicKeyOf(hex(v.recipientPrivateKey)))).toBe(v.recipientDeviceKey);
    });
  }
  // the walk-through's intermediate values, each step recomputed on @noble's primitives
  for (const v of vectors.vectors) {
    it(`every step of "${v.name}" is what the page says`, () => {
      expect(vectors.infoHex).toBe(toHex(new TextEncoder().encode(vectors.info)));
      expect(toHex(x25519.getPublicKey(hex(v.ephemeralPrivateKey)))).toBe(v.ephemeralPublicKey);
      expect(toHex(x25519.getSharedSecret(hex(v.ephemeralPrivateKey), hex(v.recipientDeviceKey)))).toBe(v.sharedSecret);
      expect(toHex(x25519.getSharedSecret(hex(v.recipientPrivateKey), hex(v.ephemeralPublicKey)))).toBe(v.sharedSecret);
      expect(v.salt).toBe(v.ephemeralPublicKey + v.recipientDeviceKey);
      expect(toHex(extract(sha256, hex(v.sharedSecret), hex(v.salt)))).toBe(v.prk);
      expect(toHex(hkdf(sha256, hex(v.sharedSecret), hex(v.salt), hex(vectors.infoHex), 32))).toBe(v.key);
      expect(toHex(fromBase64(v.nonce))).toBe(v.nonceHex);
      expect(toHex(fromBase64(v.ciphertext))).toBe(v.ciphertextHex);
      expect(toHex(gcm(hex(v.key), hex(v.nonceHex)).encrypt(hex(v.frameHex)))).toBe(v.ciphertextHex);
    });
  }
});

/** An independent opening of docs/wire-format.md's seal with @noble's primitives, to hold the sealer's random output against. */
function referenceOpen(recipientPrivateKey: Uint8Array, fields: SealedFields): Uint8Array {
  const E = hex(fields.ephemeralPublicKey);
  const R = x25519.getPublicKey(recipientPrivateKey);
  const k = hkdf(
    sha256,
    x25519.getSharedSecret(recipientPrivateKey, E),
    new Uint8Array([...E, ...R]),
    new TextEncoder().encode('relay-seal-v1'),
    32,
  );
  return gcm(k, fromBase64(fields.nonce)).decrypt(fromBase64(fields.ciphertext));
}

describe('the sealer against an independent reference', () => {
  it('what it seals, 150 random sizes, the reference opens', () => {
    const recipient = nodeSealer.generateDeviceKeyPair();
    expect(toHex(x25519.getPublicKey(recipient.privateKey))).toBe(toHex(recipient.publicKey));
    const sizes = [
      0,
      1,
      15,
      16,
      17,
      200,
      4096,
      65536,
      ...Array.from({ length: 142 }, () => Math.floor(Math.random() * 3000)),
    ];
    for (const size of sizes) {
      const frame = randomBytes(size);
      const fields = nodeSealer.seal(toHex(recipient.publicKey), frame);
      expect(fields.ephemeralPublicKey).toMatch(/^[0-9a-f]{64}$/);
      expect(fromBase64(fields.nonce)).toHaveLength(12);
      expect(fields.ciphertext).toBe(toBase64(fromBase64(fields.ciphertext)));
      expect(fromBase64(fields.ciphertext)).toHaveLength(size + 16);
      expect(toHex(referenceOpen(recipient.privateKey, fields))).toBe(toHex(frame));
      expect(toHex(nodeSealer.open(recipient.privateKey, fields))).toBe(toHex(frame));
    }
  });

  it('device key pairs it makes are X25519 pairs', () => {
    for (let i = 0; i < 20; i++) {
      const pair = nodeSealer.generateDeviceKeyPair();
      expect(toHex(x25519.getPublicKey(pair.privateKey))).toBe(toHex(pair.publicKey));
      expect(toHex(nodeSealer.publicKeyOf(pair.privateKey))).toBe(toHex(pair.publicKey));
    }
  });

  it('every seal uses a fresh ephemeral key and nonce', () => {
    for (const sealer of sealers) {
      const r = sealer.generateDeviceKeyPair();
      const a = sealer.seal(r.publicKey, new Uint8Array(10));
      const b = sealer.seal(r.publicKey, new Uint8Array(10));
      expect(a.ephemeralPublicKey).not.toBe(b.ephemeralPublicKey);
      expect(a.nonce).not.toBe(b.nonce);
    }
  });
});

describe('tampering and wrong keys are dropped', () => {
  const v = vectors.vectors[1];
  const recipientKey = hex(v.recipientPrivateKey);
  const good: SealedFields = { ephemeralPublicKey: v.ephemeralPublicKey, nonce: v.nonce, ciphertext: v.ciphertext };

  function flip(b64: string, index: number): string {
    const bytes = fromBase64(b64);
    bytes[index] ^= 0x01;
    return toBase64(bytes);
  }

  for (const sealer of sealers) {
    it(`${sealer.name}: any flipped ciphertext or tag byte fails authentication`, () => {
      const length = fromBase64(good.ciphertext).length;
      for (let i = 0; i < length; i++)
        expectCode(() => sealer.open(recipientKey, { ...good, ciphertext: flip(good.ciphertext, i) }), 'auth-failed');
    });
    it(`${sealer.name}: a changed nonce or ephemeral key fails authentication`, () => {
      for (let i = 0; i < 12; i++)
        expectCode(() => sealer.open(recipientKey, { ...good, nonce: flip(good.nonce, i) }), 'auth-failed');
      const e = hex(good.ephemeralPublicKey);
      for (const i of [0, 7, 16, 30]) {
        const changed = new Uint8Array(e);
        changed[i] ^= 0x04;
        expectCode(() => sealer.open(recipientKey, { ...good, ephemeralPublicKey: toHex(changed) }), 'auth-failed');
      }
    });
    it(`${sealer.name}: the wrong recipient key fails authentication`, () => {
      expectCode(() => sealer.open(sealer.generateDeviceKeyPair().privateKey, good), 'auth-failed');
    });
    it(`${sealer.name}: a truncated ciphertext or malformed field is a bad envelope`, () => {
      expectCode(
        () => sealer.open(recipientKey, { ...good, ciphertext: toBase64(fromBase64(good.ciphertext).subarray(0, 15)) }),
        'bad-envelope',
      );
      expectCode(
        () => sealer.open(recipientKey, { ...good, ciphertext: toBase64(fromBase64(good.ciphertext).subarray(0, 16)) }),
        'auth-failed',
      );
      expectCode(() => sealer.open(recipientKey, { ...good, nonce: toBase64(new Uint8Array(11)) }), 'bad-envelope');
      expectCode(() => sealer.open(recipientKey, { ...good, nonce: toBase64(new Uint8Array(13)) }), 'bad-envelope');
      expectCode(() => sealer.open(recipientKey, { ...good, nonce: 'AAECAwQFBgcICQo*' }), 'bad-envelope');
      expectCode(() => sealer.open(recipientKey, { ...good, ciphertext: `${good.ciphertext} ` }), 'bad-envelope');
      expectCode(
        () => sealer.open(recipientKey, { ...good, ephemeralPublicKey: good.ephemeralPublicKey.slice(2) }),
        'bad-envelope',
      );
      expectCode(
        () => sealer.open(recipientKey, { ...good, ephemeralPublicKey: `zz${good.ephemeralPublicKey.slice(2)}` }),
        'bad-envelope',
      );
      expectCode(() => sealer.open(recipientKey, null as unknown as SealedFields), 'bad-envelope');
    });
    it(`${sealer.name}: accepts an upper-case ephemeral key and unpadded base64 (the relay accepts both)`, () => {
      const frame = sealer.open(recipientKey, {
        ephemeralPublicKey: good.ephemeralPublicKey.toUpperCase(),
        nonce: good.nonce,
        ciphertext: good.ciphertext.replace(/=+$/, ''),
      });
      expect(toHex(frame)).toBe(v.frameHex);
    });
    it(`${sealer.name}: refuses a malformed recipient device key`, () => {
      expectCode(() => sealer.seal('abc', new Uint8Array(1)), 'bad-key');
      expectCode(() => sealer.seal(new Uint8Array(31), new Uint8Array(1)), 'bad-key');
    });
  }
});

describe('low-order points', () => {
  const canonical = [
    '0000000000000000000000000000000000000000000000000000000000000000', // 0
    '0100000000000000000000000000000000000000000000000000000000000000', // 1
    'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // p - 1
    'e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800', // order 8
    '5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157', // order 8
    'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // p (= 0)
    'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // p + 1 (= 1)
  ];
  // RFC 7748 ignores the top bit, so each has a second spelling
  const all = [
    ...canonical,
    ...canonical.map((h) => h.slice(0, 62) + (parseInt(h.slice(62), 16) | 0x80).toString(16).padStart(2, '0')),
  ];

  it('the list really is low-order: each gives an all-zero X25519 output in an unchecked ladder', () => {
    // noble refuses them outright and OpenSSL refuses the all-zero result; both agree they are bad
    const r = nodeSealer.generateDeviceKeyPair();
    const rKey = createPrivateKey({
      key: {
        kty: 'OKP',
        crv: 'X25519',
        d: Buffer.from(r.privateKey).toString('base64url'),
        x: Buffer.from(r.publicKey).toString('base64url'),
      },
      format: 'jwk',
    });
    for (const h of all) {
      expect(() => x25519.getSharedSecret(r.privateKey, hex(h))).toThrow();
      const pub = createPublicKey({
        key: { kty: 'OKP', crv: 'X25519', x: Buffer.from(hex(h)).toString('base64url') },
        format: 'jwk',
      });
      expect(() => diffieHellman({ privateKey: rKey, publicKey: pub })).toThrow();
    }
  });

  it('isLowOrderPoint matches exactly the list', () => {
    for (const h of all) expect(isLowOrderPoint(hex(h))).toBe(true);
    expect(isLowOrderPoint(hex(vectors.vectors[0].recipientDeviceKey))).toBe(false);
    expect(isLowOrderPoint(hex('0200000000000000000000000000000000000000000000000000000000000000'))).toBe(false);
    expect(isLowOrderPoint(hex('efffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'))).toBe(false);
  });

  it('an all-zero shared secret is refused', () => {
    expectCode(() => assertSharedSecretNonZero(new Uint8Array(32)), 'low-order');
    expect(() => assertSharedSecretNonZero(hex('00'.repeat(31) + '01'))).not.toThrow();
  });

  for (const sealer of sealers) {
    it(`${sealer.name}: sealing to a low-order device key is refused`, () => {
      for (const h of all) expectCode(() => sealer.seal(h, new Uint8Array(5)), 'low-order');
    });
    it(`${sealer.name}: opening with a low-order ephemeral key is refused`, () => {
      const r = sealer.generateDeviceKeyPair();
      const genuine = sealer.seal(r.publicKey, new Uint8Array(5));
      for (const h of all)
        expectCode(() => sealer.open(r.privateKey, { ...genuine, ephemeralPublicKey: h }), 'low-order');
    });
  }
});

describe('base64', () => {
  it('encodes like Buffer (standard alphabet, padded) for every length 0..300', () => {
    for (let n = 0; n <= 300; n++) {
      const bytes = randomBytes(n);
      const text = toBase64(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64'));
      expect(toHex(fromBase64(text))).toBe(toHex(bytes));
      expect(toHex(fromBase64(text.replace(/=+$/, '')))).toBe(toHex(bytes));
    }
  });
  it('refuses non-canonical or foreign input', () => {
    for (const bad of [
      'A',
      'AB=',
      'ABC==',
      'AB==C',
      'QR==',
      'QUJ=',
      'a-b_',
      'QUJD\n',
      ' QUJD',
      'QUJD=',
      'QUJD====',
      'Q===',
    ]) {
      expectCode(() => fromBase64(bad), 'bad-envelope');
    }
    expect(toHex(fromBase64(''))).toBe('');
  });
});
