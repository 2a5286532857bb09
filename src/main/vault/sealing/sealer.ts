import { hexToBytes } from '@noble/hashes/utils.js';
import { fromBase64 } from './base64.js';
import { VaultError } from '../vault-error.js';

/**
 * The seal of docs/wire-format.md: X25519(e, R) -> HKDF-SHA256(ikm = s, salt = E || R,
 * info = "relay-seal-v1", 32) -> AES-256-GCM(k, n, frame), tag appended, no AAD.
 * One implementation: `nodeSealer` (sealer-node.ts) on node:crypto, many times faster than a
 * pure-JS seal on @noble in the crypto bench (`seal_noble_ops_s` beside `seal_fast_ops_s`;
 * docs/benchmarks.md, crypto). This file
 * holds the interface and the checks, free of node: built-ins. test/sealer.test.ts holds the
 * sealer against docs/vectors/seal-vectors.json byte for byte and against an independent opening.
 */
export const SEAL_INFO = 'relay-seal-v1';
export const KEY_BYTES = 32;
export const NONCE_BYTES = 12;
export const TAG_BYTES = 16;

/** The three content fields of an envelope, as the relay stores them. */
export interface SealedFields {
  /** 64 lower-case hex characters. */
  ephemeralPublicKey: string;
  /** base64 (standard alphabet, padded) of 12 bytes. */
  nonce: string;
  /** base64 (standard alphabet, padded) of ciphertext || 16-byte tag. */
  ciphertext: string;
}

export interface DeviceKeyPair {
  privateKey: Uint8Array;
  publicKey: Uint8Array;
}

/**
 * Test-only seam: seal with a caller-chosen ephemeral private key and nonce, so the fixed
 * vectors can be reproduced. Reusing an (ephemeral key, nonce) pair breaks GCM; production
 * code never calls this (it is reachable only through this symbol).
 */
export const TEST_ONLY_SEAL_WITH: unique symbol = Symbol('test-only: seal with fixed ephemeral key and nonce');

export interface Sealer {
  readonly name: 'node';
  generateDeviceKeyPair(): DeviceKeyPair;
  publicKeyOf(privateKey: Uint8Array): Uint8Array;
  /** Throws VaultError `bad-key` or `low-order`. */
  seal(recipientDeviceKey: string | Uint8Array, frame: Uint8Array): SealedFields;
  /** Throws VaultError `bad-key`, `bad-envelope`, `low-order` or `auth-failed`. */
  open(recipientPrivateKey: Uint8Array, fields: SealedFields): Uint8Array;
  [TEST_ONLY_SEAL_WITH](
    recipientDeviceKey: string | Uint8Array,
    frame: Uint8Array,
    ephemeralPrivateKey: Uint8Array,
    nonce: Uint8Array,
  ): SealedFields;
}

const HEX_KEY = /^[0-9a-fA-F]{64}$/;

/** A device key as 32 bytes; accepts 64 hex (either case) or bytes. */
export function deviceKeyBytes(key: string | Uint8Array): Uint8Array {
  if (typeof key === 'string') {
    if (!HEX_KEY.test(key)) throw new VaultError('bad-key', 'a device key must be 64 hex characters');
    return hexToBytes(key.toLowerCase());
  }
  if (!(key instanceof Uint8Array) || key.length !== KEY_BYTES)
    throw new VaultError('bad-key', 'a device key must be 32 bytes');
  return key;
}

/**
 * X25519 u-coordinates whose order divides the cofactor (0, 1, p-1, the two order-8 points)
 * plus the non-canonical spellings p and p+1; the top bit is ignored as RFC 7748 says.
 * Every one of them makes the shared secret all-zero. Checking before the ladder keeps an
 * attacker-chosen point away from the long-term key; the all-zero check after DH stays as
 * the rule of record.
 */
const LOW_ORDER_HEX = [
  '0000000000000000000000000000000000000000000000000000000000000000',
  '0100000000000000000000000000000000000000000000000000000000000000',
  'e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800',
  '5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
];
const LOW_ORDER = LOW_ORDER_HEX.map((h) => hexToBytes(h));

export function isLowOrderPoint(u: Uint8Array): boolean {
  if (u.length !== KEY_BYTES) return false;
  outer: for (const bad of LOW_ORDER) {
    for (let i = 0; i < KEY_BYTES - 1; i++) if (u[i] !== bad[i]) continue outer;
    if ((u[KEY_BYTES - 1] & 0x7f) === bad[KEY_BYTES - 1]) return true;
  }
  return false;
}

export function assertNotLowOrder(u: Uint8Array): void {
  if (isLowOrderPoint(u)) throw new VaultError('low-order', 'refusing a low-order X25519 point');
}

export function assertSharedSecretNonZero(s: Uint8Array): void {
  let acc = 0;
  for (let i = 0; i < s.length; i++) acc |= s[i];
  if (acc === 0) throw new VaultError('low-order', 'X25519 shared secret is all zero (low-order point)');
}

export interface DecodedFields {
  ephemeralPublicKey: Uint8Array;
  nonce: Uint8Array;
  ciphertext: Uint8Array;
}

/** Validates and decodes the three fields; shape errors are `bad-envelope`. */
export function decodeSealedFields(fields: SealedFields): DecodedFields {
  if (fields === null || typeof fields !== 'object')
    throw new VaultError('bad-envelope', 'sealed fields must be an object');
  const { ephemeralPublicKey, nonce, ciphertext } = fields;
  if (typeof ephemeralPublicKey !== 'string' || !HEX_KEY.test(ephemeralPublicKey)) {
    throw new VaultError('bad-envelope', 'ephemeralPublicKey must be 64 hex characters');
  }
  if (typeof nonce !== 'string' || typeof ciphertext !== 'string')
    throw new VaultError('bad-envelope', 'nonce and ciphertext must be base64 strings');
  const n = fromBase64(nonce);
  if (n.length !== NONCE_BYTES) throw new VaultError('bad-envelope', 'nonce must decode to 12 bytes');
  const c = fromBase64(ciphertext);
  if (c.length < TAG_BYTES) throw new VaultError('bad-envelope', 'ciphertext is shorter than the GCM tag');
  return { ephemeralPublicKey: hexToBytes(ephemeralPublicKey.toLowerCase()), nonce: n, ciphertext: c };
}
