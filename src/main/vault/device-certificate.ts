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
