/**
 * The ready line and, with `--lan`, what a person needs to reach the relay, as plain text: the
 * first stdout lines unless `--log-format json` (then one JSON line says the same). Tools read
 * them: the URL from the first line, the fingerprint and the LAN URLs from the ones after it.
 */
import type { RunningRelay } from '../server.js';

export function bannerLines(relay: Pick<RunningRelay, 'url' | 'lan'>, dataDir: string): string[] {
  const lines = [`relay listening on ${relay.url}`];
  if (!relay.lan) return lines;
  const { certificate, urls } = relay.lan;
  lines.push(
    certificate.created
      ? `TLS certificate created in ${dataDir}${certificate.replacedBecause ? ` (replacing the old one: ${certificate.replacedBecause})` : ''}`
      : `TLS certificate reused from ${dataDir}`,
    `TLS certificate SHA-256 fingerprint: ${certificate.fingerprint256}`,
    `TLS public-key pin (curl --pinnedpubkey): sha256//${certificate.publicKeyPin}`,
    `certificate valid until ${certificate.validTo.toISOString()}`,
    'reach this relay at:',
    ...urls.map((u) => `  ${u}`),
    'clients must pin the fingerprint above; the certificate is self-signed',
    'sign-in messages name the URL each client reached the relay at',
  );
  return lines;
}
