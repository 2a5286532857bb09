import { DEFAULT_PORT, parseHostHeader, type RequestAuthority } from '../http/guards/host-header.js';
import { badHost, hostNotAllowed } from '../http/errors.js';

/** What an EIP-4361 message names: `domain` (an authority) and `URI`. */
export interface SignInSite {
  domain: string;
  uri: string;
}

export interface SignInSites {
  /** the site a challenge for this request names; throws 400 bad-host or 421 */
  forRequest(req: RequestAuthority): SignInSite;
  /** whether a sign-in message names this relay as this request reached it (the rule forRequest applies) */
  names(message: string, req: RequestAuthority): boolean;
}

const HEADER_TAIL = ' wants you to sign in with your Ethereum account:';

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
