/**
 * Sign-in names only this relay (docs/protocol.md, Sign-in): a Host header cannot put another
 * site in the EIP-4361 message, odd Host headers are 400 never 500, a relay on ::1 signs people
 * in, and nonces come from the operating system's random source.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseHostHeader } from '../../http/guards/host-header.js';
import { newSignInNonce } from '../../auth/sign-in.js';
import { parseInvocation } from '../../cli-args.js';
import { call, signIn, startRelay, type TestRelay } from '../harness.js';
import { rawRequest } from '../raw-http.js';

const ADDRESS = '0x' + '11'.repeat(20);

/** POST /auth/challenge with this exact Host header. */
const challengeVia = (relay: TestRelay, host: string) =>
  rawRequest(relay.url, {
    method: 'POST',
    path: '/api/v1/auth/challenge',
    headers: [
      ['Host', host],
      ['Content-Type', 'application/json'],
    ],
    body: JSON.stringify({ address: ADDRESS }),
  });

const domainOf = (message: string) => message.slice(0, message.indexOf(' wants you to sign in'));

describe('the Host grammar', () => {
  it('takes a plain host[:port] and nothing else', () => {
    const ok = [
      'localhost',
      'localhost:8787',
      '127.0.0.1:1',
      '[::1]:65535',
      '[FE80::1]',
      'relay.example.com',
      'Relay-1.example.COM:443',
      'box',
      '10.0.0.255',
    ];
    expect(ok.map((h) => parseHostHeader(h)?.authority)).toEqual([
      'localhost',
      'localhost:8787',
      '127.0.0.1:1',
      '[::1]:65535',
      '[fe80::1]',
      'relay.example.com',
      'relay-1.example.com:443',
      'box',
      '10.0.0.255',
    ]);
    const refused = [
      '',
      'localhost:8787@evil.example',
      'relay.example.com:443@evil.example',
      'user@localhost',
      'localhost:99999',
      'localhost:0',
      'localhost:080',
      'localhost:',
      'localhost:8787 evil.com',
      'local\thost',
      'localhost\t',
      'local%68ost',
      'localhost/x',
      'localhost?x',
      'localhost#x',
      '::1',
      '[::1',
      '[::1]x',
      '[::1]:',
      '[fe80::1%25eth0]',
      '[zz::1]',
      '256.0.0.1',
      '127.1',
      '01.2.3.4',
      '-a.example',
      'a-.example',
      'a..example',
      'example.com.',
      'a'.repeat(64) + '.example',
      'ex_ample.com',
      'exämple.com',
      'localhost:8787:1',
      '\u0000',
      'localhost\r\nX: y',
    ];
    for (const h of refused) expect(parseHostHeader(h), JSON.stringify(h)).toBeNull();
  });
});

