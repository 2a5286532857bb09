/**
 * A running relay and its TLS identity as clients see it: pins on the key (hex or curl's form)
 * and pins taken on the whole certificate before pins moved to the key all connect; a rotation
 * through the operator's command is served at once, and the old pin is then refused; the
 * operator's own files are served, followed when they change, and never written.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { X509Certificate } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import { runTs } from '../../../test-support/child-process.js';
import { startRelayServer, type RunningRelay } from '../../server.js';
import { KEY_FILE, certificateFor, newKeyPem } from '../lan-certificate.js';
import { colonHex, spkiHash } from '../tls-pins.js';

const CLI = fileURLToPath(new URL('../../cli.ts', import.meta.url));
const DAY = 24 * 3600 * 1000;
const dirs: string[] = [];
const relays: RunningRelay[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'tls-running-'));
  dirs.push(d);
  return d;
};
afterAll(async () => {
  await Promise.all(relays.map((r) => r.close()));
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

async function start(dataDir: string, tls: { lan: boolean; tlsCert?: string; tlsKey?: string }): Promise<RunningRelay> {
  const relay = await startRelayServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    ...tls,
    rateLimit: 0,
    retentionDays: 30,
    stakeCurrency: 'ETH',
    chainId: 1,
    baseUrl: null,
    allowedHosts: [],
    trustProxy: false,
    minFreeDiskMib: 0,
  });
  relays.push(relay);
  return relay;
}

/**
 * GET /livez over a fresh connection pinned the way LAN clients pin (the key's hash, in hex or
 * curl's form, or the whole certificate's): 200, or 'pin-mismatch' before any request is sent.
 */
function probe(relay: RunningRelay, pin: string): Promise<number | 'pin-mismatch'> {
  const want = pin.startsWith('sha256//') ? colonHex(Buffer.from(pin.slice(8), 'base64')) : pin;
  const { port } = new URL(relay.url);
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port: Number(port), rejectUnauthorized: false });
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      const x509 = socket.getPeerX509Certificate() as X509Certificate;
      if (want !== colonHex(spkiHash(x509.publicKey)) && want !== x509.fingerprint256) {
        socket.destroy();
        resolve('pin-mismatch');
        return;
      }
      const req = httpsRequest({ host: '127.0.0.1', port, path: '/livez', createConnection: () => socket }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.once('error', reject);
      req.end();
    });
  });
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('pins against a running relay', () => {
  it('serves the key its pins name, in either form, and the certificate a pin taken on it names', async () => {
    const relay = await start(tempDir(), { lan: true });
    const c = relay.lan!.certificate;
    expect(await probe(relay, c.pin)).toBe(200);
    expect(await probe(relay, `sha256//${c.publicKeyPin}`)).toBe(200);
    expect(await probe(relay, c.fingerprint256)).toBe(200);
    const other = c.pin.replace(/^../, c.pin.startsWith('00') ? '11' : '00');
    expect(await probe(relay, other)).toBe('pin-mismatch');
  });

  it('rotate-tls-key prints the old and new pins and the running relay serves the new key at once', async () => {
    const dataDir = tempDir();
    const relay = await start(dataDir, { lan: true });
    const before = relay.lan!.certificate;
    const r = await runTs(CLI, ['admin', '--data', dataDir, 'rotate-tls-key']);
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout) as { oldPin: string; newPin: string };
    expect(printed.oldPin).toBe(before.pin);
    expect(printed.newPin).not.toBe(before.pin);
    await until('the new key served', async () => (await probe(relay, printed.newPin)) === 200);
    expect(await probe(relay, before.pin)).toBe('pin-mismatch');
    expect(relay.lan!.certificate.pin).toBe(printed.newPin);
  }, 60_000);
});

describe('the operator’s own certificate', () => {
  it('is served over HTTPS, never written, and a renewal of it is taken up without a restart', async () => {
    const dataDir = tempDir();
    const own = tempDir();
    const keyPem = await newKeyPem();
    const certPath = join(own, 'cert.pem');
    const keyPath = join(own, 'key.pem');
    // an expired certificate is the operator's to renew: served as it is, not replaced
    const expired = await certificateFor(keyPem, Date.now() - 900 * DAY);
    writeFileSync(certPath, expired);
    writeFileSync(keyPath, keyPem, { mode: 0o640 });
    const stamps = () => [statSync(certPath).mtimeMs, statSync(keyPath).mtimeMs, statSync(keyPath).mode];
    const before = stamps();

    const relay = await start(dataDir, { lan: false, tlsCert: certPath, tlsKey: keyPath });
    expect(relay.url).toMatch(/^https:/);
    const first = relay.lan!.certificate;
    expect(first.source).toBe('operator');
    expect(await probe(relay, first.pin)).toBe(200);
    expect(existsSync(join(dataDir, KEY_FILE))).toBe(false);
    expect(stamps()).toEqual(before);
    expect(readFileSync(certPath, 'utf8')).toBe(expired);

    // the operator renews on the same key: same pin, a new certificate served
    writeFileSync(certPath, await certificateFor(keyPem));
    await until('the renewed certificate', async () => relay.lan!.certificate.fingerprint256 !== first.fingerprint256);
    expect(relay.lan!.certificate.pin).toBe(first.pin);
    expect(await probe(relay, first.pin)).toBe(200);
    expect(await probe(relay, first.fingerprint256)).toBe('pin-mismatch');
    expect(existsSync(join(dataDir, KEY_FILE))).toBe(false);
  }, 60_000);
});
