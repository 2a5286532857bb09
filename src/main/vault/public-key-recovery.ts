import { secp256k1 } from '@noble/curves/secp256k1.js';
import { loadLibsecp } from './libsecp256k1.js';

/**
 * secp256k1 public-key recovery (ecrecover) for EIP-191 signatures: libsecp256k1 (Bitcoin Core's
 * library, compiled to WebAssembly by tiny-secp256k1) where it loads, @noble/curves otherwise.
 * node:crypto has no recovery. A cold group send checks one device certificate per member
 * device, 200 for 100 two-device members: ~0.7 ms each here against ~1.7 ms with @noble, which
 * stays as the portable implementation the tests hold this one against.
 */

/**
 * The uncompressed public key (65 bytes) that signed `hash` with the compact `signature` (r‖s,
 * 64 bytes) and recovery bit, or null when none does. Callers check low-S first.
 */
export function recoverPublicKey(hash: Uint8Array, signature: Uint8Array, recovery: 0 | 1, implementation: 'fastest' | 'noble' = 'fastest'): Uint8Array | null {
  const lib = implementation === 'fastest' ? loadLibsecp() : null;
  try {
    if (lib) return lib.recover(hash, signature, recovery, false);
    return secp256k1.Signature.fromBytes(signature, 'compact').addRecoveryBit(recovery).recoverPublicKey(hash).toBytes(false);
  } catch {
    return null; // r or s out of range, or no point with that x
  }
}

/** Which implementation `fastest` is on this machine (the bench reports it). */
export function recoveryImplementation(): 'libsecp256k1' | 'noble' {
  return loadLibsecp() ? 'libsecp256k1' : 'noble';
}
