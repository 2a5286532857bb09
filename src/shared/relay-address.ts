/**
 * What a person types to name a relay, checked before anything is dialled, with a sentence
 * saying what is wrong; and the TLS errors that mean "self-signed, pin it".
 */

/** The relay address without trailing slashes, or a sentence saying what is wrong with it. */
export function parseRelayUrl(text: string): { url: string } | { problem: string } {
  const t = text.trim().replace(/\/+$/, '');
  if (!t) return { problem: 'Enter the relay’s address, like https://relay.example.org.' };
  const scheme = schemeOf(t);
  if (scheme && scheme !== 'http' && scheme !== 'https')
    return { problem: `A relay address starts with http:// or https://, not ${scheme}://.` };
  if (!scheme)
    return { problem: `“${t}” has no scheme: a relay address starts with http:// or https://, like ${withScheme(t)}.` };
  // (no URL class here: src/shared runs without DOM or Node types)
  const m = /^https?:\/\/([^/?#\s@]+)(\/[^?#\s]*)?([?#].*)?$/i.exec(t);
  if (!m)
    return {
      problem: `“${t}” is not a valid web address. A relay address looks like https://relay.example.org or http://192.168.1.20:7300.`,
    };
  if (m[3]) return { problem: 'A relay address has no ?query or #fragment: give just its scheme, host and port.' };
  const hostPort = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(m[1]);
  if (!hostPort) return { problem: `“${m[1]}” is not a host name or IP address (with an optional :port).` };
  if (hostPort[2] !== undefined && (Number(hostPort[2]) < 1 || Number(hostPort[2]) > 65535))
    return { problem: `Port ${hostPort[2]} is out of range: a port is 1-65535.` };
  return { url: t };
}

/** `ftp` of `ftp://…`; none for `localhost:7300`, whose colon comes before a port. */
function schemeOf(t: string): string | undefined {
  return /^([A-Za-z][A-Za-z0-9+.-]*):(?!\d+(?:[/?#]|$))/.exec(t)?.[1]?.toLowerCase();
}

/**
 * A scheme-less address as it will be dialled: a relay on this computer (the built-in one, or
 * `npm run relay`) speaks plain http; anything else, a LAN relay included, https. Undefined when
 * the text has a scheme already.
 */
export function withScheme(text: string): string | undefined {
  const t = text.trim().replace(/\/+$/, '');
  if (!t || schemeOf(t)) return undefined;
  const host = /^(\[[^\]]*\]|[^:/?#]*)/.exec(t)?.[1]?.toLowerCase() ?? '';
  const loopback = host === 'localhost' || /^127(?:\.\d{1,3}){3}$/.test(host) || host === '[::1]';
  return `${loopback ? 'http' : 'https'}://${t}`;
}

/**
 * `AA:BB:…`, `aabb…` or `sha256/AA:BB…`: 64 hex digits once separators are dropped; or curl's
 * `sha256//<base64>` form of the same 32 bytes.
 */
export function fingerprintProblem(text: string): string | null {
  const t = text.trim();
  if (!t) return 'Enter the fingerprint shown by the computer that shares the relay.';
  const body = t.replace(/^sha-?256[:/ ]*/i, '');
  if (/^[A-Za-z0-9+/]{43}=$/.test(body)) return null;
  if (/[^0-9a-fA-F:\s-]/.test(body))
    return 'A fingerprint has only hex digits (0-9, A-F), optionally separated by colons.';
  const digits = body.replace(/[^0-9a-fA-F]/g, '').length;
  if (digits !== 64)
    return `A fingerprint is 64 hex digits (a SHA-256 hash); this one has ${digits}. Copy it again from the computer that shares the relay.`;
  return null;
}

/** What an invite link names: the relay's address, its pin (with --lan) and the code. */
export interface InviteLink {
  url: string;
  pin: string | null;
  invite: string;
}

/**
 * `https://192.168.1.20:8443/join#invite=CODE&pin=HEX`, as `relay admin invite create` prints it
 * and the owner's app shows it; null for anything else, so a plain address is read as one.
 */
export function parseInviteLink(text: string): InviteLink | null {
  const m = /^\s*(https?:\/\/[^/?#\s]+)\/join#([^\s]*)\s*$/i.exec(text);
  if (!m) return null;
  const address = parseRelayUrl(m[1]);
  if (!('url' in address)) return null;
  const fields = new Map<string, string>();
  for (const part of m[2].split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    try {
      fields.set(part.slice(0, eq), decodeURIComponent(part.slice(eq + 1)));
    } catch {
      return null; // a broken %-escape: not a link the relay printed
    }
  }
  const invite = fields.get('invite');
  if (!invite || invite.length > 64) return null;
  const pin = fields.get('pin') ?? null;
  if (pin !== null && fingerprintProblem(pin)) return null;
  return { url: address.url, pin, invite };
}

/** Node's codes for a certificate no public authority signed: the relay needs a pinned fingerprint. */
export const SELF_SIGNED_CODES: readonly string[] = [
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
];

export const SELF_SIGNED_MESSAGE =
  'This relay uses a self-signed certificate, so it must be pinned: enter the fingerprint shown by the computer that runs it (choose “A relay on my network”, or pass --fingerprint).';
