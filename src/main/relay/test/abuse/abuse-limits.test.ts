/**
 * docs/protocol.md §4 Limits: the limits an attacker cannot walk around, each against a real
 * relay over HTTP.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { parseInvocation } from '../../cli-args.js';
import { DEFAULT_CONFIG, type RelayConfig } from '../../config.js';
import { MAX_DEVICES } from '../../store/store.js';
import {
  call,
  certify,
  envelopeTo,
  newDeviceKey,
  sealedLooking,
  signIn,
  signInKnown,
  startRelay,
  type TestRelay,
  type TestUser,
} from '../harness.js';

const relays: TestRelay[] = [];
async function relayWith(config: Partial<RelayConfig>): Promise<TestRelay> {
  const r = await startRelay(config);
  relays.push(r);
  return r;
}
afterEach(async () => {
  for (const r of relays.splice(0)) await r.close();
});

/** A raw request, so that the Authorization header reaches the relay exactly as written. */
function rawCall(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: unknown }> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method, headers: { host: '127.0.0.1', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('rate limit keyed on what the relay resolves', () => {
  it('a percent-encoded path counts against the limit like the plain one', async () => {
    const relay = await relayWith({ rateLimit: 3 });
    const u = await signIn(relay.url); // two sign-in requests of this peer's budget of three
    const challenge = () => call(relay.url, 'POST', '/%61pi/v1/auth/challenge', { body: { address: u.address } });
    expect((await challenge()).status).toBe(200);
    const over = await challenge();
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('rate-limited');
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);

    const me = (path: string) => call(relay.url, 'GET', path, { auth: u.apiKey });
    expect((await me('/%61pi/v1/me')).status).toBe(200);
    expect((await me('/api/v1/%6De')).status).toBe(200);
    expect((await me('/api/v1/me')).status).toBe(200);
    expect((await me('/%61pi/%761/me')).status).toBe(429);
    // the reference and the OpenAPI document stay free
    expect((await call(relay.url, 'GET', '/openapi.json')).status).toBe(200);
  });

  it('case and whitespace variants of one key share one budget; bad credentials are slowed per peer (401, then 429)', async () => {
    const relay = await relayWith({ rateLimit: 4 });
    const u = await signIn(relay.url);
    const other = await signIn(relay.url);
    const variants = [
      `Bearer ${u.apiKey}`,
      `bearer ${u.apiKey}`,
      `BEARER ${u.apiKey}`,
      `Bearer\t${u.apiKey}`,
      `Bearer   ${u.apiKey}  `,
    ];
    const statuses = [];
    for (const authorization of variants)
      statuses.push((await rawCall(relay.url, 'GET', '/api/v1/me', { authorization })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    // another key has a budget of its own
    expect((await call(relay.url, 'GET', '/api/v1/me', { auth: other.apiKey })).status).toBe(200);

    const guesses = [];
    for (const guess of ['sk_live_bogus', 'sk_live_' + 'A'.repeat(49), 'gtk_live_nope', 'Basic Zm9vOmJhcg==']) {
      const authorization = guess.startsWith('Basic') ? guess : `Bearer ${guess}`;
      guesses.push((await rawCall(relay.url, 'GET', '/api/v1/me', { authorization })).status);
    }
    expect(guesses).toEqual([401, 401, 401, 401]);
    // no credential at all shares that peer's budget, and a revoked key counts as invalid
    const none = await call(relay.url, 'GET', '/api/v1/envelopes');
    expect(none.status).toBe(429);
    expect(none.body.code).toBe('rate-limited');
    expect((await call(relay.url, 'GET', '/api/v1/me', { auth: 'sk_live_bogus' })).status).toBe(429);
  });
});

describe('queue quotas', () => {
  it('a recipient device holds at most --max-queued envelopes; a send past it is 429 recipient-full and queues nothing', async () => {
    const relay = await relayWith({ maxQueued: 3 });
    const a = await signIn(relay.url);
    const b = await signIn(relay.url);
    await call(relay.url, 'PUT', `/api/v1/contacts/${a.address}`, { auth: b.apiKey });
    expect(
      (await call(relay.url, 'POST', '/api/v1/envelopes', { auth: a.apiKey, body: [envelopeTo(b), envelopeTo(b)] }))
        .status,
    ).toBe(200);
    // two more would pass the quota: the whole batch is refused, the first of it included
    const over = await call(relay.url, 'POST', '/api/v1/envelopes', {
      auth: a.apiKey,
      body: [envelopeTo(b), envelopeTo(b)],
    });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('recipient-full');
    expect(over.body.error).toMatch(/envelopes\[1\]/);
    const queued = (await call(relay.url, 'GET', '/api/v1/envelopes', { auth: b.apiKey })).body.envelopes;
    expect(queued).toHaveLength(2);
    // any number of senders and keys share the recipient's quota
    const c = await signIn(relay.url);
    expect(
      (await call(relay.url, 'POST', '/api/v1/envelopes', { auth: c.apiKey, body: envelopeTo(b, { asRequest: true }) }))
        .status,
    ).toBe(200);
    expect(
      (await call(relay.url, 'POST', '/api/v1/envelopes', { auth: c.apiKey, body: envelopeTo(b, { asRequest: true }) }))
        .body.code,
    ).toBe('recipient-full');
    // another device of the same wallet, and envelopes sealed to no device, have quotas of their own
    expect(
      (await call(relay.url, 'POST', '/api/v1/envelopes', { auth: a.apiKey, body: envelopeTo({ address: b.address }) }))
        .status,
    ).toBe(200);
    // an ack frees room at once
    await call(relay.url, 'POST', '/api/v1/envelopes/ack', { auth: b.apiKey, body: { ids: [queued[0].id] } });
    expect((await call(relay.url, 'POST', '/api/v1/envelopes', { auth: a.apiKey, body: envelopeTo(b) })).status).toBe(
      200,
    );
  });

  it('--max-queued-mib bounds the undelivered ciphertext of a device, group sends included', async () => {
    const relay = await relayWith({ maxQueuedMib: 1 });
    const a = await signIn(relay.url);
    const b = await signIn(relay.url);
    await call(relay.url, 'PUT', `/api/v1/contacts/${a.address}`, { auth: b.apiKey });
    const big = () => ({ ...envelopeTo(b), ...sealedLooking(64 * 1024) });
    for (let i = 0; i < 2; i++) {
      const r = await call(relay.url, 'POST', '/api/v1/envelopes', {
        auth: a.apiKey,
        body: Array.from({ length: 8 }, big),
      });
      expect(r.status).toBe(200);
    }
    // 16 × 64 KiB is the whole MiB: the next one, direct or through a group, is refused
    expect((await call(relay.url, 'POST', '/api/v1/envelopes', { auth: a.apiKey, body: big() })).body.code).toBe(
      'recipient-full',
    );
    const g = (
      await call(relay.url, 'POST', '/api/v1/groups', { auth: a.apiKey, body: { name: 'g', isPublic: false } })
    ).body;
    expect(
      (
        await call(relay.url, 'POST', `/api/v1/groups/${g.id}/members`, {
          auth: a.apiKey,
          body: { address: b.address },
        })
      ).body.status,
    ).toBe('member');
    const viaGroup = await call(relay.url, 'POST', `/api/v1/groups/${g.id}/envelopes`, {
      auth: a.apiKey,
      body: [envelopeTo(a), big()],
    });
    expect(viaGroup.status).toBe(429);
    expect(viaGroup.body.code).toBe('recipient-full');
    expect((await call(relay.url, 'GET', '/api/v1/envelopes', { auth: a.apiKey })).body.envelopes).toHaveLength(0);
  });

  it('at most --max-requests-per-pair undelivered contact requests from one sender to one wallet (429 too-many-requests-pending)', async () => {
    const relay = await relayWith({ maxRequestsPerPair: 2 });
    const spammer = await signIn(relay.url);
    const me = await signIn(relay.url);
    const send = () => call(relay.url, 'POST', '/api/v1/envelopes', { auth: spammer.apiKey, body: envelopeTo(me) });
    expect((await send()).body.routed).toBe('request');
    expect((await send()).body.routed).toBe('request');
    const third = await send();
    expect(third.status).toBe(429);
    expect(third.body.code).toBe('too-many-requests-pending');
    // other senders are not held back by this one
    const friend = await signIn(relay.url);
    expect(
      (await call(relay.url, 'POST', '/api/v1/envelopes', { auth: friend.apiKey, body: envelopeTo(me) })).status,
    ).toBe(200);
    // once I pick them up, the sender may write again
    const pending = (await call(relay.url, 'GET', '/api/v1/envelopes', { auth: me.apiKey })).body.envelopes;
    await call(relay.url, 'POST', '/api/v1/envelopes/ack', {
      auth: me.apiKey,
      body: { ids: pending.map((e: { id: string }) => e.id) },
    });
    expect((await send()).status).toBe(200);
  });

  it('the disk guard answers sends 507 storage-full; pulls, acks and sign-in keep working', async () => {
    // more free space than any disk has: the guard measures the real data folder
    const relay = await relayWith({ minFreeDiskMib: 1024 * 1024 * 1024 });
    const a = await signInKnown(relay);
    const b = await signInKnown(relay);
    const send = await call(relay.url, 'POST', '/api/v1/envelopes', { auth: a.apiKey, body: envelopeTo(b) });
    expect(send.status).toBe(507);
    expect(send.body).toMatchObject({ code: 'storage-full', error: expect.stringMatching(/disk/) });
    // made behind the guard's back: creating a group is a write the guard refuses too (abuse-limits-2.test.ts)
    const g = await relay.store.createGroup({
      id: crypto.randomUUID(),
      name: 'g',
      isPublic: true,
      passwordHash: null,
      avatar: null,
      creatorAddress: a.address,
      now: Date.now(),
    });
    expect(
      (await call(relay.url, 'POST', `/api/v1/groups/${g.id}/envelopes`, { auth: a.apiKey, body: envelopeTo(a) }))
        .status,
    ).toBe(507);
    expect((await call(relay.url, 'GET', '/api/v1/envelopes', { auth: b.apiKey })).status).toBe(200);
    expect(
      (await call(relay.url, 'POST', '/api/v1/envelopes/ack', { auth: b.apiKey, body: { ids: ['x'] } })).status,
    ).toBe(200);
  });

  it('a wallet has at most 16 current devices (409 too-many-devices); revoking one makes room', async () => {
    const relay = await relayWith({});
    const u: TestUser = await signIn(relay.url);
    const keys: string[] = [];
    for (let i = 1; i < MAX_DEVICES; i++) {
      const publicKey = newDeviceKey();
      const r = await call(relay.url, 'POST', '/api/v1/devices', {
        auth: u.apiKey,
        body: { publicKey, certificate: await certify(u.account, publicKey) },
      });
      expect(r.status).toBe(201);
      keys.push(publicKey);
    }
    const extra = newDeviceKey();
    const refused = await call(relay.url, 'POST', '/api/v1/devices', {
      auth: u.apiKey,
      body: { publicKey: extra, certificate: await certify(u.account, extra) },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('too-many-devices');
    // signing in with a new device is refused the same way
    await expect(signIn(relay.url, u.account)).rejects.toThrow(/409.*too-many-devices/);
    expect((await call(relay.url, 'DELETE', `/api/v1/devices/${keys[0]}`, { auth: u.apiKey })).status).toBe(200);
    expect(
      (
        await call(relay.url, 'POST', '/api/v1/devices', {
          auth: u.apiKey,
          body: { publicKey: extra, certificate: await certify(u.account, extra) },
        })
      ).status,
    ).toBe(201);
  });
});

describe('operator flags', () => {
  it('take the defaults of docs/protocol.md §4 and refuse nonsense', () => {
    const plain = parseInvocation([]);
    expect(plain.mode === 'serve' && plain.options).toMatchObject({
      maxQueued: 10_000,
      maxQueuedMib: 64,
      maxRequestsPerPair: 20,
      minFreeDiskMib: 512,
    });
    expect(DEFAULT_CONFIG).toMatchObject({
      maxQueued: 10_000,
      maxQueuedMib: 64,
      maxRequestsPerPair: 20,
      minFreeDiskMib: 512,
    });
    const set = parseInvocation([
      '--max-queued',
      '5',
      '--max-queued-mib',
      '2',
      '--max-requests-per-pair',
      '3',
      '--min-free-disk-mib',
      '0',
    ]);
    expect(set.mode === 'serve' && set.options).toMatchObject({
      maxQueued: 5,
      maxQueuedMib: 2,
      maxRequestsPerPair: 3,
      minFreeDiskMib: 0,
    });
    expect(() => parseInvocation(['--max-queued', '0'])).toThrow(/--max-queued: must be between/);
    expect(() => parseInvocation(['--max-queued-mib', 'lots'])).toThrow(/expected an integer/);
  });
});
