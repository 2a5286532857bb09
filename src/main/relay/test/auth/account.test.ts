import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  certify,
  newDeviceKey,
  signIn,
  startRelay,
  UNREAD_STAKE_CHAIN,
  type TestRelay,
  type TestUser,
} from '../harness.js';

let relay: TestRelay;
// a relay that takes stakes, so that stake-gate can be set (the chain itself: stakes.test.ts)
beforeAll(async () => {
  relay = await startRelay({}, { stakeChain: UNREAD_STAKE_CHAIN });
});
afterAll(async () => relay.close());

const api = (u: TestUser | string | undefined, method: string, path: string, body?: unknown) =>
  call(relay.url, method, path, { auth: typeof u === 'string' ? u : u?.apiKey, body });

describe('sign-in (EIP-4361)', () => {
  it('hands out a checksummed EIP-4361 challenge with the relay URL, chain id 1 and a nonce', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const r = await api(undefined, 'POST', '/api/v1/auth/challenge', { address: account.address.toLowerCase() });
    expect(r.status).toBe(200);
    expect(r.body.message).toContain(`\n${account.address}\n`);
    expect(r.body.message).toMatch(/URI: http:\/\/127\.0\.0\.1/);
    expect(r.body.message).toMatch(/Version: 1\nChain ID: 1\nNonce: [A-Za-z0-9]{8,}\nIssued At: /);
    expect(r.body.message).toMatch(/Expiration Time: /);
    expect(Date.parse(r.body.expiresAt) - Date.now()).toBeGreaterThan(4 * 60_000);
    expect((await api(undefined, 'POST', '/api/v1/auth/challenge', { address: '0x12' })).status).toBe(400);
  });

  it('names the address the client reached the relay at (loopback name, LAN address)', async () => {
    const { request } = await import('node:http');
    const { port } = new URL(relay.url);
    const body = JSON.stringify({ address: '0x' + '11'.repeat(20) });
    const viaLocalhost = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/v1/auth/challenge',
          method: 'POST',
          headers: { host: `localhost:${port}`, 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve(JSON.parse(text).message));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(viaLocalhost).toMatch(new RegExp(`^localhost:${port} wants you to sign in`));
    expect(viaLocalhost).toContain(`URI: http://localhost:${port}\n`);
    const { signInSites } = await import('../../auth/sign-in-site.js');
    const { relayHostnames } = await import('../../http/guards/host-header.js');
    const lan = signInSites(
      { url: 'https://192.168.1.20:8787', given: false },
      relayHostnames('https://192.168.1.20:8787', []),
    );
    const arriving = (host: string) => ({ protocol: 'http', host, arrivalPort: 8787 });
    expect(lan.forRequest(arriving('192.168.1.20:8787'))).toEqual({
      domain: '192.168.1.20:8787',
      uri: 'http://192.168.1.20:8787',
    });
    // an operator's base URL is named whatever the Host (behind a TLS proxy its scheme is the public one)
    const proxied = signInSites(
      { url: 'https://relay.example.org', given: true },
      relayHostnames('https://relay.example.org', []),
    );
    expect(proxied.forRequest(arriving('relay.example.org'))).toEqual({
      domain: 'relay.example.org',
      uri: 'https://relay.example.org',
    });
    expect(proxied.forRequest(arriving('127.0.0.1:8787'))).toEqual({
      domain: 'relay.example.org',
      uri: 'https://relay.example.org',
    });
  });

  it('a signed challenge gives a device-bound sk_live_ key, shown once', async () => {
    const u = await signIn(relay.url);
    expect(u.apiKey).toMatch(/^sk_live_[A-Za-z0-9_-]{49}$/);
    const keys = await api(u, 'GET', '/api/v1/me/keys');
    expect(keys.body.keys).toHaveLength(1);
    expect(keys.body.keys[0]).toMatchObject({ id: u.keyId, deviceKey: u.deviceKey, revokedAt: null });
    expect(JSON.stringify(keys.body)).not.toContain(u.apiKey);
    expect((await api(u, 'GET', '/api/v1/me')).body).toEqual({
      address: u.address,
      handle: null,
      verified: false,
      deviceKeys: 1,
      entitlements: [],
    });
  });

  async function challenge(account = privateKeyToAccount(generatePrivateKey())) {
    const r = await api(undefined, 'POST', '/api/v1/auth/challenge', { address: account.address });
    return { account, message: r.body.message as string };
  }

  it('refuses a signature by someone else (401) and uses the nonce up', async () => {
    const { account, message } = await challenge();
    const mallory = privateKeyToAccount(generatePrivateKey());
    const bad = await api(undefined, 'POST', '/api/v1/auth/keys', {
      message,
      signature: await mallory.signMessage({ message }),
    });
    expect(bad.status).toBe(401);
    const retry = await api(undefined, 'POST', '/api/v1/auth/keys', {
      message,
      signature: await account.signMessage({ message }),
    });
    expect(retry.status).toBe(401);
  });

  it('refuses a reused nonce, an edited message and an expired challenge (401)', async () => {
    const { account, message } = await challenge();
    const signature = await account.signMessage({ message });
    expect((await api(undefined, 'POST', '/api/v1/auth/keys', { message, signature })).status).toBe(200);
    expect((await api(undefined, 'POST', '/api/v1/auth/keys', { message, signature })).status).toBe(401);

    const c2 = await challenge();
    const edited = c2.message.replace('Sign in', 'Log in');
    expect(
      (
        await api(undefined, 'POST', '/api/v1/auth/keys', {
          message: edited,
          signature: await c2.account.signMessage({ message: edited }),
        })
      ).status,
    ).toBe(401);

    const c3 = await challenge();
    relay.clock.now = Date.now() + 6 * 60_000;
    try {
      expect(
        (
          await api(undefined, 'POST', '/api/v1/auth/keys', {
            message: c3.message,
            signature: await c3.account.signMessage({ message: c3.message }),
          })
        ).status,
      ).toBe(401);
    } finally {
      relay.clock.now = null;
    }
  });

  it('a device certificate that does not verify is 400 and uses the nonce up; a malformed body is 400', async () => {
    const { account, message } = await challenge();
    const signature = await account.signMessage({ message });
    const deviceKey = newDeviceKey();
    const wrongCert = await certify(privateKeyToAccount(generatePrivateKey()), deviceKey);
    const r = await api(undefined, 'POST', '/api/v1/auth/keys', {
      message,
      signature,
      device: { publicKey: deviceKey, certificate: wrongCert },
    });
    expect(r.status).toBe(400);
    expect((await api(undefined, 'POST', '/api/v1/auth/keys', { message, signature })).status).toBe(401);
    expect((await api(undefined, 'POST', '/api/v1/auth/keys', { message: 'hello', signature })).status).toBe(400);
    expect((await api(undefined, 'POST', '/api/v1/auth/keys', { message })).status).toBe(400);
  });

  it('a device key registered by another wallet is 409', async () => {
    const u = await signIn(relay.url);
    await expect(signIn(relay.url, undefined, u.deviceKey)).rejects.toThrow(/409/);
  });
});

