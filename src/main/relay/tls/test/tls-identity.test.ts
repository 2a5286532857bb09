/**
 * The relay's TLS identity on disk: the pin is the public key's hash, the certificate is made
 * again on the same key when it nears its end or goes missing, a lost key stops the start
 * instead of becoming a new identity, the operator's files are never written, and a rotation is
 * the one way to a new key.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CERT_FILE,
  KEY_FILE,
  TlsIdentityError,
  certificateFor,
  loadOperatorCertificate,
  loadOrCreateLanCertificate,
  newKeyPem,
  readLanCertificate,
} from '../lan-certificate.js';
import { rotateTlsKey } from '../tls-rotation.js';
import { colonHex, pinsOf, spkiHash } from '../tls-pins.js';

const DAY = 24 * 3600 * 1000;
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'tls-identity-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const files = (dir: string) => ({
  key: readFileSync(join(dir, KEY_FILE), 'utf8'),
  cert: readFileSync(join(dir, CERT_FILE), 'utf8'),
});

describe('the pin is the public key', () => {
  it('is the SHA-256 of the certificate’s SPKI, in hex and in curl’s base64 form', async () => {
    const dir = tempDir();
    const c = await loadOrCreateLanCertificate(dir);
    expect(c.newKey).toBe(true);
    const spki = spkiHash(new X509Certificate(c.cert).publicKey);
    expect(c.pin).toBe(colonHex(spki));
    expect(c.pin).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(Buffer.from(c.publicKeyPin, 'base64').equals(spki)).toBe(true);
    // the certificate's own hash is another thing
    expect(c.pin).not.toBe(c.fingerprint256);
    expect(colonHex(spkiHash(createPrivateKey(files(dir).key)))).toBe(c.pin);
    expect(statSync(join(dir, KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('a second start reuses the pair as it is', async () => {
    const dir = tempDir();
    const first = await loadOrCreateLanCertificate(dir);
    const second = await loadOrCreateLanCertificate(dir);
    expect(second).toMatchObject({ newKey: false, pin: first.pin, fingerprint256: first.fingerprint256 });
    expect(second.renewedBecause).toBeUndefined();
  });
});

describe('renewal keeps the key', () => {
  it('renews a certificate close to its end on the same key: a new certificate, the same pin', async () => {
    const dir = tempDir();
    const first = await loadOrCreateLanCertificate(dir);
    const keyBefore = files(dir).key;
    const later = first.validTo.getTime() - 10 * DAY;
    const renewed = await loadOrCreateLanCertificate(dir, later);
    expect(renewed.renewedBecause).toMatch(/expires/);
    expect(renewed.newKey).toBe(false);
    expect(renewed.fingerprint256).not.toBe(first.fingerprint256);
    expect(renewed.validTo.getTime()).toBeGreaterThan(first.validTo.getTime());
    expect(renewed.pin).toBe(first.pin);
    expect(files(dir).key).toBe(keyBefore);
    expect(pinsOf(files(dir).cert).pin).toBe(first.pin);
  });

  it('makes a missing, damaged or foreign certificate again on the same key', async () => {
    const dir = tempDir();
    const first = await loadOrCreateLanCertificate(dir);
    rmSync(join(dir, CERT_FILE));
    const missing = await loadOrCreateLanCertificate(dir);
    expect(missing).toMatchObject({ pin: first.pin, newKey: false });
    expect(missing.renewedBecause).toMatch(/missing/);

    writeFileSync(join(dir, CERT_FILE), 'not a certificate');
    expect((await loadOrCreateLanCertificate(dir)).pin).toBe(first.pin);

    // a certificate of another key beside this key: the key is the identity
    writeFileSync(join(dir, CERT_FILE), await certificateFor(await newKeyPem()));
    const foreign = await loadOrCreateLanCertificate(dir);
    expect(foreign.renewedBecause).toMatch(/not for the key/);
    expect(foreign.pin).toBe(first.pin);
  });

  it('a missing or unreadable key stops the start and leaves the files alone', async () => {
    const dir = tempDir();
    await loadOrCreateLanCertificate(dir);
    const certBefore = files(dir).cert;
    rmSync(join(dir, KEY_FILE));
    await expect(loadOrCreateLanCertificate(dir)).rejects.toThrow(TlsIdentityError);
    await expect(loadOrCreateLanCertificate(dir)).rejects.toThrow(/rotate-tls-key/);
    expect(readFileSync(join(dir, CERT_FILE), 'utf8')).toBe(certBefore);
    writeFileSync(join(dir, KEY_FILE), 'garbage');
    await expect(loadOrCreateLanCertificate(dir)).rejects.toThrow(/not a PEM private key/);
    expect(readFileSync(join(dir, KEY_FILE), 'utf8')).toBe('garbage');
    expect(files(dir).cert).toBe(certBefore);
  });
});

describe('the operator’s own files', () => {
  it('are read and never written: not when expired, not when their mode is loose', async () => {
    const dir = tempDir();
    const keyPem = await newKeyPem();
    const expired = await certificateFor(keyPem, Date.now() - 900 * DAY);
    const certPath = join(dir, 'own-cert.pem');
    const keyPath = join(dir, 'own-key.pem');
    writeFileSync(certPath, expired);
    writeFileSync(keyPath, keyPem);
    chmodSync(keyPath, 0o644);
    const before = { cert: statSync(certPath).mtimeMs, key: statSync(keyPath).mtimeMs };
    const c = loadOperatorCertificate(certPath, keyPath);
    expect(c.source).toBe('operator');
    expect(c.warning).toMatch(/expired/);
    expect(c.cert).toBe(expired);
    expect(readFileSync(certPath, 'utf8')).toBe(expired);
    expect(readFileSync(keyPath, 'utf8')).toBe(keyPem);
    expect(statSync(keyPath).mode & 0o777).toBe(0o644);
    expect({ cert: statSync(certPath).mtimeMs, key: statSync(keyPath).mtimeMs }).toEqual(before);
  });

  it('a key that is not the certificate’s is refused', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'c.pem'), await certificateFor(await newKeyPem()));
    writeFileSync(join(dir, 'k.pem'), await newKeyPem());
    expect(() => loadOperatorCertificate(join(dir, 'c.pem'), join(dir, 'k.pem'))).toThrow(/is not the key of/);
  });
});

describe('rotate-tls-key', () => {
  it('is the one way to a new key: it reports the old and the new pin, and the next start serves the new', async () => {
    const dir = tempDir();
    const first = await loadOrCreateLanCertificate(dir);
    const { oldPin, newPin } = await rotateTlsKey(dir);
    expect(oldPin).toBe(first.pin);
    expect(newPin).not.toBe(first.pin);
    expect(readLanCertificate(dir)?.pin).toBe(newPin);
    const next = await loadOrCreateLanCertificate(dir);
    expect(next).toMatchObject({ pin: newPin, newKey: false });
    expect(next.renewedBecause).toBeUndefined();
  });

  it('refuses a folder without a key', async () => {
    await expect(rotateTlsKey(tempDir())).rejects.toThrow(/no TLS key/);
  });
});
