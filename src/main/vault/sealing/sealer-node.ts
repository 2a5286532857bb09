import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import {
  KEY_BYTES,
  NONCE_BYTES,
  SEAL_INFO,
  TAG_BYTES,
  TEST_ONLY_SEAL_WITH,
  assertNotLowOrder,
  assertSharedSecretNonZero,
  decodeSealedFields,
  deviceKeyBytes,
  type DeviceKeyPair,
  type SealedFields,
  type Sealer,
} from './sealer.js';
import { VaultError } from '../vault-error.js';

/*
 * Fast path on node:crypto, the ways `npm run bench -- --only crypto` (bench/client/crypto-bench.ts)
 * found fastest (docs/benchmarks.md, crypto):
 * - raw keys go in through JWK, faster than wrapping them in DER;
 * - the ephemeral pair is generated with `publicKeyEncoding: { format: 'jwk' }`: asking for
 *   JWK at generation time is as fast as a bare KeyObject, while exporting a fresh X25519
 *   KeyObject as JWK afterwards hung Node 20, and DER export is slower.
 */

const INFO = Buffer.from(SEAL_INFO, 'ascii');
const ZERO_X = Buffer.alloc(KEY_BYTES).toString('base64url');

function publicKeyObject(raw: Uint8Array): KeyObject {
  return createPublicKey({
    key: { kty: 'OKP', crv: 'X25519', x: Buffer.from(raw).toString('base64url') },
    format: 'jwk',
  });
}

function privateKeyObject(raw: Uint8Array, publicRaw?: Uint8Array): KeyObject {
  // Node insists on `x` but derives the public half from `d`; a placeholder is fine when the
  // caller does not know it yet.
  const x = publicRaw ? Buffer.from(publicRaw).toString('base64url') : ZERO_X;
  return createPrivateKey({
    key: { kty: 'OKP', crv: 'X25519', d: Buffer.from(raw).toString('base64url'), x },
    format: 'jwk',
  });
}

function rawPublicOf(privateKey: KeyObject): Uint8Array {
  // SPKI DER of X25519 is a fixed 12-byte header followed by the 32-byte key.
  const der = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  return new Uint8Array(der.subarray(der.length - KEY_BYTES));
}

/** Recipient keys repeat (a conversation, a group); importing them is a measurable share of a seal. */
const recipientCache = new Map<string, KeyObject>();
const RECIPIENT_CACHE_MAX = 1024;

function recipientKeyObject(R: Uint8Array): KeyObject {
  const id = Buffer.from(R.buffer, R.byteOffset, R.length).toString('latin1');
  let key = recipientCache.get(id);
  if (!key) {
    key = publicKeyObject(R);
    if (recipientCache.size >= RECIPIENT_CACHE_MAX) recipientCache.delete(recipientCache.keys().next().value as string);
    recipientCache.set(id, key);
  }
  return key;
}

/** The device's own key, imported once per private-key buffer (the vault keeps one buffer while unlocked). */
const ownKeys = new WeakMap<Uint8Array, { key: KeyObject; publicKey: Buffer }>();

function ownKey(privateKey: Uint8Array): { key: KeyObject; publicKey: Buffer } {
  let entry = ownKeys.get(privateKey);
  if (!entry) {
    if (privateKey.length !== KEY_BYTES) throw new VaultError('bad-key', 'a private key must be 32 bytes');
    const key = privateKeyObject(privateKey);
    entry = { key, publicKey: Buffer.from(rawPublicOf(key)) };
    ownKeys.set(privateKey, entry);
  }
  return entry;
}

