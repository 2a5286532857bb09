/**
 * The relay API client's transport rules on real sockets: the certificate pin is enforced
 * before a byte of the request (or its bearer token) is sent; a 429 is sat out for its
 * Retry-After; a broken answer is an error, not undefined; the pacer keeps a credential
 * inside 120 requests per rolling minute and leaves a reserve for user actions.
 */
import { createHash, X509Certificate } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from 'selfsigned';
import { NetworkError, normalizeFingerprint } from '../http-transport.js';
import { RelayApi, RelayError } from '../relay-api.js';
import { RequestPacer } from '../request-pacer.js';

const servers: Array<http.Server> = [];
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
});

const ME = { address: '0x' + 'ab'.repeat(20), handle: null, verified: false, deviceKeys: 1, entitlements: [] };

function listen(server: http.Server): Promise<number> {
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function fakeClock() {
  const clock = { t: 1_000_000, slept: [] as number[] };
  return {
    clock,
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.slept.push(ms);
      clock.t += ms;
    },
  };
}

describe('pinned TLS for a self-signed LAN relay', async () => {
  const pems = await generate([{ name: 'commonName', value: 'relay test' }], {
    keyType: 'ec',
    curve: 'P-256',
    days: 2,
  } as never);
  const fingerprint = new X509Certificate(pems.cert).fingerprint256; // AA:BB:... as the relay prints it
  const seen: Array<string | undefined> = [];
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    seen.push(req.headers.authorization);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(ME));
  });
  const port = await listen(server);
  const url = `https://127.0.0.1:${port}`;

  it('connects when the certificate matches the pin, in any spelling of the fingerprint', async () => {
    for (const fp of [fingerprint, fingerprint.replace(/:/g, '').toLowerCase()]) {
      const api = new RelayApi({ baseUrl: url, fingerprint: fp, credential: 'sk_live_right' });
      await expect(api.me()).resolves.toEqual(ME);
      api.close();
    }
    expect(seen.at(-1)).toBe('Bearer sk_live_right');
  });

  it('refuses a certificate that does not match, before sending anything', async () => {
    const before = seen.length;
    const wrong = createHash('sha256').update('another certificate').digest('hex');
    const api = new RelayApi({ baseUrl: url, fingerprint: wrong, credential: 'sk_live_secret' });
    const err = await api.me().catch((e: unknown) => e);
    api.close();
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).code).toBe('pin-mismatch');
    expect(seen.length).toBe(before); // the server never saw the request, nor the key
  });

  it('without a pin, a self-signed certificate fails ordinary verification', async () => {
    const api = new RelayApi({ baseUrl: url, credential: 'sk_live_x' });
    await expect(api.me()).rejects.toBeInstanceOf(NetworkError);
    api.close();
  });

  it('a fingerprint needs https and 32 bytes', () => {
    expect(() => new RelayApi({ baseUrl: `http://127.0.0.1:${port}`, fingerprint })).toThrow(/https/);
    expect(() => normalizeFingerprint('AB:CD')).toThrow(/32 bytes/);
  });
});

describe('rate limits', () => {
  it('sits out a 429 for its Retry-After, then succeeds', async () => {
    let calls = 0;
    const port = await listen(
      http.createServer((_req, res) => {
        calls++;
        if (calls === 1) {
          res.writeHead(429, { 'retry-after': '7', 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: 'rate limit exceeded' }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(ME));
      }),
    );
    const fake = fakeClock();
    const api = new RelayApi({
      baseUrl: `http://127.0.0.1:${port}`,
      credential: 'sk_live_x',
      pacer: new RequestPacer({ now: fake.now, sleep: fake.sleep }),
    });
    await expect(api.me()).resolves.toEqual(ME);
    expect(calls).toBe(2);
    expect(fake.clock.slept).toEqual([7000]);
    api.close();
  });

  it('gives up after repeated 429s with a RelayError', async () => {
    const port = await listen(
      http.createServer((_req, res) => {
        res.writeHead(429, { 'retry-after': '1' });
        res.end('{"error":"slow down"}');
      }),
    );
    const fake = fakeClock();
    const api = new RelayApi({
      baseUrl: `http://127.0.0.1:${port}`,
      credential: 'sk_live_x',
      max429Retries: 2,
      pacer: new RequestPacer({ now: fake.now, sleep: fake.sleep }),
    });
    await expect(api.me()).rejects.toMatchObject({ status: 429 });
    expect(fake.clock.slept).toEqual([1000, 1000]);
    api.close();
  });

  it('a group held after wrong passwords (429 too-many-attempts) is reported at once, never guessed again in line', async () => {
    let calls = 0;
    const port = await listen(
      http.createServer((_req, res) => {
        calls++;
        res.writeHead(429, { 'retry-after': '30', 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'too many wrong passwords for this group', code: 'too-many-attempts' }));
      }),
    );
    const fake = fakeClock();
    const api = new RelayApi({
      baseUrl: `http://127.0.0.1:${port}`,
      credential: 'sk_live_x',
      pacer: new RequestPacer({ now: fake.now, sleep: fake.sleep }),
    });
    await expect(api.joinGroup('00000000-0000-4000-8000-000000000000', 'guess')).rejects.toMatchObject({
      status: 429,
      code: 'too-many-attempts',
    });
    expect(calls).toBe(1);
    expect(fake.clock.slept).toEqual([]);
    api.close();
  });

  it('the pacer admits 120 requests per rolling minute and keeps a reserve from background work', async () => {
    const fake = fakeClock();
    const pacer = new RequestPacer({ now: fake.now, sleep: fake.sleep });
    for (let i = 0; i < 96; i++) await pacer.acquire('background');
    expect(fake.clock.slept).toEqual([]);
    expect(pacer.available('background')).toBe(0);
    expect(pacer.available('user')).toBe(24);
    for (let i = 0; i < 24; i++) await pacer.acquire('user');
    expect(fake.clock.slept).toEqual([]);
    await pacer.acquire('user'); // the 121st waits until the first leaves the window
    expect(fake.clock.slept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(60_000);
  });
});

describe('answers that break the contract', () => {
  it('are errors, not undefined', async () => {
    const port = await listen(
      http.createServer((req, res) => {
        res.writeHead(req.url?.includes('/me') ? 200 : 500, { 'content-type': 'application/json' });
        res.end(req.url?.includes('/me') ? '{"address":"not an address"}' : '{"error":"boom"}');
      }),
    );
    const api = new RelayApi({
      baseUrl: `http://127.0.0.1:${port}/api/v1/`,
      credential: 'sk_live_x',
      max429Retries: 0,
    });
    await expect(api.me()).rejects.toMatchObject({ status: 502, code: 'bad-answer' });
    await expect(api.pull()).rejects.toBeInstanceOf(RelayError);
    api.close();
  });

  it('a relay that is not there is a NetworkError', async () => {
    const gone = http.createServer();
    const port = await new Promise<number>((resolve) =>
      gone.listen(0, '127.0.0.1', () => resolve((gone.address() as AddressInfo).port)),
    );
    await new Promise((r) => gone.close(r));
    const api = new RelayApi({ baseUrl: `http://127.0.0.1:${port}`, credential: 'sk_live_x' });
    await expect(api.me()).rejects.toBeInstanceOf(NetworkError);
    api.close();
  });
});
