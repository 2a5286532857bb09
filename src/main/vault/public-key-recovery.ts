import { secp256k1 } from '@noble/curves/secp256k1.js';

/**
 * secp256k1 public-key recovery (ecrecover) for EIP-191 signatures, with @noble/curves: the
 * one secp256k1 implementation here (signing, recovery, keys). node:crypto has no recovery, so
 * nothing faster is at hand without a second curve library; the crypto bench keeps the figure
 * (`eip191_recover_ops_s`). A cold group send checks one device certificate per member device.
 */

/**
 * The uncompressed public key (65 bytes) that signed `hash` with the compact `signature` (r‖s,
 * 64 bytes) and recovery bit, or null when none does. Callers check low-S first.
 */
export function recoverPublicKey(hash: Uint8Array, signature: Uint8Array, recovery: 0 | 1): Uint8Array | null {
  try {
    return secp256k1.Signature.fromBytes(signature, 'compact').addRecoveryBit(recovery).recoverPublicKey(hash).toBytes(false);
  } catch {
    return null; // r or s out of range, or no point with that x
  }
}