describe('sign-in on a relay without --base-url', () => {
  let relay: TestRelay;
  let port: string;
  beforeAll(async () => {
    relay = await startRelay();
    port = new URL(relay.url).port;
  });
  afterAll(async () => relay?.close());

  it('never names a site smuggled in the Host header (user info, a second host)', async () => {
    for (const host of [`localhost:${port}@evil.example`, `127.0.0.1:${port}@evil.example`, `localhost@evil.example`]) {
      const r = await challengeVia(relay, host);
      expect({ host, status: r.status, body: JSON.parse(r.body) }).toMatchObject({
        status: 400,
        body: { code: 'bad-host' },
      });
      expect(r.body).not.toContain('evil.example');
    }
  });

  it('odd Host headers are 400 bad-host, never 500; a bracketed IPv6 loopback is fine', async () => {
    for (const host of [
      'localhost:99999',
      `localhost:${port} evil.com`,
      `localhost\t:${port}`,
      'localhost:0',
      `[::1]:${port}x`,
    ]) {
      const r = await challengeVia(relay, host);
      expect({ host, status: r.status, code: JSON.parse(r.body).code }).toEqual({
        host,
        status: 400,
        code: 'bad-host',
      });
    }
    const v6 = await challengeVia(relay, `[::1]:${port}`);
    expect(v6.status).toBe(200);
    const message = JSON.parse(v6.body).message as string;
    expect(domainOf(message)).toBe(`[::1]:${port}`);
    expect(message).toContain(`\nURI: http://[::1]:${port}\n`);
  });

  it('names the Host the client reached when it is one of ours, and exchanges only messages naming this relay', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const reached = await challengeVia(relay, `localhost:${port}`);
    expect(domainOf(JSON.parse(reached.body).message)).toBe(`localhost:${port}`);
    // A challenge naming another site (issued before this rule, say) is refused when signed, and used up.
    const nonce = newSignInNonce();
    const foreign = `evil.example wants you to sign in with your Ethereum account:\n${account.address}\n\nSign in.\n\nURI: http://evil.example\nVersion: 1\nChain ID: 1\nNonce: ${nonce}\nIssued At: ${new Date().toISOString()}`;
    await relay.store.createChallenge({
      nonce,
      address: account.address.toLowerCase(),
      message: foreign,
      expiresAt: Date.now() + 60_000,
    });
    const signature = await account.signMessage({ message: foreign });
    const r = await call(relay.url, 'POST', '/api/v1/auth/keys', { body: { message: foreign, signature } });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('bad-signin');
    expect(JSON.stringify(r.body)).not.toContain('sk_live_');
  });

  it('nonces: 128 bits of alphanumerics, none derivable from the one before, not from Math.random', async () => {
    const nonces: string[] = [];
    for (let i = 0; i < 100; i++) {
      const r = await call(relay.url, 'POST', '/api/v1/auth/challenge', { body: { address: ADDRESS } });
      nonces.push(/\nNonce: (\S+)\n/.exec(r.body.message)![1]);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
    const alphabet = nonces.every((n) => /^[0-9a-f]+$/.test(n)) ? 16 : 62;
    for (const n of nonces) {
      expect(n).toMatch(/^[A-Za-z0-9]+$/);
      expect(n.length * Math.log2(alphabet)).toBeGreaterThanOrEqual(96);
    }
    // viem's generateSiweNonce slides a window over one Math.random buffer: consecutive nonces
    // share 95 of their 96 characters. Two independent 32-hex strings share a run of 10 with p ≈ 1e-9.
    for (let i = 1; i < nonces.length; i++)
      expect(longestCommonRun(nonces[i - 1], nonces[i]), `${nonces[i - 1]} ${nonces[i]}`).toBeLessThan(10);
    const spy = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    try {
      expect(new Set([newSignInNonce(), newSignInNonce(), newSignInNonce()]).size).toBe(3);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('sign-in on a relay with --base-url', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startRelay({ baseUrl: 'https://relay.example.com', baseUrlGiven: true });
  });
  afterAll(async () => relay?.close());

  it('names the base URL whatever the Host says, and refuses a smuggled host', async () => {
    const port = new URL(relay.url).port;
    for (const host of ['relay.example.com', 'relay.example.com:443', `localhost:${port}`, `[::1]:${port}`]) {
      const r = await challengeVia(relay, host);
      expect(r.status, host).toBe(200);
      const message = JSON.parse(r.body).message as string;
      expect(domainOf(message), host).toBe('relay.example.com');
      expect(message).toContain('\nURI: https://relay.example.com\n');
    }
    const smuggled = await challengeVia(relay, 'relay.example.com:443@evil.example');
    expect(smuggled.status).toBe(400);
    expect(JSON.parse(smuggled.body).code).toBe('bad-host');
    // and such a message signs in (fetch sends Host: 127.0.0.1:port)
    expect((await signIn(relay.url)).apiKey).toMatch(/^sk_live_/);
  });
});

describe('a relay listening on ::1 (no --base-url)', () => {
  it('signs people in', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-v6-'));
    const { startRelayServer } = await import('../../server.js');
    const invocation = parseInvocation([
      '--host',
      '::1',
      '--port',
      '0',
      '--data',
      dir,
      '--rate-limit',
      '0',
      '--min-free-disk-mib',
      '0',
    ]);
    if (invocation.mode !== 'serve') throw new Error('expected serve options');
    const relay = await startRelayServer(invocation.options);
    try {
      expect(relay.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      const user = await signIn(relay.url);
      expect((await call(relay.url, 'GET', '/api/v1/me', { auth: user.apiKey })).body.address).toBe(user.address);
    } finally {
      await relay.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function longestCommonRun(a: string, b: string): number {
  let best = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      let k = 0;
      while (i + k < a.length && j + k < b.length && a[i + k] === b[j + k]) k++;
      if (k > best) best = k;
    }
  }
  return best;
}
