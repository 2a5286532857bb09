import { parseSiweMessage, validateSiweMessage } from 'viem/siwe';
import { VaultError } from '../vault-error.js';
import { isAddress } from './wallet.js';

/**
 * Client-side check of an EIP-4361 (Sign-In with Ethereum) message before the vault signs it:
 * a relay, or anyone posing as one, must not be able to get a sign-in signature that is
 * valid for another site, another account or another time.
 */

export interface SiweExpectation {
  /** our wallet address, any case */
  address: string;
  /** the relay base URL we are signing in to, e.g. http://127.0.0.1:4000 */
  expectedUri: string;
  now?: Date;
}

export interface CheckedSiwe {
  domain: string;
  uri: string;
  nonce: string;
  chainId: number;
  issuedAt?: Date;
  expirationTime?: Date;
}

const FIELD_LINE = /^(URI|Version|Chain ID|Nonce|Issued At|Expiration Time|Not Before|Request ID|Resources): /;
const STAND_IN_HEADER = 'localhost wants you to sign in with your Ethereum account:';
// a relay's clock may run a little ahead of ours
const CLOCK_SKEW_MS = 5 * 60 * 1000;

function reject(reason: string): never {
  throw new VaultError('siwe-rejected', `refusing to sign the sign-in message: ${reason}`);
}

function sameUri(a: string, b: string): boolean {
  const norm = (u: string) => {
    const url = new URL(u);
    return url.href.replace(/\/+$/, '');
  };
  try {
    return norm(a) === norm(b);
  } catch {
    return false;
  }
}

/** Returns the checked fields or throws VaultError `siwe-rejected`. */
export function checkSiweMessage(message: string, expect: SiweExpectation): CheckedSiwe {
  if (typeof message !== 'string' || message.length === 0 || message.length > 8192) reject('not a message');
  if (/[\r\0]/.test(message)) reject('unexpected control characters');
  if (!isAddress(expect.address)) reject('no wallet address to compare with');
  let expected: URL;
  try {
    expected = new URL(expect.expectedUri);
  } catch {
    return reject('the expected relay URI is not a URL');
  }
  const lines = message.split('\n');
  // The header's domain decides where a wallet believes it signs in; it must be exactly the relay's host.
  const header = `${expected.host} wants you to sign in with your Ethereum account:`;
  if (lines[0] !== header && lines[0] !== `${expected.protocol}//${header}`)
    reject(`the message is for another domain (${lines[0].slice(0, 80)})`);
  if (!isAddress(lines[1]) || lines[1].toLowerCase() !== expect.address.toLowerCase())
    reject('the message is for another address');
  const seen = new Set<string>();
  for (const line of lines) {
    const field = FIELD_LINE.exec(line)?.[1];
    if (!field) continue;
    if (seen.has(field)) reject(`field "${field}" appears twice`);
    seen.add(field);
  }
  // viem's parser reads a header's domain only when it is a DNS name or IPv4 (no brackets), so a
  // relay on [::1] could not be signed in to. The header was compared byte for byte above: the
  // parser reads the rest behind a stand-in header, and the domain is the one just checked.
  const standIn = lines[0].startsWith(`${expected.protocol}//`)
    ? `${expected.protocol}//${STAND_IN_HEADER}`
    : STAND_IN_HEADER;
  const parsed = { ...parseSiweMessage([standIn, ...lines.slice(1)].join('\n')), domain: expected.host };
  if (parsed.scheme !== undefined && `${parsed.scheme}:` !== expected.protocol) reject('scheme mismatch');
  if (!parsed.address || parsed.address.toLowerCase() !== expect.address.toLowerCase()) reject('address mismatch');
  if (!parsed.uri || !sameUri(parsed.uri, expected.href))
    reject(`the message is for another URI (${String(parsed.uri).slice(0, 80)})`);
  if (parsed.version !== '1') reject('version must be 1');
  if (!parsed.nonce) reject('no nonce');
  if (typeof parsed.chainId !== 'number' || !Number.isSafeInteger(parsed.chainId)) reject('no chain id');
  const now = expect.now ?? new Date();
  if (
    !validateSiweMessage({
      message: parsed,
      address: expect.address as `0x${string}`,
      domain: expected.host,
      time: now,
    })
  ) {
    reject('expired, not yet valid or malformed');
  }
  if (
    parsed.issuedAt &&
    (Number.isNaN(parsed.issuedAt.getTime()) || parsed.issuedAt.getTime() > now.getTime() + CLOCK_SKEW_MS)
  ) {
    reject('issued in the future');
  }
  return {
    domain: parsed.domain as string,
    uri: parsed.uri as string,
    nonce: parsed.nonce as string,
    chainId: parsed.chainId as number,
    issuedAt: parsed.issuedAt,
    expirationTime: parsed.expirationTime,
  };
}
