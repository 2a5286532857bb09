import { createRequire } from 'node:module';

/**
 * libsecp256k1 (Bitcoin Core's library, compiled to WebAssembly by tiny-secp256k1), loaded on
 * first use (synchronously, from its CommonJS build): compiling the WebAssembly costs ~30 ms,
 * which commands that neither sign nor check a signature should not pay. null where it does not
 * load; callers then use @noble/curves, the portable implementation the tests hold this one against.
 */
export interface Libsecp {
  recover(hash: Uint8Array, signature: Uint8Array, recoveryId: 0 | 1 | 2 | 3, compressed?: boolean): Uint8Array | null;
  /** RFC 6979 nonce, low-S: byte for byte @noble's `sign(…, { lowS: true })` */
  signRecoverable(hash: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recoveryId: 0 | 1 | 2 | 3 };
}

let libsecp: Libsecp | null | undefined;

export function loadLibsecp(): Libsecp | null {
  if (libsecp === undefined) {
    try {
      libsecp = createRequire(import.meta.url)('tiny-secp256k1') as Libsecp;
    } catch {
      libsecp = null;
    }
  }
  return libsecp;
}
