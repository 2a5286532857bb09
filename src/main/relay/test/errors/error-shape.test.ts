/**
 * One error shape everywhere (docs/protocol.md, Errors): every route the relay registers, and
 * every kind of refusal the framework, its router or the reference page's static files can
 * raise, answers `{ error, code }` in the relay's words, with no `FST_` code and without
 * repeating the URL; unknown routes spend the address's budget for bad requests.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startRelay, type TestRelay, type TestUser } from '../harness.js';
import { rawRequest, type RawAnswer } from '../raw-http.js';

/** Put in every URL below; no answer may contain it. */
const MARK = 'zqMARKqz';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

function expectOurShape(res: RawAnswer, what: string): { error: string; code: string } {
  expect(res.status, `${what} → ${res.status} ${res.body}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what} → ${res.status} ${res.body}`).toBeLessThan(500);
  const body = JSON.parse(res.body) as { error: unknown; code: unknown };
  expect(Object.keys(body).sort(), `${what}: ${res.body}`).toEqual(['code', 'error']);
  expect(typeof body.error, what).toBe('string');
  expect(body.code, `${what}: ${res.body}`).toMatch(/^[a-z][a-z0-9-]*$/);
  expect(res.body, `${what} echoes the URL`).not.toContain(MARK);
  return body as { error: string; code: string };
}

describe('every registered route and every framework refusal answers { error, code }', () => {
  let relay: TestRelay;
  let alice: TestUser;
  beforeAll(async () => {
    relay = await startRelay();
    alice = await signIn(relay.url);
  });
  afterAll(async () => relay?.close());

  // Straight to a node: on a cluster the test proxy turns a node's early 413 (it stops reading) into a 502.
  const send = (
    method: string,
    path: string,
    opts: { body?: string; type?: string; auth?: boolean; headers?: Array<[string, string]> } = {},
  ) =>
    rawRequest(relay.nodeUrl, {
      method,
      path,
      headers: [
        ['Host', '127.0.0.1'],
        ...(opts.auth === false ? [] : [['Authorization', `Bearer ${alice.apiKey}`] as [string, string]]),
        ...(opts.type ? [['Content-Type', opts.type] as [string, string]] : []),
        ...(opts.headers ?? []),
      ],
      body: opts.body,
    });

  it('walks every route: wrong method, over-long and broken parameters, foreign content types, bad JSON, __proto__, oversized bodies', async () => {
    const table = relay.app.routeTable;
    expect(table.size).toBeGreaterThan(35);
    const codes = new Map<string, number>();
    const seen = (b: { code: string }) => codes.set(b.code, (codes.get(b.code) ?? 0) + 1);
    for (const [pattern, methodSet] of table) {
      const methods = [...methodSet];
      const fill = (param: string) => pattern.replace(/:[A-Za-z]+/g, param).replace(/\*$/, `x${MARK}`);
      const path = fill(`p${MARK}`);
      const wrong = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].find((m) => !methodSet.has(m));
      if (wrong) {
        const r = await send(wrong, path + `?q=${MARK}`);
        seen(expectOurShape(r, `${wrong} ${pattern}`));
        expect(r.status, `${wrong} ${pattern}`).toBe(405);
      }
      if (pattern.includes(':')) {
        const long = await send(methods[0], fill('a'.repeat(300) + MARK));
        seen(expectOurShape(long, `${methods[0]} ${pattern} with a long parameter`));
        expect(long.status).toBe(414);
        const broken = await send(methods[0], fill(`%E0%A4%A${MARK}`));
        seen(expectOurShape(broken, `${methods[0]} ${pattern} with broken percent-encoding`));
        expect(broken.status).toBe(400);
      }
      for (const method of methods.filter((m) => BODY_METHODS.has(m))) {
        for (const [what, body, type] of [
          ['text/plain', 'hello', 'text/plain'],
          ['bad JSON', '{"a":', 'application/json'],
          ['__proto__', '{"__proto__":{"polluted":1}}', 'application/json'],
          ['constructor.prototype', '{"constructor":{"prototype":{"polluted":1}}}', 'application/json'],
          ['2 MiB', JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }), 'application/json'],
          ['an unparseable Content-Type', '{}', '/'],
        ]) {
          const r = await send(method, `${path}?q=${MARK}`, { body, type });
          seen(expectOurShape(r, `${method} ${pattern} with ${what}`));
        }
      }
    }
    // each kind of refusal was reached, not only the front door
    for (const code of [
      'method-not-allowed',
      'url-too-long',
      'bad-url',
      'unsupported-media-type',
      'invalid-json',
      'forbidden-key',
      'too-large',
    ]) {
      expect(codes.get(code) ?? 0, `${code} in ${JSON.stringify([...codes])}`).toBeGreaterThan(0);
    }
  }, 120_000);

  it('the reference page: a missing static file and a path outside its folder are 404, a range past the end 416', async () => {
    for (const path of [
      `/reference/static/nothing-${MARK}.js`,
      `/reference/static/%00${MARK}`,
      `/reference/static/../../../../etc/${MARK}`,
      `/reference/static/%2e%2e/%2e%2e/${MARK}.json`,
      `/reference/${MARK}`,
    ]) {
      const r = await send('GET', path, { auth: false });
      expect(expectOurShape(r, path)).toEqual({
        error: 'this relay has no route for that method and path',
        code: 'no-route',
      });
      expect(r.status).toBe(404);
    }
    const range = await send('GET', `/reference/static/index.css?${MARK}`, {
      auth: false,
      headers: [['Range', 'bytes=99999999-']],
    });
    expect(expectOurShape(range, 'a range past the end').code).toBe('range-not-satisfiable');
    expect(range.status).toBe(416);
  });

  it('unknown routes, bad Host headers and a blob sent as text are refused in our words', async () => {
    const unknown = await send('GET', `/api/v1/${MARK}?x=<script>`, { auth: false });
    expect(expectOurShape(unknown, 'unknown route')).toMatchObject({ code: 'no-route' });
    expect(unknown.body).not.toContain('<script>');
    const blob = await send('POST', '/api/v1/blobs', { body: 'x'.repeat(100), type: 'text/plain' });
    expect(expectOurShape(blob, 'blob as text/plain').error).toContain('application/octet-stream');
    const host = await rawRequest(relay.url, {
      method: 'GET',
      path: `/api/v1/me?${MARK}`,
      headers: [['Host', `127.0.0.1:1@${MARK}`]],
    });
    expect(expectOurShape(host, 'Host with user info').code).toBe('bad-host');
  });
});

