/**
 * Node generates an X25519 pair straight into JWK (`format: 'jwk'`), the fastest way to get a
 * fresh public key's bytes (sealer-node.ts says why), but @types/node has no overload for that
 * encoding: these are the two the sealer and the crypto bench use.
 */
import type { JsonWebKey, KeyObject } from 'node:crypto';

declare module 'crypto' {
  function generateKeyPairSync(
    type: 'x25519',
    options: { publicKeyEncoding: { format: 'jwk' }; privateKeyEncoding: { format: 'jwk' } },
  ): { publicKey: JsonWebKey; privateKey: JsonWebKey };
  function generateKeyPairSync(
    type: 'x25519',
    options: { publicKeyEncoding: { format: 'jwk' }; privateKeyEncoding?: undefined },
  ): { publicKey: JsonWebKey; privateKey: KeyObject };
}
