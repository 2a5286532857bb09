/**
 * Safety numbers: 60 digits that two people compare (aloud, or by scanning the QR code) to be
 * sure each reaches the other's own devices and not keys a relay slipped in. Both sides
 * compute the same number: each side's half depends only on its wallet address and its set of
 * certified device keys, and the two halves are put in ascending order.
 *
 * The derivation (version 1) is written out in docs/safety-numbers.md so that another
 * client can reproduce it; the test vector there is checked by the tests.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { ADDRESS } from '../../../shared/identity-patterns.js';
import { concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';

/** like Signal's fingerprint: enough rounds that a search for a colliding half costs real work */
export const SAFETY_NUMBER_ITERATIONS = 5200;
const LABEL = utf8ToBytes('RelayMessenger safety number v1');

export interface SafetySide {
  /** the wallet address, 0x + 40 hex */
  address: string;
  /** its certified X25519 device keys, 64 hex each */
  deviceKeys: readonly string[];
}

/** The ordered, de-duplicated, lower-case device keys one half is computed over. */
export function canonicalKeys(keys: readonly string[]): string[] {
  return [...new Set(keys.map((k) => k.toLowerCase()))].sort();
}

function u16(n: number): Uint8Array {
  return new Uint8Array([(n >> 8) & 0xff, n & 0xff]);
}

/** One side's 30 digits. */
export function safetyHalf(side: SafetySide): string {
  if (!ADDRESS.test(side.address)) throw new Error('a safety number needs a wallet address');
  const keys = canonicalKeys(side.deviceKeys);
  if (keys.length === 0) throw new Error(`${side.address} has no certified device`);
  if (keys.some((k) => !/^[0-9a-f]{64}$/.test(k))) throw new Error('a device key is 32 bytes of hex');
  const input = concatBytes(
    LABEL,
    new Uint8Array([0]),
    hexToBytes(side.address.slice(2).toLowerCase()),
    u16(keys.length),
    ...keys.map(hexToBytes),
  );
  let h = sha256(input);
  for (let i = 1; i < SAFETY_NUMBER_ITERATIONS; i++) h = sha256.create().update(h).update(input).digest();
  let digits = '';
  for (let chunk = 0; chunk < 6; chunk++) {
    // 5 bytes as a big-endian 40-bit integer (exact in a double), reduced to 5 digits
    let v = 0;
    for (let b = 0; b < 5; b++) v = v * 256 + h[chunk * 5 + b];
    digits += String(v % 100_000).padStart(5, '0');
  }
  return digits;
}

/** The 60 digits both sides see: the two halves in ascending order. */
export function safetyNumber(a: SafetySide, b: SafetySide): string {
  return [safetyHalf(a), safetyHalf(b)].sort().join('');
}

/** "12345 67890 …": twelve groups of five, as the app shows and the CLI prints. */
export function groupDigits(digits: string): string {
  return digits.replace(/(\d{5})(?=\d)/g, '$1 ');
}