describe('keys, devices, handle, policy, contacts', () => {
  it('minting keys needs the developer-api entitlement; revoked keys answer 401 at once', async () => {
    const u = await signIn(relay.url);
    expect((await api(u, 'POST', '/api/v1/me/keys', { label: 'ci' })).status).toBe(403);
    await relay.store.grantEntitlement(u.address, 'developer-api');
    expect((await api(u, 'GET', '/api/v1/me')).body.entitlements).toEqual(['developer-api']);
    const minted = await api(u, 'POST', '/api/v1/me/keys', { label: 'ci' });
    expect(minted.status).toBe(201);
    expect(minted.body.key).toMatchObject({ label: 'ci', deviceKey: null });
    const second: string = minted.body.apiKey;
    expect((await api(second, 'GET', '/api/v1/me')).status).toBe(200);
    expect((await api(u, 'DELETE', `/api/v1/me/keys/${minted.body.key.id}`)).body).toEqual({ ok: true });
    expect((await api(second, 'GET', '/api/v1/me')).status).toBe(401);
    expect((await api(u, 'DELETE', `/api/v1/me/keys/${minted.body.key.id}x`)).status).toBe(404);
    const other = await signIn(relay.url);
    expect((await api(other, 'DELETE', `/api/v1/me/keys/${u.keyId}`)).status).toBe(404);
  });

  it('a key not bound to a device pulls and acks only envelopes sealed to no device', async () => {
    const u = await signIn(relay.url);
    await relay.store.grantEntitlement(u.address, 'developer-api');
    const unbound: string = (await api(u, 'POST', '/api/v1/me/keys', {})).body.apiKey;
    const second = await signIn(relay.url, u.account);
    const a = await signIn(relay.url);
    const { envelopeTo } = await import('../harness.js');
    const sent = await api(a, 'POST', '/api/v1/envelopes', [
      envelopeTo(u),
      envelopeTo(second),
      envelopeTo({ address: u.address }),
    ]);
    const [toFirst, toSecond, toNone] = sent.body.results.map((r: { envelope: { id: string } }) => r.envelope.id);
    const pulled = (key: TestUser | string) =>
      api(key, 'GET', '/api/v1/envelopes').then((r) => r.body.envelopes.map((e: { id: string }) => e.id));
    expect(await pulled(unbound)).toEqual([toNone]);
    // what was sealed to a device cannot be acked away by a key that cannot open it
    const acked = await api(unbound, 'POST', '/api/v1/envelopes/ack', { ids: [toFirst, toSecond, toNone] });
    expect(acked.body).toEqual({ ok: true, acked: 1 });
    expect(await pulled(u)).toEqual([toFirst]);
    expect(await pulled(second)).toEqual([toSecond]);
  });

  it('devices: register with a certificate (400 bad, 409 again), revoke removes keys, envelopes and /keys entries', async () => {
    const u = await signIn(relay.url);
    const a = await signIn(relay.url);
    const second = newDeviceKey();
    expect(
      (await api(u, 'POST', '/api/v1/devices', { publicKey: second, certificate: await certify(a.account, second) }))
        .status,
    ).toBe(400);
    const ok = await api(u, 'POST', '/api/v1/devices', {
      publicKey: second,
      certificate: await certify(u.account, second),
    });
    expect(ok.status).toBe(201);
    expect(
      (await api(u, 'POST', '/api/v1/devices', { publicKey: second, certificate: await certify(u.account, second) }))
        .status,
    ).toBe(409);
    const keys = await api(a, 'GET', `/api/v1/keys/${u.address}`);
    expect(keys.body.deviceKeys).toEqual([u.deviceKey, second]);
    expect(keys.body.devices[1]).toMatchObject({ publicKey: second });
    expect((await api(u, 'GET', '/api/v1/me')).body.deviceKeys).toBe(2);
    // revoking the first device revokes the key bound to it
    expect((await api(u, 'DELETE', `/api/v1/devices/${u.deviceKey}`)).body).toEqual({ ok: true });
    expect((await api(u, 'GET', '/api/v1/me')).status).toBe(401);
    expect((await api(a, 'GET', `/api/v1/keys/${u.address}`)).body.deviceKeys).toEqual([second]);
    expect((await api(a, 'DELETE', `/api/v1/devices/${second}`)).status).toBe(404);
    expect((await api(a, 'DELETE', '/api/v1/devices/zz')).status).toBe(400);
  });

  it('GET /keys: 400 for a bad address, 404 without devices', async () => {
    const u = await signIn(relay.url);
    expect((await api(u, 'GET', '/api/v1/keys/0x123')).status).toBe(400);
    expect((await api(u, 'GET', `/api/v1/keys/0x${'ab'.repeat(20)}`)).status).toBe(404);
    expect((await api(u, 'GET', `/api/v1/keys/${u.address.toUpperCase().replace('0X', '0x')}`)).body.address).toBe(
      u.address,
    );
  });

  it('handles: claim, case-insensitive uniqueness (409), change frees the old one, resolve and directory', async () => {
    const u = await signIn(relay.url);
    const v = await signIn(relay.url);
    const claimed = await api(u, 'PUT', '/api/v1/me/handle', { handle: 'Alice_1' });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ handle: 'alice_1', address: u.address, verified: false });
    expect((await api(v, 'PUT', '/api/v1/me/handle', { handle: 'ALICE_1' })).status).toBe(409);
    for (const bad of ['ab', 'x'.repeat(33), 'bad-dash', 'spa ce'])
      expect((await api(v, 'PUT', '/api/v1/me/handle', { handle: bad })).status).toBe(400);
    const resolved = await api(v, 'GET', '/api/v1/handles/Alice_1');
    expect(resolved.body).toMatchObject({ handle: 'alice_1', address: u.address, verified: false });
    expect(typeof resolved.body.claimedAt).toBe('string');
    expect((await api(v, 'GET', '/api/v1/handles/nobody_here')).status).toBe(404);
    await api(u, 'PUT', '/api/v1/me/handle', { handle: 'alice_2' });
    expect((await api(v, 'GET', '/api/v1/handles/alice_1')).status).toBe(404);
    expect((await api(v, 'PUT', '/api/v1/me/handle', { handle: 'alice_1' })).status).toBe(200);
    expect((await api(u, 'GET', '/api/v1/me')).body.handle).toBe('alice_2');
  });

  it('directory: exact match first, fragments of handle or address, newest first, limit 1-50', async () => {
    const names = ['dirtest_bob', 'dirtest', 'dirtest_carol'];
    const users: TestUser[] = [];
    for (const n of names) {
      const u = await signIn(relay.url);
      await api(u, 'PUT', '/api/v1/me/handle', { handle: n });
      users.push(u);
    }
    const r = await api(users[0], 'GET', '/api/v1/directory?q=DirTest');
    expect(r.body.results.map((e: { handle: string }) => e.handle)).toEqual([
      'dirtest',
      'dirtest_carol',
      'dirtest_bob',
    ]);
    expect(r.body.results[0]).toEqual({ handle: 'dirtest', address: users[1].address, verified: false });
    const byAddress = await api(users[0], 'GET', `/api/v1/directory?q=${users[2].address.slice(4, 16).toUpperCase()}`);
    expect(byAddress.body.results.map((e: { address: string }) => e.address)).toContain(users[2].address);
    expect((await api(users[0], 'GET', '/api/v1/directory?q=dirtest_%25')).body.results).toEqual([]);
    const recent = await api(users[0], 'GET', '/api/v1/directory?limit=2');
    expect(recent.body.results.map((e: { handle: string }) => e.handle)).toEqual(['dirtest_carol', 'dirtest']);
    expect((await api(users[0], 'GET', '/api/v1/directory?q=')).body.results.length).toBeGreaterThanOrEqual(3);
    for (const q of ['limit=0', 'limit=51', 'limit=x', 'limit=2.5'])
      expect((await api(users[0], 'GET', `/api/v1/directory?${q}`)).status).toBe(400);
    await relay.store.setVerified(users[1].address, true);
    expect((await api(users[0], 'GET', '/api/v1/directory?q=dirtest')).body.results[0].verified).toBe(true);
  });

  it('policy: default request; stake must be a positive decimal with at most 18 places', async () => {
    const u = await signIn(relay.url);
    expect((await api(u, 'GET', '/api/v1/me/policy')).body).toEqual({ unknownSenders: 'request' });
    expect((await api(u, 'PUT', '/api/v1/me/policy', { unknownSenders: 'stake-gate', stake: '0.1000' })).body).toEqual({
      unknownSenders: 'stake-gate',
      stake: '0.1',
    });
    expect((await api(u, 'GET', '/api/v1/me/policy')).body).toEqual({ unknownSenders: 'stake-gate', stake: '0.1' });
    for (const body of [
      { unknownSenders: 'maybe' },
      { unknownSenders: 'stake-gate', stake: '-1' },
      { unknownSenders: 'stake-gate', stake: '0' },
      { unknownSenders: 'stake-gate', stake: '1e3' },
      { unknownSenders: 'stake-gate', stake: '0.' + '1'.repeat(19) },
      { unknownSenders: 'request', stake: '1' },
    ]) {
      expect((await api(u, 'PUT', '/api/v1/me/policy', body)).status).toBe(400);
    }
    expect((await api(u, 'PUT', '/api/v1/me/policy', { unknownSenders: 'block' })).body).toEqual({
      unknownSenders: 'block',
    });
  });

  it('contacts and blocks lists', async () => {
    const u = await signIn(relay.url);
    const x = '0x' + 'aa'.repeat(20);
    const y = '0x' + 'bb'.repeat(20);
    expect((await api(u, 'PUT', `/api/v1/contacts/${x.toUpperCase().replace('0X', '0x')}`)).body).toEqual({ ok: true });
    await api(u, 'PUT', `/api/v1/blocks/${y}`);
    expect((await api(u, 'GET', '/api/v1/contacts')).body).toEqual({ allowed: [x], blocked: [y] });
    await api(u, 'DELETE', `/api/v1/contacts/${x}`);
    await api(u, 'DELETE', `/api/v1/blocks/${y}`);
    expect((await api(u, 'GET', '/api/v1/contacts')).body).toEqual({ allowed: [], blocked: [] });
    expect((await api(u, 'PUT', '/api/v1/contacts/nope')).status).toBe(400);
  });
});
