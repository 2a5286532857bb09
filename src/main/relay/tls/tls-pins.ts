/**
 * The names a relay's TLS identity goes by. The pin is the SHA-256 of the certificate's public
 * key (SPKI), so a renewed certificate on the same key keeps it; the certificate's own SHA-256
 * fingerprint is still shown, since clients set up before pins moved to the key hold that one.
 */
import { X509Certificate, createHash, createPublicKey, type KeyObject } from 'node:crypto';

export interface TlsPins {
  /** SHA-256 of the public key (SPKI DER) as colon-separated upper-case hex: what people compare and type */
  pin: string;
  /** the same hash in base64, the form `curl --pinnedpubkey sha256//…` takes */
  publicKeyPin: string;
  /** SHA-256 of the whole certificate, colon-separated upper-case hex, as browsers show it */
  fingerprint256: string;
  validFrom: Date;
  validTo: Date;
}

export function pinsOf(certPem: string): TlsPins {
  const x509 = new X509Certificate(certPem);
  const spki = spkiHash(x509.publicKey);
  return {
    pin: colonHex(spki),
    publicKeyPin: spki.toString('base64'),
    fingerprint256: x509.fingerprint256,
    validFrom: new Date(Date.parse(x509.validFrom)),
    validTo: new Date(Date.parse(x509.validTo)),
  };
}

/** SHA-256 of a public key's SPKI DER encoding (also given a private key: its public half). */
export function spkiHash(key: KeyObject): Buffer {
  return createHash('sha256')
    .update((key.type === 'private' ? createPublicKey(key) : key).export({ type: 'spki', format: 'der' }))
    .digest();
}

export function colonHex(bytes: Buffer): string {
  return (bytes.toString('hex').toUpperCase().match(/../g) ?? []).join(':');
}
