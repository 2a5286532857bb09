import { parseHostHeader } from '../http/guards/host-header.js';
import { badHost, hostNotAllowed } from '../http/errors.js';

/** What an EIP-4361 message names: `domain` (an authority) and `URI`. */
export interface SignInSite {
  domain: string;
  uri: string;
}

export interface SignInSites {
  /** the site a challenge for this request names; throws 400 bad-host or 421 */
  forRequest(protocol: string, host: string): SignInSite;
  /** whether a sign-in message names this relay (the rule forRequest applies, read back) */
  names(message: string): boolean;
}

const HEADER_TAIL = ' wants you to sign in with your Ethereum account:';

/**
 * Which site sign-in messages name (docs/protocol.md, Sign-in). With an operator's base URL
 * (`--base-url`), always that one, whatever the request's Host says: behind a proxy the Host is
 * the proxy's business, and a wallet must only ever see the relay's public name. Without one, a
 * relay is reached over loopback and over each LAN address, and a wallet refuses to sign for a
 * host other than the one it reached, so the message names the Host, but only a plain
 * host[:port] (host-header.ts) this relay answers for.
 */
export function signInSites(
  base: { url: string; given: boolean },
  hostAllowed: (hostname: string) => boolean,
): SignInSites {
  const baseUrl = new URL(base.url);
  const fixed: SignInSite | null = base.given ? { domain: baseUrl.host, uri: baseUrl.origin } : null;

  const forRequest = (protocol: string, host: string): SignInSite => {
    if (fixed) return fixed;
    const parsed = parseHostHeader(host);
    if (!parsed) throw badHost();
    if (!hostAllowed(parsed.hostname)) throw hostNotAllowed();
    // a proxy's X-Forwarded-Proto (trusted only with --trust-proxy) can say only http or https
    const scheme = protocol === 'https' ? 'https' : 'http';
    return { domain: parsed.authority, uri: `${scheme}://${parsed.authority}` };
  };

  const names = (message: string): boolean => {
    const firstLine = message.slice(0, message.indexOf('\n'));
    if (!firstLine.endsWith(HEADER_TAIL)) return false;
    const domain = firstLine.slice(0, -HEADER_TAIL.length);
    const uri = /\nURI: ([^\n]*)\n/.exec(message)?.[1];
    if (fixed) return domain === fixed.domain && uri === fixed.uri;
    const parsed = parseHostHeader(domain);
    return (
      parsed !== null &&
      parsed.authority === domain &&
      hostAllowed(parsed.hostname) &&
      (uri === `http://${domain}` || uri === `https://${domain}`)
    );
  };

  return { forRequest, names };
}
