import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * The only reading of a Host header (and of an Origin's authority) the relay acts on. A URL
 * parser is never given a raw header: `new URL('http://' + host)` reads `a:1@b` as user `a`
 * at host `b`, which once let a sign-in message name another site. The grammar is a subset of
 * RFC 3986's authority (§3.2.2, §3.2.3); anything outside it is refused, not repaired:
 *
 *   host-header = host [ ":" port ]
 *   host        = "[" IPv6address "]" / IPv4address / dns-name
 *   IPv6address = as node:net isIPv6 reads it, without a zone ("%")
 *   IPv4address = dec-octet 3( "." dec-octet )    ; 0-255, no leading zero
 *   dns-name    = label *( "." label )            ; at most 253 characters, no trailing dot
 *   label       = 1*63( ALPHA / DIGIT / "-" )     ; not starting or ending with "-"
 *                                                 ; a name whose last label is all digits
 *                                                 ; must be an IPv4address
 *   port        = 1*5DIGIT                        ; 1-65535, no leading zero
 *
 * So: no user info ("@"), no path, query or fragment, no percent-encoding, no spaces or
 * control characters, no empty port.
 */
export interface HostAuthority {
  /** lower case; an IPv6 address keeps its brackets, as in the header */
  hostname: string;
  port: number | null;
  /** hostname[:port], the form a sign-in message names */
  authority: string;
}

const MAX_NAME = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const PORT = /^[1-9][0-9]{0,4}$/;
const ALL_DIGITS = /^[0-9]+$/;
const DOTTED_QUAD = /^(?:0|[1-9][0-9]{0,2})(?:\.(?:0|[1-9][0-9]{0,2})){3}$/;

export function parseHostHeader(text: string): HostAuthority | null {
  if (text.length === 0 || text.length > MAX_NAME + 8) return null;
  let host: string;
  let portText: string | null = null;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close === -1) return null;
    const inside = text.slice(1, close);
    if (inside.includes('%') || !isIPv6(inside)) return null;
    host = `[${inside.toLowerCase()}]`;
    const rest = text.slice(close + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) return null;
      portText = rest.slice(1);
    }
  } else {
    const colon = text.indexOf(':');
    host = (colon === -1 ? text : text.slice(0, colon)).toLowerCase();
    if (colon !== -1) portText = text.slice(colon + 1);
    if (!isDnsNameOrIPv4(host)) return null;
  }
  let port: number | null = null;
  if (portText !== null) {
    if (!PORT.test(portText)) return null;
    port = Number(portText);
    if (port > 65535) return null;
  }
  return { hostname: host, port, authority: port === null ? host : `${host}:${port}` };
}

function isDnsNameOrIPv4(name: string): boolean {
  if (name.length === 0 || name.length > MAX_NAME) return false;
  const labels = name.split('.');
  if (ALL_DIGITS.test(labels[labels.length - 1])) return DOTTED_QUAD.test(name) && isIPv4(name);
  return labels.every((l) => LABEL.test(l));
}

/**
 * An Origin header's scheme and authority, read with the same grammar (RFC 6454: scheme "://"
 * host [":" port]); null for `null`, another scheme or anything else.
 */
export function parseOrigin(origin: string): { scheme: 'http' | 'https'; authority: HostAuthority } | null {
  const m = /^(https?):\/\/(.*)$/i.exec(origin);
  const authority = m ? parseHostHeader(m[2]) : null;
  return m && authority ? { scheme: m[1].toLowerCase() as 'http' | 'https', authority } : null;
}

function loopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * Which host names this relay answers for: loopback names, its base URL's host and the
 * operator's extra hosts (a LAN address). Names as parseHostHeader gives them.
 */
export function relayHostnames(baseUrl: string, extraHosts: string[]): (hostname: string) => boolean {
  const bracketed = (h: string) => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h).toLowerCase();
  const allowed = new Set([new URL(baseUrl).hostname.toLowerCase(), ...extraHosts.map(bracketed)]);
  return (hostname) => loopback(hostname) || allowed.has(hostname);
}

export const DEFAULT_PORT: Record<'http' | 'https', number> = { http: 80, https: 443 };

/** Where a request says it went: its scheme, its Host, and the port it arrived on. */
export interface RequestAuthority {
  protocol: string;
  host: string;
  /** the local port of the connection; null when a trusted proxy named the host (X-Forwarded-Host) */
  arrivalPort: number | null;
}

/**
 * The authority a request reached. Behind `--trust-proxy` a forwarded host is the proxy's word
 * for the public authority, port included, and the port the proxy connected to says nothing about
 * it; otherwise the Host's port (or the scheme's default) must be the one the connection came in on.
 */
export function requestAuthority(req: FastifyRequest, trustProxy: boolean): RequestAuthority {
  // Fastify reads an empty X-Forwarded-Host as none, and so must we
  const forwarded = trustProxy && Boolean(req.headers['x-forwarded-host']);
  return { protocol: req.protocol, host: req.host, arrivalPort: forwarded ? null : (req.socket.localPort ?? null) };
}

/**
 * Whether an Origin is this relay as the request reached it: same scheme, one of our host
 * names, and the same port (the connection's, or the forwarded host's behind a trusted proxy).
 * Another port of the same host is another site (another program on this machine, web mode's
 * own page), so its pages do not count as ours.
 */
export function isOwnOrigin(
  origin: string,
  req: RequestAuthority,
  hostAllowed: (hostname: string) => boolean,
): boolean {
  const parsed = parseOrigin(origin);
  if (!parsed || !hostAllowed(parsed.authority.hostname)) return false;
  const scheme = req.protocol === 'https' ? 'https' : 'http';
  if (parsed.scheme !== scheme) return false;
  const port = parsed.authority.port ?? DEFAULT_PORT[scheme];
  if (req.arrivalPort !== null) return port === req.arrivalPort;
  const forwarded = parseHostHeader(req.host);
  return forwarded !== null && (forwarded.port ?? DEFAULT_PORT[scheme]) === port;
}
