/**
 * `relay admin rotate-tls-key`: the one way a relay's TLS key, and so its pin, changes. It
 * writes a new key and a certificate for it into the data folder; a running relay takes the pair
 * up on its own (tls-watch.ts), and every client must then be given the new pin.
 */
import { createPrivateKey } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CERT_FILE,
  KEY_FILE,
  TlsIdentityError,
  certificateFor,
  newKeyPem,
  writeAtomically,
} from './lan-certificate.js';
import { colonHex, pinsOf, spkiHash } from './tls-pins.js';

export interface Rotation {
  /** null when the old key could not be read (a rotation is also the way out of a damaged key) */
  oldPin: string | null;
  newPin: string;
}

export async function rotateTlsKey(dataDir: string, now = Date.now()): Promise<Rotation> {
  const keyPath = join(dataDir, KEY_FILE);
  if (!existsSync(keyPath))
    throw new TlsIdentityError(
      `no TLS key in ${dataDir}: a relay makes its key on its first start with --lan (one started with ` +
        '--tls-cert and --tls-key uses those files, which only their owner changes)',
    );
  let oldPin: string | null = null;
  try {
    oldPin = colonHex(spkiHash(createPrivateKey(readFileSync(keyPath, 'utf8'))));
  } catch {
    oldPin = null;
  }
  const keyPem = await newKeyPem();
  const certPem = await certificateFor(keyPem, now);
  // key first: a relay that looks between the two writes sees a pair that does not match and
  // waits for the certificate (readLanCertificate)
  writeAtomically(keyPath, keyPem, 0o600);
  writeAtomically(join(dataDir, CERT_FILE), certPem, 0o644);
  return { oldPin, newPin: pinsOf(certPem).pin };
}
