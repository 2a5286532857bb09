/**
 * The self-signed certificate of a `--lan` relay, kept in the data folder. Clients on the LAN
 * cannot get a publicly trusted certificate for a private IP, so they pin this relay by its
 * public key (tls-pins.ts). The key is the relay's identity: a certificate near its expiry, gone,
 * or not matching is made again from the same key, so the pin never changes on its own; a
 * missing or unreadable key stops the start instead of quietly becoming a new identity. The only
 * way to a new key is `relay admin rotate-tls-key` (tls-rotation.ts).
 */
import { X509Certificate, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { pinsOf, type TlsPins } from './tls-pins.js';

export const KEY_FILE = 'tls-key.pem';
export const CERT_FILE = 'tls-cert.pem';

/** Apple platforms refuse TLS server certificates valid for longer than this. */
const VALIDITY_DAYS = 825;
/** Renew a little before expiry so a running relay does not cross the date. */
const RENEW_BEFORE_MS = 14 * 24 * 3600 * 1000;

export interface LanCertificate extends TlsPins {
  key: string;
  cert: string;
  /** where the pair comes from: the data folder (the relay's own) or --tls-cert/--tls-key */
  source: 'data' | 'operator';
  /** true when this start made a new key: a new pin that clients must be given */
  newKey: boolean;
  /** why the certificate was made again on the same key (the pin is unchanged), when it was */
  renewedBecause?: string;
}

/** The TLS files cannot serve and the relay must not replace them on its own. */
export class TlsIdentityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TlsIdentityError';
  }
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
  if (!existsSync(keyPath)) {
    if (existsSync(certPath))
      throw new TlsIdentityError(
        `${keyPath} is missing beside ${CERT_FILE}: restore it from a backup (relay restore), or make a new key with ` +
          '`relay admin rotate-tls-key` and give everyone the new pin',
      );
    const keyPem = await newKeyPem();
    const certPem = await certificateFor(keyPem, now);
    writeAtomically(keyPath, keyPem, 0o600);
    writeAtomically(certPath, certPem, 0o644);
    return { ...describe(keyPem, certPem, 'data'), newKey: true };
  }
  const keyPem = readFileSync(keyPath, 'utf8');
  const key = parseKey(keyPem, keyPath);
  // an operator may have copied the key in with a loose mode
  if ((statSync(keyPath).mode & 0o077) !== 0) chmodSync(keyPath, 0o600);
  const problem = certificateProblem(certPath, key, now);
  if (problem === null) return { ...describe(keyPem, readFileSync(certPath, 'utf8'), 'data'), newKey: false };
  const certPem = await certificateFor(keyPem, now);
  writeAtomically(certPath, certPem, 0o644);
  return { ...describe(keyPem, certPem, 'data'), newKey: false, renewedBecause: problem };
}

/**
 * The pair in the data folder as it is, without writing anything: what a running relay takes up
 * when the files change under it. Null while they do not make a usable pair (mid-rotation).
 */
export function readLanCertificate(dataDir: string, now = Date.now()): LanCertificate | null {
  try {
    const keyPem = readFileSync(join(dataDir, KEY_FILE), 'utf8');
    const certPem = readFileSync(join(dataDir, CERT_FILE), 'utf8');
    if (certificateProblem(join(dataDir, CERT_FILE), createPrivateKey(keyPem), now) !== null) return null;
    return { ...describe(keyPem, certPem, 'data'), newKey: false };
  } catch {
    return null;
  }
}

/**
 * The operator's own pair (`--tls-cert`, `--tls-key`): read, checked, never written, never
 * replaced; an expired certificate is served as it is (renewing it is the operator's part) and
 * reported in `warning`.
 */
export function loadOperatorCertificate(
  certPath: string,
  keyPath: string,
  now = Date.now(),
): LanCertificate & { warning?: string } {
  let certPem: string;
  let keyPem: string;
  try {
    certPem = readFileSync(certPath, 'utf8');
    keyPem = readFileSync(keyPath, 'utf8');
  } catch (err) {
    throw new TlsIdentityError(`cannot read the TLS files: ${(err as Error).message}`);
  }
  const key = parseKey(keyPem, keyPath);
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(certPem);
  } catch (err) {
    throw new TlsIdentityError(`${certPath} is not a PEM certificate (${(err as Error).message})`);
  }
  if (!x509.checkPrivateKey(key)) throw new TlsIdentityError(`${keyPath} is not the key of ${certPath}`);
  const described = { ...describe(keyPem, certPem, 'operator'), newKey: false };
  if (Date.parse(x509.validTo) < now) return { ...described, warning: `the certificate expired ${x509.validTo}` };
  if (Date.parse(x509.validTo) - RENEW_BEFORE_MS < now)
    return { ...described, warning: `the certificate expires ${x509.validTo}` };
  return described;
}

/** A fresh P-256 private key in PKCS#8 PEM. */
export async function newKeyPem(): Promise<string> {
  const { generateKeyPairSync } = await import('node:crypto');
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
}

/** A self-signed certificate for `keyPem`, valid from a minute ago for VALIDITY_DAYS. */
export async function certificateFor(keyPem: string, now = Date.now()): Promise<string> {
  // loaded only when a certificate is made: it is a sixth of the relay's code and ~15 MiB resident
  const { generate } = await import('selfsigned');
  const key = createPrivateKey(keyPem);
  const pems = await generate([{ name: 'commonName', value: `relay ${hostname()}`.slice(0, 64) }], {
    keyType: key.asymmetricKeyType === 'ec' ? 'ec' : 'rsa',
    keyPair: { privateKey: keyPem, publicKey: createPublicKey(key).export({ type: 'spki', format: 'pem' }) as string },
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(now + VALIDITY_DAYS * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        // names help browsers that check them; pinned clients rely on the pin alone
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
          ...lanIPv4Addresses().map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  return pems.cert;
}

function parseKey(keyPem: string, keyPath: string): KeyObject {
  try {
    return createPrivateKey(keyPem);
  } catch (err) {
    throw new TlsIdentityError(
      `${keyPath} is not a PEM private key (${(err as Error).message}): restore it from a backup, or make a new ` +
        'key with `relay admin rotate-tls-key` and give everyone the new pin',
    );
  }
}

/** null when the certificate on disk serves for `key` now, otherwise why to make it again. */
function certificateProblem(certPath: string, key: KeyObject, now: number): string | null {
  if (!existsSync(certPath)) return `${CERT_FILE} is missing`;
  try {
    const x509 = new X509Certificate(readFileSync(certPath));
    if (!x509.checkPrivateKey(key)) return 'the certificate is not for the key';
    if (Date.parse(x509.validTo) - RENEW_BEFORE_MS < now) return `the certificate expires ${x509.validTo}`;
    if (Date.parse(x509.validFrom) > now) return `the certificate is not valid before ${x509.validFrom}`;
    return null;
  } catch (err) {
    return `the certificate does not parse (${(err as Error).message})`;
  }
}

function describe(key: string, cert: string, source: LanCertificate['source']): Omit<LanCertificate, 'newKey'> {
  return { key, cert, source, ...pinsOf(cert) };
}

export function writeAtomically(path: string, data: string, mode: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  writeFileSync(tmp, data, { mode, flag: 'wx' });
  renameSync(tmp, path);
}
