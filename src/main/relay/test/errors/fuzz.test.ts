/**
 * Property-based fuzzing of every /api/v1 route: random methods, paths (with
 * percent-encoding, good and broken), query strings, headers and bodies, against a real relay
 * over HTTP. Whatever arrives, the relay answers below 500, keeps serving, and every error is
 * `{ error, code }`.
 *
 * The seed is fixed so that a failure reproduces; `FUZZ_RUNS` and `FUZZ_SEED` make the longer
 * run (`npm run fuzz`, 50,000 requests) a bench/CI option.
 */
import fc from 'fast-check';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLUSTER_MODE,
  call,
  envelopeTo,
  sealedLooking,
  signIn,
  startRelay,
  type TestRelay,
  type TestUser,
} from '../harness.js';
import { rawRequest } from '../raw-http.js';
import { anyByte, name, port } from './host-arbitraries.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2500);
/** Host headers need fewer runs: one hook reads them, whatever the route. */
const HOST_RUNS = Math.max(200, Math.round(RUNS / 5));
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

let relay: TestRelay;
let alice: TestUser;
let bob: TestUser;
let groupId: string;
let botToken: string;
let routes: Array<{ method: string; template: string }>;

beforeAll(async () => {
  relay = await startRelay();
  alice = await signIn(relay.url);
  bob = await signIn(relay.url);
  await call(relay.url, 'PUT', `/api/v1/contacts/${alice.address}`, { auth: bob.apiKey });
  groupId = (
    await call(relay.url, 'POST', '/api/v1/groups', { auth: alice.apiKey, body: { name: 'fuzz', isPublic: true } })
  ).body.id;
  await call(relay.url, 'POST', `/api/v1/groups/${groupId}/members`, {
    auth: alice.apiKey,
    body: { address: bob.address },
  });
  botToken = (
    await call(relay.url, 'POST', `/api/v1/groups/${groupId}/tokens`, { auth: alice.apiKey, body: { name: 'bot' } })
  ).body.token;
  const doc = (await call(relay.url, 'GET', '/openapi.json')).body as {
    paths: Record<string, Record<string, unknown>>;
  };
  routes = Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.keys(methods).map((method) => ({ method: method.toUpperCase(), template })),
  );
}, 60_000);
afterAll(async () => relay?.close());

/** Characters Node's client lets into a request path, encoded or not. */
const pathChunk = fc.oneof(
  fc.constantFrom(
    '',
    'x',
    '..',
    '.',
    '%',
    '%2',
    '%zz',
    '%00',
    '%2F',
    '%2e%2e',
    '%E0%A4%A',
    '%C0%AF',
    '%ff%fe',
    '%61pi',
    '~',
    ';',
    ',',
    '@',
    '!',
    '*',
    "'",
    '(',
    ')',
    '$',
    '+',
    '=',
    ':',
  ),
  fc.stringMatching(/^[A-Za-z0-9._~-]{0,80}$/),
  fc.string({ unit: 'binary', maxLength: 24 }).map((s) => encodeURIComponent(s)),
  fc.constantFrom(
    '0x' + '1'.repeat(40),
    '0xZZ',
    '0x' + 'a'.repeat(41),
    '00000000-0000-4000-8000-000000000000',
    'not-a-uuid',
    'a'.repeat(64),
    'A'.repeat(300),
  ),
);

function fillTemplate(template: string) {
  return fc
    .tuple(
      ...[...template.matchAll(/\{([^}]+)\}/g)].map(() =>
        fc.oneof(pathChunk, fc.constant(groupId), fc.constant(alice.address), fc.constant(bob.deviceKey)),
      ),
      fc.constant(null),
    )
    .map((values) => {
      let i = 0;
      return template.replace(/\{[^}]+\}/g, () => String(values[i++]));
    });
}

/** A known route with its parameters filled, a known route with a segment mangled, or a path of random segments under /api/v1. */
const path = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.integer({ min: 0, max: 1000 }).chain((i) => fillTemplate(routes[i % routes.length].template)),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 8 }), pathChunk)
      .map(([i, at, chunk]) => {
        const segments = routes[i % routes.length].template.replace(/\{[^}]+\}/g, 'x').split('/');
        segments[Math.min(at, segments.length - 1)] = chunk;
        return segments.join('/') || '/';
      }),
  },
  { weight: 2, arbitrary: fc.array(pathChunk, { maxLength: 6 }).map((s) => `/api/v1/${s.join('/')}`) },
  { weight: 1, arbitrary: fc.array(pathChunk, { maxLength: 4 }).map((s) => `/${s.join('/')}`) },
);

