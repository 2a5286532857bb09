import { libsecp256k1 } from './libsecp256k1.js';

/**
 * secp256k1 public-key recovery (ecrecover) for EIP-191 signatures, through the vault's one
 * secp256k1 implementation (libsecp256k1.ts); node:crypto has no recovery. The crypto bench keeps
 * the figure (`eip191_recover_ops_s`).
 */

/**
 * The uncompressed public key (65 bytes) that signed `hash` with the compact `signature` (r‖s,
 * 64 bytes) and recovery bit, or null when none does. Callers check low-S first.
 */
export function recoverPublicKey(hash: Uint8Array, signature: Uint8Array, recovery: 0 | 1): Uint8Array | null {
  const lib = libsecp256k1(); // outside the try: a library that did not load is an error, not "no signer"
  try {
    return lib.recover(hash, signature, recovery, false);
  } catch {
    return null; // r or s out of range, or no point with that x
  }
}
