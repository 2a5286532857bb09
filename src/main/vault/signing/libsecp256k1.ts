import { createRequire } from 'node:module';
import { VaultError } from '../vault-error.js';

/**
 * The vault's one secp256k1 implementation for signing, recovery and key checks: libsecp256k1
 * (Bitcoin Core's library, compiled to WebAssembly by tiny-secp256k1). Chosen by the crypto
 * bench: its first signature costs its ~30 ms load where @noble's built a 100–250 ms table on
 * every command-line send, and it recovers a signer 5–7× faster (a cold group send checks one
 * certificate per member device). node:crypto covers what it does faster (ECDH, the unlock's
 * public key); @noble/curves stays in the tests as the independent implementation this one is
 * held against. Loaded on first use, synchronously from its CommonJS build, so commands that
 * neither sign nor check a signature do not pay the load. No fallback: a vault that cannot
 * load it says so instead of quietly running other code.
 */
export interface Libsecp {
  isPrivate(d: Uint8Array): boolean;
  pointFromScalar(d: Uint8Array, compressed?: boolean): Uint8Array | null;
  pointCompress(p: Uint8Array, compressed?: boolean): Uint8Array;
  recover(hash: Uint8Array, signature: Uint8Array, recoveryId: 0 | 1 | 2 | 3, compressed?: boolean): Uint8Array | null;
  /** RFC 6979 nonce, low S */
  signRecoverable(hash: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recoveryId: 0 | 1 | 2 | 3 };
}

let libsecp: Libsecp | undefined;

export function libsecp256k1(): Libsecp {
  if (libsecp === undefined) {
    try {
      libsecp = createRequire(import.meta.url)('tiny-secp256k1') as Libsecp;
    } catch (e) {
      throw new VaultError('crypto-unavailable', `libsecp256k1 (tiny-secp256k1) did not load: ${(e as Error).message}`);
    }
  }
  return libsecp;
}