function derive(e: KeyObject, R: KeyObject, E: Uint8Array, Rraw: Uint8Array): Buffer {
  let s: Buffer;
  try {
    s = diffieHellman({ privateKey: e, publicKey: R });
  } catch {
    // OpenSSL refuses an all-zero result ("failed during derivation")
    throw new VaultError('low-order', 'X25519 rejected the point (low-order)');
  }
  assertSharedSecretNonZero(s);
  const salt = Buffer.allocUnsafe(2 * KEY_BYTES);
  salt.set(E, 0);
  salt.set(Rraw, KEY_BYTES);
  const k = Buffer.from(hkdfSync('sha256', s, salt, INFO, 32));
  s.fill(0);
  return k;
}

function encrypt(k: Buffer, n: Buffer, frame: Uint8Array): Buffer {
  const cipher = createCipheriv('aes-256-gcm', k, n);
  const head = cipher.update(frame);
  const tail = cipher.final();
  const out = Buffer.concat([head, tail, cipher.getAuthTag()]);
  k.fill(0);
  return out;
}

function fields(E: Uint8Array, n: Buffer, c: Buffer): SealedFields {
  const e = Buffer.isBuffer(E) ? E : Buffer.from(E.buffer, E.byteOffset, E.length);
  return { ephemeralPublicKey: e.toString('hex'), nonce: n.toString('base64'), ciphertext: c.toString('base64') };
}

export const nodeSealer: Sealer = {
  name: 'node',
  generateDeviceKeyPair(): DeviceKeyPair {
    // the JWK overloads are declared in node-crypto-jwk.d.ts
    const { publicKey, privateKey } = generateKeyPairSync('x25519', {
      publicKeyEncoding: { format: 'jwk' },
      privateKeyEncoding: { format: 'jwk' },
    });
    return {
      privateKey: new Uint8Array(Buffer.from(privateKey.d as string, 'base64url')),
      publicKey: new Uint8Array(Buffer.from(publicKey.x as string, 'base64url')),
    };
  },
  publicKeyOf(privateKey: Uint8Array): Uint8Array {
    if (privateKey.length !== KEY_BYTES) throw new VaultError('bad-key', 'a private key must be 32 bytes');
    return rawPublicOf(privateKeyObject(privateKey));
  },
  seal(recipient, frame) {
    const R = deviceKeyBytes(recipient);
    assertNotLowOrder(R);
    const { publicKey, privateKey: e } = generateKeyPairSync('x25519', { publicKeyEncoding: { format: 'jwk' } });
    const E = Buffer.from(publicKey.x as string, 'base64url');
    const n = randomBytes(NONCE_BYTES);
    return fields(E, n, encrypt(derive(e, recipientKeyObject(R), E, R), n, frame));
  },
  open(privateKey, sealed) {
    const own = ownKey(privateKey);
    const { ephemeralPublicKey: E, nonce, ciphertext } = decodeSealedFields(sealed);
    assertNotLowOrder(E);
    const k = derive(own.key, publicKeyObject(E), E, own.publicKey);
    const decipher = createDecipheriv('aes-256-gcm', k, nonce);
    decipher.setAuthTag(ciphertext.subarray(ciphertext.length - TAG_BYTES));
    const body = decipher.update(ciphertext.subarray(0, ciphertext.length - TAG_BYTES));
    try {
      const tail = decipher.final();
      return new Uint8Array(tail.length ? Buffer.concat([body, tail]) : body);
    } catch {
      body.fill(0);
      throw new VaultError('auth-failed', 'the sealed frame failed authentication');
    } finally {
      k.fill(0);
    }
  },
  [TEST_ONLY_SEAL_WITH](recipient, frame, ephemeralPrivateKey, nonce) {
    const R = deviceKeyBytes(recipient);
    assertNotLowOrder(R);
    if (ephemeralPrivateKey.length !== KEY_BYTES || nonce.length !== NONCE_BYTES)
      throw new VaultError('bad-key', 'bad ephemeral key or nonce size');
    const e = privateKeyObject(ephemeralPrivateKey);
    const E = rawPublicOf(e);
    const n = Buffer.from(nonce);
    return fields(E, n, encrypt(derive(e, recipientKeyObject(R), E, R), n, frame));
  },
};
