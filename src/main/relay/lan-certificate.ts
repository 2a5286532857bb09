/**
 * The self-signed certificate of a `--lan` relay. Clients on the LAN cannot get a publicly
 * trusted certificate for a private IP, so they pin this one by its SHA-256 fingerprint; it
 * must therefore survive restarts (kept in the data folder) and change only when it expires.
 */
import { X509Certificate, createHash, createPrivateKey } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { join } from 'node:path';

export const KEY_FILE = 'tls-key.pem';
export const CERT_FILE = 'tls-cert.pem';

/** Apple platforms refuse TLS server certificates valid for longer than this. */
const VALIDITY_DAYS = 825;
/** Renew a little before expiry so a running relay does not cross the date. */
const RENEW_BEFORE_MS = 14 * 24 * 3600 * 1000;

export interface LanCertificate {
  key: string;
  cert: string;
  /** colon-separated upper-case hex, as browsers show it */
  fingerprint256: string;
  /** base64 SHA-256 of the public key (SPKI), the form `curl --pinnedpubkey sha256//...` takes */
  publicKeyPin: string;
  validTo: Date;
  /** true when this start generated it (the fingerprint is new) */
  created: boolean;
  /** why an existing pair was replaced, when it was */
  replacedBecause?: string;
}

/** Non-internal IPv4 addresses of this machine: where LAN clients can reach the relay. */
export function lanIPv4Addresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.family === 'IPv4' && !a.internal && !out.includes(a.address)) out.push(a.address);
    }
  }
  return out;
}

export async function loadOrCreateLanCertificate(dataDir: string, now = Date.now()): Promise<LanCertificate> {
  const keyPath = join(dataDir, KEY_FILE);
  const certPath = join(dataDir, CERT_FILE);
  let replacedBecause: string | undefined;
  if (existsSync(keyPath) || existsSync(certPath)) {
    const problem = checkExisting(keyPath, certPath, now);
    if (problem === null) {
      // an operator may have copied the key in with a loose mode
      if ((statSync(keyPath).mode & 0o077) !== 0) chmodSync(keyPath, 0o600);
      return describe(readFileSync(keyPath, 'utf8'), readFileSync(certPath, 'utf8'), false);
    }
    replacedBecause = problem;
  }
  // loaded only when a certificate is made: it is a sixth of the relay's code and ~15 MiB resident
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: `relay ${hostname()}`.slice(0, 64) }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(now + VALIDITY_DAYS * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        // names help browsers that check them; pinned clients rely on the fingerprint alone
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
          ...lanIPv4Addresses().map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  writeAtomically(keyPath, pems.private, 0o600);
  writeAtomically(certPath, pems.cert, 0o644);
  return { ...describe(pems.private, pems.cert, true), replacedBecause };
}

/** null when the pair on disk is usable, otherwise the reason to replace it. */
function checkExisting(keyPath: string, certPath: string, now: number): string | null {
  if (!existsSync(keyPath)) return `${KEY_FILE} is missing`;
  if (!existsSync(certPath)) return `${CERT_FILE} is missing`;
  try {
    const x509 = new X509Certificate(readFileSync(certPath));
    if (!x509.checkPrivateKey(createPrivateKey(readFileSync(keyPath)))) return 'the key does not match the certificate';
    if (Date.parse(x509.validTo) - RENEW_BEFORE_MS < now) return `the certificate expires ${x509.validTo}`;
    if (Date.parse(x509.validFrom) > now) return `the certificate is not valid before ${x509.validFrom}`;
    return null;
  } catch (err) {
    return `the files do not parse (${(err as Error).message})`;
  }
}

function describe(key: string, cert: string, created: boolean): LanCertificate {
  const x509 = new X509Certificate(cert);
  const spki = x509.publicKey.export({ type: 'spki', format: 'der' });
  return {
    key,
    cert,
    fingerprint256: x509.fingerprint256,
    publicKeyPin: createHash('sha256').update(spki).digest('base64'),
    validTo: new Date(Date.parse(x509.validTo)),
    created,
  };
}

function writeAtomically(path: string, data: string, mode: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  writeFileSync(tmp, data, { mode, flag: 'wx' });
  renameSync(tmp, path);
}
