/**
 * The ready line and, with `--lan`, what a person needs to reach the relay, as plain text: the
 * first stdout lines unless `--log-format json` (then one JSON line says the same). Tools read
 * them: the URL from the first line, the pin and the LAN URLs from the ones after it.
 */
import type { RunningRelay } from '../server.js';

export function bannerLines(relay: Pick<RunningRelay, 'url' | 'lan'>, dataDir: string): string[] {
  const lines = [`relay listening on ${relay.url}`];
  if (!relay.lan) return lines;
  const { certificate, urls } = relay.lan;
  const from = certificate.source === 'operator' ? 'from the operator’s files' : `in ${dataDir}`;
  lines.push(
    certificate.newKey
      ? `TLS key and certificate created ${from}`
      : certificate.renewedBecause
        ? `TLS certificate renewed ${from} on the same key (${certificate.renewedBecause})`
        : `TLS certificate reused ${from}`,
    `TLS public-key pin (SPKI SHA-256): ${certificate.pin}`,
    `curl --pinnedpubkey sha256//${certificate.publicKeyPin}`,
    `TLS certificate SHA-256 fingerprint: ${certificate.fingerprint256}`,
    `certificate valid until ${certificate.validTo.toISOString()}`,
    'reach this relay at:',
    ...urls.map((u) => `  ${u}`),
    'clients must pin the public-key pin above; renewals keep it, only `relay admin rotate-tls-key` changes it',
    'sign-in messages name the URL each client reached the relay at',
  );
  return lines;
}