describe('unknown routes spend the address budget for bad requests', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startRelay({ rateLimit: 3 });
  });
  afterAll(async () => relay?.close());

  it('404s, 405s and URLs the router refuses count, and are 429 once the budget is spent', async () => {
    const statuses: number[] = [];
    for (const path of ['/api/v1/nothing', '/nothing', `/api/v1/handles/${'a'.repeat(300)}`]) {
      statuses.push((await rawRequest(relay.url, { method: 'GET', path, headers: [['Host', '127.0.0.1']] })).status);
    }
    expect(statuses).toEqual([404, 404, 414]);
    const spent = await rawRequest(relay.url, {
      method: 'DELETE',
      path: '/api/v1/envelopes',
      headers: [['Host', '127.0.0.1']],
    });
    expect(expectOurShape(spent, 'a fourth bad request').code).toBe('rate-limited');
    expect(spent.status).toBe(429);
    expect(Number(spent.headers['retry-after'])).toBeGreaterThan(0);
    const broken = await rawRequest(relay.url, {
      method: 'GET',
      path: '/api/v1/handles/%E0%A4%A',
      headers: [['Host', '127.0.0.1']],
    });
    expect(broken.status).toBe(429);
    // the reference page and the document stay free
    expect(
      (await rawRequest(relay.url, { method: 'GET', path: '/openapi.json', headers: [['Host', '127.0.0.1']] })).status,
    ).toBe(200);
  });
});

describe('a relay shutting down', () => {
  it('answers a request that arrives while it closes with 503 in our shape', async () => {
    const relay = await startRelay();
    const user = await signIn(relay.url);
    const { connect } = await import('node:net');
    const { randomBytes } = await import('node:crypto');
    const { port } = new URL(relay.nodeUrl);
    // An upload in flight keeps its connection open through close(); a request pipelined behind it arrives after close began.
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    const received: Buffer[] = [];
    socket.on('data', (c: Buffer) => received.push(c));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      `POST /api/v1/blobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${user.apiKey}\r\nContent-Type: application/octet-stream\r\nContent-Length: 8192\r\n\r\n`,
    );
    socket.write(randomBytes(4096));
    // the upload is in its route once its bytes stream into a temp file
    const uploads = join(relay.dir, 'blobs', '.tmp');
    await expect.poll(() => readdirSync(uploads).length, { timeout: 10_000, interval: 5 }).toBe(1);
    const closing = relay.app.close();
    // the server stops listening once the closing hooks have run: from then on requests are refused
    await expect.poll(() => relay.app.server.listening, { timeout: 10_000, interval: 5 }).toBe(false);
    socket.write(Buffer.concat([randomBytes(4096), Buffer.from('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')]));
    await ended;
    await closing;
    await relay.close().catch(() => undefined);
    const text = Buffer.concat(received).toString('utf8');
    const answers = text.split(/(?=HTTP\/1\.1 )/);
    expect(answers.length, text).toBe(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 503/);
    expect(JSON.parse(answers[1].slice(answers[1].indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'the relay is shutting down; try again shortly',
      code: 'shutting-down',
    });
  });
});
