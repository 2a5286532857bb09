/**
 * A sign-in names this relay's whole authority, host and port (docs/protocol.md, Sign-in):
 * another service on another port of the same machine cannot get a challenge that names
 * itself, nor exchange one that does, so it cannot pass our challenge on to a wallet and keep
 * the key.
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignInNonce } from '../../auth/sign-in.js';
import { call, signIn, startRelay, type TestRelay } from '../harness.js';
import { rawRequest } from '../raw-http.js';

const ADDRESS = '0x' + '11'.repeat(20);

/** POST /auth/challenge straight to one node with this Host (and a forwarded one, if given). */
const challengeVia = (relay: TestRelay, host: string, forwardedHost?: string) =>
  rawRequest(relay.nodeUrl, {
    method: 'POST',
    path: '/api/v1/auth/challenge',
    headers: [
      ['Host', host],
      ...(forwardedHost === undefined ? [] : [['X-Forwarded-Host', forwardedHost] as [string, string]]),
      ['Content-Type', 'application/json'],
    ],
    body: JSON.stringify({ address: ADDRESS }),
  });

const domainOf = (message: string) => message.slice(0, message.indexOf(' wants you to sign in'));

/** A challenge the store holds as if this relay had issued it, naming `domain`. */
async function storedChallenge(relay: TestRelay, domain: string) {
  const account = privateKeyToAccount(generatePrivateKey());
  const nonce = newSignInNonce();
  const message = `${domain} wants you to sign in with your Ethereum account:\n${account.address}\n\nSign in.\n\nURI: http://${domain}\nVersion: 1\nChain ID: 1\nNonce: ${nonce}\nIssued At: ${new Date().toISOString()}`;
  await relay.store.createChallenge({
    nonce,
    address: account.address.toLowerCase(),
    message,
    expiresAt: Date.now() + 60_000,
  });
  return { message, signature: await account.signMessage({ message }) };
}

describe('the sign-in names the port the relay answers on', () => {
  let relay: TestRelay;
  let port: number;
  beforeAll(async () => {
    relay = await startRelay();
    port = Number(new URL(relay.nodeUrl).port);
  });
  afterAll(async () => relay?.close());

  it('a Host naming another port of this host is 421 host-not-allowed, and so is one without a port', async () => {
    const other = port === 9999 ? 9998 : 9999;
    for (const host of [`127.0.0.1:${other}`, `localhost:${other}`, `[::1]:${other}`, '127.0.0.1']) {
      const r = await challengeVia(relay, host);
      expect({ host, status: r.status, code: JSON.parse(r.body).code }).toEqual({
        host,
        status: 421,
        code: 'host-not-allowed',
      });
    }
    const own = await challengeVia(relay, `127.0.0.1:${port}`);
    expect(own.status).toBe(200);
    expect(domainOf(JSON.parse(own.body).message)).toBe(`127.0.0.1:${port}`);
  });

  it('a signed message naming another port is 401 bad-signin, its nonce used up; one naming this port signs in', async () => {
    const foreign = await storedChallenge(relay, `127.0.0.1:${port === 9999 ? 9998 : 9999}`);
    const r = await call(relay.nodeUrl, 'POST', '/api/v1/auth/keys', { body: foreign });
    expect([r.status, r.body.code]).toEqual([401, 'bad-signin']);
    expect(JSON.stringify(r.body)).not.toContain('sk_live_');
    const again = await call(relay.nodeUrl, 'POST', '/api/v1/auth/keys', { body: foreign });
    expect([again.status, again.body.code]).toEqual([401, 'nonce-invalid']);
    const own = await storedChallenge(relay, `127.0.0.1:${port}`);
    const ok = await call(relay.nodeUrl, 'POST', '/api/v1/auth/keys', { body: own });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.apiKey).toMatch(/^sk_live_/);
  });
});

describe('behind --trust-proxy', () => {
  let relay: TestRelay;
  let port: number;
  beforeAll(async () => {
    relay = await startRelay({ trustProxy: true });
    port = Number(new URL(relay.nodeUrl).port);
  });
  afterAll(async () => relay?.close());

  it("names the forwarded host and port, which the proxy vouches for; without one, the Host must name this node's port", async () => {
    const proxied = await challengeVia(relay, `127.0.0.1:${port}`, 'localhost:4443');
    expect(proxied.status).toBe(200);
    expect(domainOf(JSON.parse(proxied.body).message)).toBe('localhost:4443');
    const refused = await challengeVia(relay, `127.0.0.1:${port}`, 'evil.example:4443');
    expect([refused.status, JSON.parse(refused.body).code]).toEqual([421, 'host-not-allowed']);
    const direct = await challengeVia(relay, `127.0.0.1:${port === 9999 ? 9998 : 9999}`);
    expect([direct.status, JSON.parse(direct.body).code]).toEqual([421, 'host-not-allowed']);
    expect((await signIn(relay.url)).apiKey).toMatch(/^sk_live_/);
  });
});
