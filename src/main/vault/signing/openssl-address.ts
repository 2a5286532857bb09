/**
 * The wallet's address through OpenSSL: @noble's first getPublicKey builds its precomputed table
 * for the generator (~80 ms quiet, 250 ms under load), which every unlock paid just to check the
 * stored address. Kept apart from wallet.ts, which stays free of Node built-ins; held against
 * @noble and viem in wallet.test.ts.
 */
import { createECDH } from 'node:crypto';
import { addressFromPublicKey } from './wallet.js';

export function addressFromPrivateKeyViaOpenSsl(privateKey: Uint8Array): string {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(privateKey);
  return addressFromPublicKey(new Uint8Array(ecdh.getPublicKey()));
}
