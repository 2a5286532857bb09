/**
 * Invite codes and the link that carries one. A code is 128 random bits (base64url, 22
 * characters): it is a bearer secret for one or a few sign-ins, handed on by chat or QR.
 */
import { randomBytes } from 'node:crypto';

export function newInviteCode(): string {
  return randomBytes(16).toString('base64url');
}

/** Where the relay is and how to trust it, for a link: its base URL and, with --lan, its pin. */
export interface RelayAddress {
  baseUrl: string;
  /** SHA-256 of the TLS certificate's public key (SPKI), hex; null for a relay without --lan */
  pin: string | null;
}

/**
 * `https://192.168.1.20:8443/join#invite=CODE&pin=HEX`: the relay's address, then the code and
 * pin in the fragment, which no HTTP client sends, so they never reach a server's or proxy's log.
 */
export function inviteLink(relay: RelayAddress, code: string): string {
  const params = new URLSearchParams({ invite: code });
  if (relay.pin) params.set('pin', relay.pin);
  return `${relay.baseUrl.replace(/\/+$/, '')}/join#${params.toString()}`;
}

/** The pin as a link carries it (hex) from the base64 form `curl --pinnedpubkey` takes. */
export function pinHex(publicKeyPin: string): string {
  return Buffer.from(publicKeyPin, 'base64').toString('hex');
}
