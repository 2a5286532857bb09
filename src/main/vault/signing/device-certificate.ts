import { VaultError } from '../vault-error.js';
import type { CertificateToCheck } from '../worker/vault-protocol.js';
import { isAddress, signPersonalMessage, verifyPersonalSignature } from './wallet.js';

/**
 * A device certificate binds a device's X25519 key to a wallet: the wallet's EIP-191 signature
 * over `Relay device key <64-hex-public-key> for <lower-case-address>` (docs/protocol.md §2 Identities and credentials).
 * Pure, so that the relay verifies with the same code the client signs with.
 */

const DEVICE_KEY = /^[0-9a-fA-F]{64}$/;

/** The exact signed text; both parts are lower-cased so any input spelling yields one text. */
export function deviceCertificateText(publicKeyHex: string, address: string): string {
  if (typeof publicKeyHex !== 'string' || !DEVICE_KEY.test(publicKeyHex))
    throw new TypeError('device key must be 64 hex characters');
  if (!isAddress(address)) throw new TypeError('address must be 0x + 40 hex');
  return `Relay device key ${publicKeyHex.toLowerCase()} for ${address.toLowerCase()}`;
}

export function signDeviceCertificate(walletPrivateKey: Uint8Array, publicKeyHex: string, address: string): string {
  return signPersonalMessage(walletPrivateKey, deviceCertificateText(publicKeyHex, address));
}

/** True when `certificate` was signed by `address` for `publicKeyHex`; never throws. */
export function verifyDeviceCertificate(publicKeyHex: string, address: string, certificate: string): boolean {
  if (typeof publicKeyHex !== 'string' || !DEVICE_KEY.test(publicKeyHex) || !isAddress(address)) return false;
  return verifyPersonalSignature(deviceCertificateText(publicKeyHex, address), certificate, address);
}

/** Far above a group's devices; bounds one worker call. */
const MAX_CERTIFICATES = 10_000;

/** The vault worker's `verifyCertificates`: one answer per entry; a malformed entry is false. */
export function verifyDeviceCertificates(certificates: CertificateToCheck[]): boolean[] {
  if (!Array.isArray(certificates) || certificates.length > MAX_CERTIFICATES)
    throw new VaultError('bad-request', `certificates must be a list of at most ${MAX_CERTIFICATES}`);
  return certificates.map(
    (c) =>
      c !== null &&
      typeof c === 'object' &&
      typeof c.certificate === 'string' &&
      verifyDeviceCertificate(c.publicKey, c.address, c.certificate),
  );
}

/** A certificate of the well-known Hardhat test wallet for device key 11…11: warms the checking code. */
const WARM_UP = {
  address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  publicKey: '11'.repeat(32),
  certificate:
    '0xd9a75aa94e7787bd97c73300acc1f878cf3a5727fc964079097d4c7643588a976d319a599342092bf61fd3a59b1b5cca88711a4da2642915ed80f51035cab5a31c',
};
const WARM_UP_ROUNDS = 100;
const WARM_UP_SLICE = 10;
let warming: Promise<void> | null = null;

/**
 * Runs the certificate check on a known certificate until V8 has compiled it properly
 * (@noble's recovery, its precomputed table, and keccak): the first hundred checks of a process
 * cost 4–6× what later ones do, and a cold group send makes 200. In slices, so a caller's other
 * work (a vault request, a page's command) waits at most one slice. Once per thread.
 */
export function warmCertificateChecks(): Promise<void> {
  warming ??= (async () => {
    for (let done = 0; done < WARM_UP_ROUNDS; done += WARM_UP_SLICE) {
      for (let i = 0; i < WARM_UP_SLICE; i++) {
        if (!verifyDeviceCertificate(WARM_UP.publicKey, WARM_UP.address, WARM_UP.certificate))
          throw new Error('the warm-up certificate does not verify');
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  })();
  return warming;
}
