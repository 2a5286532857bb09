import { randomBytes } from 'node:crypto';
import { getAddress, recoverMessageAddress, type Hex } from 'viem';
import { createSiweMessage, parseSiweMessage } from 'viem/siwe';
import { LIMITS } from '../../../shared/api/common.js';
import type { SignInSite } from './sign-in-site.js';
import { isLowS } from './low-s.js';

/** 128 bits; EIP-4361 wants at least 8 alphanumeric characters, and hex is alphanumeric. */
const NONCE_BYTES = 16;
/** What viem is given as the domain before the real one is put in the header (see below). */
const PLACEHOLDER_DOMAIN = 'localhost';

/**
 * A single-use sign-in nonce from the operating system's cryptographic source. Not viem's
 * generateSiweNonce: that one slides a window over a buffer filled by Math.random, so each
 * nonce shares all but one character with the one before it.
 */
export function newSignInNonce(): string {
  return randomBytes(NONCE_BYTES).toString('hex');
}

/** EIP-4361 challenge text for an address: checksum case, the site it names, single-use nonce. */
export function buildChallenge(opts: { address: string; site: SignInSite; chainId: number; now: number }): {
  nonce: string;
  message: string;
  expiresAt: number;
} {
  const nonce = newSignInNonce();
  const expiresAt = opts.now + LIMITS.challengeTtlMs;
  const message = createSiweMessage({
    address: getAddress(opts.address),
    chainId: opts.chainId,
    domain: PLACEHOLDER_DOMAIN,
    uri: opts.site.uri,
    version: '1',
    nonce,
    issuedAt: new Date(opts.now),
    expirationTime: new Date(expiresAt),
    statement: 'Sign in to this relay and receive an API key for this device.',
  });
  // EIP-4361's domain is an RFC 3986 authority, but viem's pattern for it knows only DNS names
  // of two labels or more and IPv4, so a relay on [::1] or on a one-label LAN name could not
  // sign anyone in. The site is already checked (sign-in-site.ts); it goes in the header here.
  return { nonce, message: opts.site.domain + message.slice(PLACEHOLDER_DOMAIN.length), expiresAt };
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

export async function deviceCertificateValid(
  publicKey: string,
  address: string,
  certificate: string,
): Promise<boolean> {
  return (
    isLowS(certificate) &&
    (await recoverSigner(deviceCertificateText(publicKey, address), certificate)) === address.toLowerCase()
  );
}