const query = fc.oneof(
  fc.constant(''),
  fc
    .array(
      fc.tuple(
        fc.constantFrom('limit', 'mine', 'before', 'q', 'wait', 'x', '__proto__', 'limit[]'),
        fc.oneof(pathChunk, fc.integer().map(String), fc.constantFrom('1', '0', '-1', '501', '1e3', 'NaN', '')),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&')),
);

const credential = () =>
  fc.oneof(
    fc.constant(undefined),
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        `Bearer ${alice.apiKey}`,
        `bearer ${bob.apiKey}`,
        `BEARER\t${alice.apiKey}`,
        `Bearer ${botToken}`,
        `Bearer  ${alice.apiKey}  `,
      ),
    },
    fc.constantFrom(
      'Bearer',
      'Bearer ',
      'Basic YTpi',
      'Bearer sk_live_',
      'Bearer gtk_live_x',
      `Bearer ${alice.apiKey}x`,
      `Bearer ${alice.apiKey.slice(0, -1)}A`,
    ),
    fc.stringMatching(/^[\x21-\x7e ]{0,120}$/),
  );

const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/JSON',
  '*/*',
  'application/json; charset=latin1',
);

const jsonValue = fc.jsonValue({ maxDepth: 4 });
const envelopeLike = () =>
  fc.record(
    {
      toAddress: fc.oneof(fc.constant(bob.address), fc.constant(alice.address), pathChunk, fc.constant(null)),
      recipientDeviceKey: fc.oneof(fc.constant(bob.deviceKey), fc.constant(null), pathChunk),
      ciphertext: fc.oneof(
        fc.constant(sealedLooking().ciphertext),
        fc.base64String({ maxLength: 200 }),
        fc.string(),
        fc.constant('aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ='),
      ),
      ephemeralPublicKey: fc.oneof(
        fc.constant(sealedLooking().ephemeralPublicKey),
        fc.constant('00'.repeat(32)),
        fc.string({ maxLength: 70 }),
      ),
      nonce: fc.oneof(fc.constant(sealedLooking().nonce), fc.base64String({ maxLength: 24 }), fc.integer()),
      asRequest: fc.oneof(fc.boolean(), fc.string(), fc.constant(null)),
    },
    { requiredKeys: [] },
  );

const body = () =>
  fc.oneof(
    fc.constant(undefined),
    jsonValue.map((v) => JSON.stringify(v)),
    envelopeLike().map((e) => JSON.stringify(e)),
    fc.array(envelopeLike(), { maxLength: 3 }).map((e) => JSON.stringify({ envelopes: e })),
    fc.constant(JSON.stringify([envelopeTo(bob), envelopeTo(alice)])),
    fc
      .record({ ids: fc.array(fc.oneof(fc.uuid(), fc.string(), fc.integer()), { maxLength: 5 }) })
      .map((v) => JSON.stringify(v)),
    fc
      .record(
        {
          address: fc.oneof(fc.constant(bob.address), pathChunk),
          name: fc.string(),
          isPublic: fc.oneof(fc.boolean(), fc.string()),
          accept: fc.oneof(fc.boolean(), fc.string()),
          handle: fc.string(),
          unknownSenders: fc.constantFrom('request', 'block', 'stake-gate', 'x'),
          stake: fc.string(),
        },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 200 }),
    fc.constantFrom(
      '{',
      '[',
      '"',
      'null',
      '{"__proto__":{"x":1}}',
      '{"constructor":{"prototype":{"x":1}}}',
      '['.repeat(40) + ']'.repeat(40),
      '\u0000',
      '{"a":' + '1'.repeat(400) + '}',
    ),
  );

const requestArb = () =>
  fc.record({
    method: fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max: 1000 }).map((i) => routes[i % routes.length].method) },
      { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') },
    ),
    path,
    query,
    authorization: credential(),
    contentType,
    body: body(),
    extraHeader: fc.option(
      fc.tuple(
        fc.constantFrom(
          'x-forwarded-for',
          'origin',
          'accept',
          'content-encoding',
          'transfer-encoding-x',
          'expect-x',
          'cookie',
        ),
        fc.stringMatching(/^[\x21-\x7e]{0,60}$/),
      ),
      { nil: undefined },
    ),
  });

