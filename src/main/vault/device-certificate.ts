import { VaultError } from './vault-error.js';
import type { CertificateToCheck } from './vault-protocol.js';
import { isAddress, signPersonalMessage, verifyPersonalSignature } from './wallet.js';

/**
 * A device certificate binds a device's X25519 key to a wallet: the wallet's EIP-191 signature
 * over `Relay device key <64-hex-public-key> for <lower-case-address>` (relay-contract.md §1).
 * Pure, so that the relay verifies with the same code the client signs with.
 */

const DEVICE_KEY = /^[0-9a-fA-F]{64}$/;

/** The exact signed text; both parts are lower-cased so any input spelling yields one text. */
export function deviceCertificateText(publicKeyHex: string, address: string): string {
  if (typeof publicKeyHex !== 'string' || !DEVICE_KEY.test(publicKeyHex)) throw new TypeError('device key must be 64 hex characters');
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
  if (!Array.isArray(certificates) || certificates.length > MAX_CERTIFICATES) throw new VaultError('bad-request', `certificates must be a list of at most ${MAX_CERTIFICATES}`);
  return certificates.map((c) => c !== null && typeof c === 'object' && typeof c.certificate === 'string' && verifyDeviceCertificate(c.publicKey, c.address, c.certificate));
}
