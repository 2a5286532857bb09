import { getAddress, recoverMessageAddress, type Hex } from 'viem';
import { createSiweMessage, generateSiweNonce, parseSiweMessage } from 'viem/siwe';
import { LIMITS } from '../../shared/api/common.js';

/** EIP-4361 challenge text for an address: checksum case, relay URL as URI, single-use nonce. */
export function buildChallenge(opts: { address: string; baseUrl: string; chainId: number; now: number }): { nonce: string; message: string; expiresAt: number } {
  const url = new URL(opts.baseUrl);
  const nonce = generateSiweNonce();
  const expiresAt = opts.now + LIMITS.challengeTtlMs;
  const message = createSiweMessage({
    address: getAddress(opts.address),
    chainId: opts.chainId,
    domain: url.host,
    uri: url.origin,
    version: '1',
    nonce,
    issuedAt: new Date(opts.now),
    expirationTime: new Date(expiresAt),
    statement: 'Sign in to this relay and receive an API key for this device.',
  });
  return { nonce, message, expiresAt };
}

/** The nonce of a sign-in message, or null when the text is not an EIP-4361 message at all. */
export function challengeNonce(message: string): string | null {
  try {
    const parsed = parseSiweMessage(message);
    return typeof parsed.nonce === 'string' && /^[A-Za-z0-9]{8,}$/.test(parsed.nonce) ? parsed.nonce : null;
  } catch {
    return null;
  }
}

/** Lower-case address that produced an EIP-191 personal_sign signature over text, or null. */
export async function recoverSigner(text: string, signature: string): Promise<string | null> {
  try {
    return (await recoverMessageAddress({ message: text, signature: signature as Hex })).toLowerCase();
  } catch {
    return null;
  }
}

/** The exact text a wallet signs to certify one of its device keys (docs/protocol.md §2 Identities and credentials). */
export function deviceCertificateText(publicKey: string, address: string): string {
  return `Relay device key ${publicKey.toLowerCase()} for ${address.toLowerCase()}`;
}

export async function deviceCertificateValid(publicKey: string, address: string, certificate: string): Promise<boolean> {
  return (await recoverSigner(deviceCertificateText(publicKey, address), certificate)) === address.toLowerCase();
}
