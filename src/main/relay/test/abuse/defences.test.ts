import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, envelopeTo, signIn, startRelay, type TestRelay } from '../harness.js';

describe('defences', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startRelay();
  });
  afterAll(async () => relay.close());

  /** A raw request, so Host can be anything (fetch does not let a page set it). */
  function rawGet(
    path: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
    const { port } = new URL(relay.url);
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('refuses foreign Host names (DNS rebinding) and foreign Origins; sends no CORS headers', async () => {
    const rebound = await rawGet('/openapi.json', { host: 'evil.example:8787' });
    expect(rebound.status).toBe(421);
    expect(JSON.parse(rebound.body).error).toMatch(/host/);
    expect((await rawGet('/openapi.json', { host: 'localhost:1234' })).status).toBe(200);
    const cross = await rawGet('/openapi.json', { host: '127.0.0.1', origin: 'https://evil.example' });
    expect(cross.status).toBe(403);
    expect((await rawGet('/openapi.json', { host: '127.0.0.1', origin: 'null' })).status).toBe(403);
    // an Origin is ours only on this relay's own port (echo-and-headers.test.ts has the cases)
    const { port } = new URL(relay.url);
    expect((await rawGet('/openapi.json', { host: '127.0.0.1', origin: 'http://127.0.0.1:3000' })).status).toBe(403);
    const same = await rawGet('/openapi.json', { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` });
    expect(same.status).toBe(200);
    expect(same.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('invalid JSON, wrong content type, too deep JSON and proto poisoning are 400/415, never 500', async () => {
    const u = await signIn(relay.url);
    const bad = await call(relay.url, 'POST', '/api/v1/envelopes', { auth: u.apiKey, raw: '{"toAddress": ' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/JSON/);
    const deep = await call(relay.url, 'POST', '/api/v1/envelopes', {
      auth: u.apiKey,
      raw: '['.repeat(5000) + ']'.repeat(5000),
    });
    expect(deep.status).toBe(400);
    expect(deep.body.error).toMatch(/deeper/);
    // 16 levels are allowed, 17 are not; brackets inside strings do not nest
    const nested = (levels: number) => '{"ids":' + '['.repeat(levels - 1) + ']'.repeat(levels - 1) + '}';
    const at16 = await call(relay.url, 'POST', '/api/v1/envelopes/ack', { auth: u.apiKey, raw: nested(16) });
    expect(at16.body.code).not.toBe('too-deep');
    expect(
      (await call(relay.url, 'POST', '/api/v1/envelopes/ack', { auth: u.apiKey, raw: nested(17) })).body.code,
    ).toBe('too-deep');
    const bracketsInStrings = await call(relay.url, 'POST', '/api/v1/envelopes/ack', {
      auth: u.apiKey,
      raw: JSON.stringify({ ids: ['[{'.repeat(40), '\\"[['] }),
    });
    expect(bracketsInStrings.status).toBe(200);
    expect(bracketsInStrings.body.acked).toBe(0);
    const proto = await call(relay.url, 'POST', '/api/v1/envelopes/ack', {
      auth: u.apiKey,
      raw: '{"ids":["x"],"__proto__":{"polluted":1}}',
    });
    expect(proto.status).toBe(400);
    const text = await call(relay.url, 'POST', '/api/v1/envelopes', {
      auth: u.apiKey,
      raw: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    const empty = await call(relay.url, 'POST', '/api/v1/envelopes', { auth: u.apiKey, raw: '' });
    expect(empty.status).toBe(400);
  });

  it('unknown routes are 404 and known routes with the wrong method 405, both as { error }', async () => {
    const nf = await call(relay.url, 'GET', '/api/v1/nothing-here');
    expect(nf.status).toBe(404);
    expect(typeof nf.body.error).toBe('string');
    const wm = await call(relay.url, 'DELETE', '/api/v1/envelopes');
    expect(wm.status).toBe(405);
    expect(wm.headers.get('allow')).toMatch(/GET/);
    expect(wm.headers.get('allow')).toMatch(/POST/);
    expect((await call(relay.url, 'GET', '/api/v1/envelopes/ack')).status).toBe(405);
    expect((await call(relay.url, 'PUT', '/api/v1/groups/abc/join')).status).toBe(405);
  });

  it('junk in every place of every route never yields a 500', async () => {
    const u = await signIn(relay.url);
    const doc = (await call(relay.url, 'GET', '/openapi.json')).body;
    const junk = [
      null,
      1,
      'x',
      [],
      {},
      [{}],
      { envelopes: 'x' },
      { ids: [1, 2] },
      { address: 5 },
      { name: '' },
      { handle: null },
      '\u0000',
    ];
    let calls = 0;
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(methods)) {
        const concrete = path.replace(/\{[^}]+\}/g, (m) =>
          m === '{id}' ? '00000000-0000-4000-8000-000000000000' : m === '{address}' ? '0xzz' : '%00%ff',
        );
        for (const body of junk) {
          const r = await call(relay.url, method.toUpperCase(), concrete + '?limit=-1&mine=x&q=%ff', {
            auth: u.apiKey,
            raw: method === 'get' || method === 'delete' ? undefined : JSON.stringify(body),
          });
          calls++;
          expect(r.status, `${method} ${concrete} ${JSON.stringify(body)}`).toBeLessThan(500);
          expect(typeof r.body.error === 'string' || r.status < 300, `${method} ${concrete}`).toBe(true);
        }
      }
    }
    expect(calls).toBeGreaterThan(300);
  });
});

describe('rate limit', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startRelay({ rateLimit: 4 });
  });
  afterAll(async () => relay.close());

  it('counts per credential over a rolling minute, with Retry-After and RateLimit headers', async () => {
    const u = await signIn(relay.url);
    const other = await signIn(relay.url);
    const first = await call(relay.url, 'GET', '/api/v1/me', { auth: u.apiKey });
    expect(first.headers.get('ratelimit-policy')).toBe('4;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^limit=4, remaining=3, reset=\d+$/);
    const statuses = [first.status];
    let last = first;
    for (let i = 1; i < 5; i++) {
      last = await call(relay.url, 'GET', '/api/v1/me', { auth: u.apiKey });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect(last.body.error).toMatch(/rate limit/);
    const retry = Number(last.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    // another credential has its own budget; the reference and the document are free
    expect((await call(relay.url, 'GET', '/api/v1/me', { auth: other.apiKey })).status).toBe(200);
    for (let i = 0; i < 6; i++) expect((await call(relay.url, 'GET', '/openapi.json')).status).toBe(200);
  });

  it('401s count against the presented credential', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await call(relay.url, 'GET', '/api/v1/me', { auth: 'sk_live_guess' })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
  });

  it('the two sign-in routes share one budget per peer address', async () => {
    // signIn() above already used 2 × 2 sign-in calls from this peer in this relay's minute
    const r1 = await call(relay.url, 'POST', '/api/v1/auth/challenge', { body: { address: '0x' + '11'.repeat(20) } });
    expect(r1.status).toBe(429);
    expect(Number(r1.headers.get('retry-after'))).toBeGreaterThan(0);
    const r2 = await call(relay.url, 'POST', '/api/v1/auth/keys', {
      body: { message: 'x', signature: '0x' + '00'.repeat(65) },
    });
    expect(r2.status).toBe(429);
  });

  it('a send still works within the budget (the limit does not break routes)', async () => {
    const fresh = await startRelay({ rateLimit: 10 });
    try {
      const a = await signIn(fresh.url);
      const b = await signIn(fresh.url);
      expect((await call(fresh.url, 'POST', '/api/v1/envelopes', { auth: a.apiKey, body: envelopeTo(b) })).status).toBe(
        200,
      );
    } finally {
      await fresh.close();
    }
  });
});