type Req = {
  method: string;
  path: string;
  query: string;
  authorization?: string;
  contentType?: string;
  body?: string;
  extraHeader?: [string, string];
};

function send(r: Req): Promise<{ status: number; text: string; contentType: string | undefined }> {
  const { port } = new URL(relay.url);
  const headers: Record<string, string> = { host: '127.0.0.1' };
  if (r.authorization !== undefined) headers.authorization = r.authorization;
  // A HEAD answer has no body, so Node's client cannot tell a body-bearing HEAD's answer from what follows it.
  const payload = r.method === 'HEAD' ? undefined : r.body;
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  if (r.contentType !== undefined && payload !== undefined) headers['content-type'] = r.contentType;
  if (r.extraHeader && r.extraHeader[0] !== 'origin') headers[r.extraHeader[0]] = r.extraHeader[1];
  return new Promise((resolve, reject) => {
    // An unparseable target gets a raw 400 with a body, which a HEAD client cannot frame; HEADs keep well-formed targets.
    const target = r.method === 'HEAD' && !r.path.startsWith('/') ? `/${r.path}` : r.path;
    const req = request(
      { host: '127.0.0.1', port, method: r.method, path: target + r.query, headers, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, contentType: res.headers['content-type'] }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The relay's own words: a code of its own (never a framework's `FST_…`), and no echo of the URL. */
function expectOwnWords(body: { code: string }, text: string, path: string, query: string): void {
  expect(body.code, text).toMatch(/^[a-z][a-z0-9-]*$/);
  // short paths are words an error may well contain ("/api/v1/stake-config"); long ones are the fuzz's own
  for (const part of [path, query]) if (part.length >= 24) expect(text, `echoes ${part}`).not.toContain(part);
}

describe('fuzzing every /api/v1 route over HTTP', () => {
  it(`${RUNS} random requests (seed ${SEED}): no 5xx, the relay keeps serving, every error is { error, code }`, async () => {
    expect(routes.length).toBeGreaterThan(30);
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArb(), async (r) => {
        const res = await send(r);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, `${r.method} ${r.path}${r.query}`).toBeLessThan(500);
        // an answer that is not an error (or to HEAD, which has no body) stands in as well-formed
        const isError = res.status >= 400 && r.method !== 'HEAD';
        const parsed = isError
          ? (JSON.parse(res.text) as { error?: unknown; code?: unknown })
          : { error: '', code: 'ok' };
        expect(
          { error: typeof parsed.error, code: typeof parsed.code },
          `${r.method} ${r.path}${r.query} → ${res.status} ${res.text}`,
        ).toEqual({ error: 'string', code: 'string' });
        expectOwnWords(parsed as { code: string }, res.text, r.path, r.query);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // the fuzz reached past authentication and validation, not only the front door
    expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 40);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(RUNS / 50);
    expect(statuses.get(401) ?? 0).toBeGreaterThan(RUNS / 50);
    expect(statuses.get(404) ?? 0).toBeGreaterThan(RUNS / 50);
    // and the relay still works for a real client (someone new: a long run may have had bob revoke his own device)
    expect((await call(relay.url, 'GET', '/api/v1/me', { auth: alice.apiKey })).status).toBe(200);
    const carol = await signIn(relay.url);
    const sent = await call(relay.url, 'POST', '/api/v1/envelopes', { auth: alice.apiKey, body: envelopeTo(carol) });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  }, 300_000);
});

describe('fuzzing the Host header (docs/protocol.md, Sign-in)', () => {
  let fixed: TestRelay;
  beforeAll(async () => {
    fixed = await startRelay({ baseUrl: 'https://relay.example.com', baseUrlGiven: true });
  });
  afterAll(async () => fixed?.close());

  const host = () =>
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .tuple(name, fc.option(port, { nil: undefined }))
          .map(([n, p]) => (p === undefined ? n : `${n}:${p}`)),
      },
      { weight: 2, arbitrary: fc.tuple(name, port, name).map(([a, p, b]) => `${a}:${p}@${b}`) },
      fc
        .tuple(
          name,
          fc.constantFrom(
            ' ',
            '\t',
            '\u0000',
            '\u0001',
            '\u007f',
            '\u00a0',
            '\u00ff',
            '/',
            '?',
            '#',
            '%',
            '\\',
            ',',
            ';',
            '@',
          ),
          name,
        )
        .map(([a, c, b]) => a + c + b),
      fc.string({ unit: anyByte, maxLength: 80 }),
      fc.constant(`localhost:${new URL(relay.nodeUrl).port}`),
    );
  const target = () =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constant({ method: 'POST', path: '/api/v1/auth/challenge' }) },
      fc.integer({ min: 0, max: 1000 }).map((i) => ({
        method: routes[i % routes.length].method,
        path: routes[i % routes.length].template.replace(/\{[^}]+\}/g, 'x'),
      })),
      fc.constantFrom(
        { method: 'GET', path: '/healthz' },
        { method: 'GET', path: '/' },
        { method: 'GET', path: '/nowhere' },
        { method: 'GET', path: '/reference/static/index.css' },
      ),
    );

  it(`${HOST_RUNS} odd Host headers (seed ${SEED}): never a 5xx, errors in our shape, and a sign-in message names only a host the relay answers for`, async () => {
    const statuses = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        host(),
        target(),
        fc.option(fc.string({ unit: anyByte, maxLength: 40 }), { nil: undefined }),
        async (onFixed, hostHeader, t, forwarded) => {
          const r = onFixed ? fixed : relay;
          const headers: Array<[string, string]> = [
            ['Host', hostHeader],
            ['Content-Type', 'application/json'],
          ];
          if (forwarded !== undefined) headers.push(['X-Forwarded-Host', forwarded]);
          // straight to a node: on a cluster the test proxy's own HTTP client would rewrite an empty Host
          const res = await rawRequest(r.nodeUrl, {
            method: t.method,
            path: t.path,
            headers,
            body: t.method === 'GET' ? undefined : JSON.stringify({ address: alice.address }),
          });
          const what = `${t.method} ${t.path} Host ${JSON.stringify(hostHeader)} → ${res.status} ${res.body.slice(0, 300)}`;
          statuses.set(`${res.status}`, (statuses.get(`${res.status}`) ?? 0) + 1);
          expect(res.status, what).toBeGreaterThanOrEqual(200);
          expect(res.status, what).toBeLessThan(500);
          if (res.status >= 400) {
            const body = JSON.parse(res.body) as { error: unknown; code: string };
            expect(typeof body.error, what).toBe('string');
            expectOwnWords(body, res.body, hostHeader, '');
          }
          if (t.path === '/api/v1/auth/challenge' && res.status === 200) {
            const message = (JSON.parse(res.body) as { message: string }).message;
            const domain = message.slice(0, message.indexOf(' wants you to sign in'));
            const uri = /\nURI: ([^\n]*)\n/.exec(message)?.[1];
            if (onFixed) {
              expect({ domain, uri }, what).toEqual({ domain: 'relay.example.com', uri: 'https://relay.example.com' });
            } else {
              // the Host itself (without the spaces or tabs around it, which are not part of a header's value),
              // and one of this relay's: a loopback name with a port 1-65535, the node's own unless
              // a proxy the node trusts (a cluster's nodes do) forwarded the host
              // (a header of only spaces and tabs arrives empty, and an empty one is none)
              const forwardedHost = CLUSTER_MODE ? (forwarded ?? '').trim() : '';
              const proxied = forwardedHost !== '';
              const reached = proxied
                ? forwardedHost.slice(forwardedHost.lastIndexOf(',') + 1).trim()
                : hostHeader.replace(/^[ \t]+|[ \t]+$/g, '');
              expect(domain, what).toBe(reached.toLowerCase());
              if (!proxied) expect(domain.split(':').at(-1), what).toBe(new URL(relay.nodeUrl).port);
              expect(domain, what).toMatch(
                /^(localhost|127\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){2}|\[::1\])(:[1-9]\d{0,4})?$/,
              );
              expect(Number(domain.split(':').at(-1)) || 1, what).toBeLessThanOrEqual(65535);
              expect(uri, what).toBe(`http://${domain}`);
            }
          }
        },
      ),
      { seed: SEED, numRuns: HOST_RUNS, endOnFailure: true },
    );
    // both kinds of answer were reached: messages handed out and Hosts refused
    expect(statuses.get('200') ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(HOST_RUNS / 50);
    expect(statuses.get('400') ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(HOST_RUNS / 10);
  }, 300_000);
});
