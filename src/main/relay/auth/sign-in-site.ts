import type { FastifyRequest } from 'fastify';
import { parseHostHeader } from '../http/guards/host-header.js';
import { badHost, hostNotAllowed } from '../http/errors.js';

/** What an EIP-4361 message names: `domain` (an authority) and `URI`. */
export interface SignInSite {
  domain: string;
  uri: string;
}

/** Where a request says it went: its scheme, its Host, and the port it arrived on. */
export interface RequestAuthority {
  protocol: string;
  host: string;
  /** the local port of the connection; null when a trusted proxy named the host (X-Forwarded-Host) */
  arrivalPort: number | null;
}

export interface SignInSites {
  /** the site a challenge for this request names; throws 400 bad-host or 421 */
  forRequest(req: RequestAuthority): SignInSite;
  /** whether a sign-in message names this relay as this request reached it (the rule forRequest applies) */
  names(message: string, req: RequestAuthority): boolean;
}

const HEADER_TAIL = ' wants you to sign in with your Ethereum account:';
const DEFAULT_PORT: Record<string, number> = { http: 80, https: 443 };

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
 * Which site sign-in messages name (docs/protocol.md, Sign-in). With an operator's base URL
 * (`--base-url`), always that one, whatever the request's Host says: behind a proxy the Host is
 * the proxy's business, and a wallet must only ever see the relay's public name. Without one, a
 * relay is reached over loopback and over each LAN address, and a wallet refuses to sign for a
 * host other than the one it reached, so the message names the Host, but only a plain
 * host[:port] (host-header.ts) this relay answers for, on the port it answers on: another
 * service on another port of the same machine must not be able to pass our challenge on to a
 * wallet and keep the key it buys.
 */
export function signInSites(
  base: { url: string; given: boolean },
  hostAllowed: (hostname: string) => boolean,
): SignInSites {
  const baseUrl = new URL(base.url);
  const fixed: SignInSite | null = base.given ? { domain: baseUrl.host, uri: baseUrl.origin } : null;

  const forRequest = (req: RequestAuthority): SignInSite => {
    if (fixed) return fixed;
    const parsed = parseHostHeader(req.host);
    if (!parsed) throw badHost();
    // a proxy's X-Forwarded-Proto (trusted only with --trust-proxy) can say only http or https
    const scheme = req.protocol === 'https' ? 'https' : 'http';
    if (!hostAllowed(parsed.hostname)) throw hostNotAllowed();
    if (req.arrivalPort !== null && (parsed.port ?? DEFAULT_PORT[scheme]) !== req.arrivalPort) throw hostNotAllowed();
    return { domain: parsed.authority, uri: `${scheme}://${parsed.authority}` };
  };

  const names = (message: string, req: RequestAuthority): boolean => {
    const firstLine = message.slice(0, message.indexOf('\n'));
    if (!firstLine.endsWith(HEADER_TAIL)) return false;
    const domain = firstLine.slice(0, -HEADER_TAIL.length);
    const uri = /\nURI: ([^\n]*)\n/.exec(message)?.[1];
    let site: SignInSite;
    try {
      site = forRequest(req);
    } catch {
      return false;
    }
    return domain === site.domain && uri === site.uri;
  };

  return { forRequest, names };
}
