/**
 * The TLS identity a relay serves with: the operator's files (`--tls-cert`, `--tls-key`), or,
 * with `--lan`, the data folder's own pair. While it runs, the relay takes up a pair changed
 * under it (a rotation, the operator's renewal) without a restart, and renews its own
 * certificate on the same key before it expires.
 */
import { unwatchFile, watchFile } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import {
  CERT_FILE,
  KEY_FILE,
  loadOperatorCertificate,
  loadOrCreateLanCertificate,
  readLanCertificate,
  type LanCertificate,
} from './lan-certificate.js';

/** How often a running relay looks at its own certificate's expiry. */
const RENEW_CHECK_MS = 6 * 3600 * 1000;
/** How often the TLS files' modification times are polled. */
const WATCH_INTERVAL_MS = 1000;

export interface TlsSource {
  lan: boolean;
  dataDir: string;
  tlsCert?: string | null;
  tlsKey?: string | null;
}

/** What can take a new pair: Node's TLS server. */
export interface SecureContextTarget {
  setSecureContext(options: { key: string; cert: string }): void;
}

export interface TlsIdentity {
  /** the pair served now (replaced when the files change) */
  current: LanCertificate;
  /** Follows the files for `server` until the returned function is called. */
  follow(server: SecureContextTarget): () => void;
}

/** null: the relay serves plain HTTP. */
export async function openTlsIdentity(source: TlsSource, log?: Logger): Promise<TlsIdentity | null> {
  const operator = source.tlsCert && source.tlsKey ? { cert: source.tlsCert, key: source.tlsKey } : null;
  if (!operator && !source.lan) return null;
  const load = operator
    ? () => loadOperatorCertificate(operator.cert, operator.key)
    : () => loadOrCreateLanCertificate(source.dataDir);
  const first = await load();
  logLoaded(log, first, source.dataDir);
  const identity: TlsIdentity = {
    current: first,
    follow(server) {
      const files = operator
        ? [operator.cert, operator.key]
        : [join(source.dataDir, KEY_FILE), join(source.dataDir, CERT_FILE)];
      const take = (next: LanCertificate | null, why: string) => {
        if (!next || (next.cert === identity.current.cert && next.key === identity.current.key)) return;
        server.setSecureContext({ key: next.key, cert: next.cert });
        const oldPin = identity.current.pin;
        identity.current = next;
        log?.[next.pin === oldPin ? 'info' : 'warn'](
          { ...fieldsOf(next), oldPin, why },
          next.pin === oldPin ? 'TLS certificate reloaded, same key' : 'TLS key changed: clients need the new pin',
        );
      };
      const reread = () => {
        if (operator) {
          try {
            take(loadOperatorCertificate(operator.cert, operator.key), 'the files changed');
          } catch {
            // mid-way through the operator's copy: the next change of either file tries again
          }
        } else take(readLanCertificate(source.dataDir), 'the files changed');
      };
      for (const f of files) watchFile(f, { interval: WATCH_INTERVAL_MS, persistent: false }, reread);
      const renew = operator
        ? null
        : setInterval(() => {
            loadOrCreateLanCertificate(source.dataDir).then(
              (c) => take(c, c.renewedBecause ?? 'renewal check'),
              (err: unknown) => log?.error({ err }, 'TLS certificate renewal failed'),
            );
          }, RENEW_CHECK_MS);
      renew?.unref();
      return () => {
        for (const f of files) unwatchFile(f, reread);
        if (renew) clearInterval(renew);
      };
    },
  };
  return identity;
}

export function fieldsOf(c: LanCertificate) {
  return {
    source: c.source,
    pin: c.pin,
    pinnedPubkey: `sha256//${c.publicKeyPin}`,
    fingerprint256: c.fingerprint256,
    validTo: c.validTo.toISOString(),
  };
}

function logLoaded(log: Logger | undefined, c: LanCertificate & { warning?: string }, dataDir: string): void {
  if (!log) return;
  const fields = { ...fieldsOf(c), ...(c.source === 'data' ? { dataDir } : {}) };
  if (c.warning) log.warn({ ...fields, problem: c.warning }, 'TLS certificate from the operator’s files');
  else if (c.source === 'operator') log.info(fields, 'TLS certificate from the operator’s files');
  else if (c.newKey) log.info(fields, 'TLS key and certificate created');
  else if (c.renewedBecause)
    log.info({ ...fields, renewedBecause: c.renewedBecause }, 'TLS certificate renewed, same key');
  else log.info(fields, 'TLS certificate reused');
}
