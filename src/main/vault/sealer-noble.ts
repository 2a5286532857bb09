import { gcm } from '@noble/ciphers/aes.js';
import { x25519 } from '@noble/curves/ed25519.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { toBase64 } from './base64.js';
import {
  KEY_BYTES,
  NONCE_BYTES,
  SEAL_INFO,
  TEST_ONLY_SEAL_WITH,
  assertNotLowOrder,
  assertSharedSecretNonZero,
  concat2,
  decodeSealedFields,
  deviceKeyBytes,
  type DeviceKeyPair,
  type SealedFields,
  type Sealer,
} from './sealer.js';
import { VaultError } from './vault-error.js';

const INFO = utf8ToBytes(SEAL_INFO);

function sharedSecret(privateKey: Uint8Array, publicKey: Uint8Array): Uint8Array {
  assertNotLowOrder(publicKey);
  let s: Uint8Array;
  try {
    s = x25519.getSharedSecret(privateKey, publicKey);
  } catch {
    // lengths are checked before; noble throws here only for a point that lands on zero
    throw new VaultError('low-order', 'X25519 rejected the point (low-order)');
  }
  assertSharedSecretNonZero(s);
  return s;
}

function sealWith(recipient: string | Uint8Array, frame: Uint8Array, e: Uint8Array, n: Uint8Array): SealedFields {
  const R = deviceKeyBytes(recipient);
  if (e.length !== KEY_BYTES || n.length !== NONCE_BYTES) throw new VaultError('bad-key', 'bad ephemeral key or nonce size');
  const E = x25519.getPublicKey(e);
  const s = sharedSecret(e, R);
  const k = hkdf(sha256, s, concat2(E, R), INFO, 32);
  const c = gcm(k, n).encrypt(frame);
  s.fill(0);
  k.fill(0);
  return { ephemeralPublicKey: bytesToHex(E), nonce: toBase64(n), ciphertext: toBase64(c) };
}

/** Portable implementation: pure JS, no node: imports. */
export const nobleSealer: Sealer = {
  name: 'noble',
  generateDeviceKeyPair(): DeviceKeyPair {
    const privateKey = x25519.utils.randomSecretKey();
    return { privateKey, publicKey: x25519.getPublicKey(privateKey) };
  },
  publicKeyOf(privateKey: Uint8Array): Uint8Array {
    if (privateKey.length !== KEY_BYTES) throw new VaultError('bad-key', 'a private key must be 32 bytes');
    return x25519.getPublicKey(privateKey);
  },
  seal(recipient, frame) {
    const e = x25519.utils.randomSecretKey();
    try {
      return sealWith(recipient, frame, e, randomBytes(NONCE_BYTES));
    } finally {
      e.fill(0);
    }
  },
  open(privateKey, fields) {
    if (privateKey.length !== KEY_BYTES) throw new VaultError('bad-key', 'a private key must be 32 bytes');
    const { ephemeralPublicKey: E, nonce, ciphertext } = decodeSealedFields(fields);
    const R = x25519.getPublicKey(privateKey);
    const s = sharedSecret(privateKey, E);
    const k = hkdf(sha256, s, concat2(E, R), INFO, 32);
    s.fill(0);
    try {
      return gcm(k, nonce).decrypt(ciphertext);
    } catch {
      throw new VaultError('auth-failed', 'the sealed frame failed authentication');
    } finally {
      k.fill(0);
    }
  },
  [TEST_ONLY_SEAL_WITH]: sealWith,
};
