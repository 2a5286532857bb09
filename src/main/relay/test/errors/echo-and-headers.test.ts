/**
 * Answers say nothing they were not asked (docs/protocol.md, Errors): no error repeats text of
 * the request (a path, a handle, control or bidi characters), every answer carries
 * `X-Content-Type-Options: nosniff` and `Cache-Control: no-store`, a request without a Host is
 * 400 `bad-host` in our shape, and an Origin counts as ours only on this relay's port.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startRelay, type TestRelay, type TestUser } from '../harness.js';
import { rawRequest, type RawAnswer } from '../raw-http.js';

/** Sends bytes as they are and reads the whole answer (the relay closes the connection). */
function rawBytes(base: string, text: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => (answer += c));
    socket.on('error', reject);
    socket.on('end', () => resolve(answer));
    socket.write(text);
  });
}

const expectPlainHeaders = (r: { headers: Record<string, string> } | RawAnswer, what: string) => {
  expect(r.headers['x-content-type-options'], what).toBe('nosniff');
  expect(r.headers['cache-control'], what).toBe('no-store');
};

describe('answers say nothing they were not asked', () => {
  let relay: TestRelay;
  let alice: TestUser;
  let port: string;
  beforeAll(async () => {
    relay = await startRelay();
    alice = await signIn(relay.url);
    port = new URL(relay.nodeUrl).port;
  });
  afterAll(async () => relay?.close());

  it('a handle lookup never repeats the path: script, CR/LF, a right-to-left override', async () => {
    for (const [segment, text] of [
      ['%3Cscript%3Ealert(1)%3C%2Fscript%3E', '<script>'],
      ['abc%0D%0Aset-cookie%3A%20x%3D1', 'set-cookie'],
      ['abc%E2%80%AEgnp.exe', '\u202e'],
      ['ZQechoQZ', 'zqechoqz'],
    ]) {
      const r = await call(relay.url, 'GET', `/api/v1/handles/${segment}`, { auth: alice.apiKey });
      expect(r.status, segment).toBe(404);
      expect(r.body.code).toBe('handle-not-found');
      const raw = JSON.stringify(r.body).toLowerCase();
      expect(raw, segment).not.toContain(text.toLowerCase());
      expect(raw, segment).not.toContain('\\u202e');
      expect(r.headers.get('set-cookie')).toBeNull();
    }
  });

  it('every answer, success or refusal, carries nosniff and no-store', async () => {
    const answers: Array<[string, RawAnswer]> = [];
    const get = (path: string, headers: Array<[string, string]> = []) =>
      rawRequest(relay.nodeUrl, { method: 'GET', path, headers: [['Host', `127.0.0.1:${port}`], ...headers] });
    answers.push(['200', await get('/api/v1/me', [['Authorization', `Bearer ${alice.apiKey}`]])]);
    answers.push(['401', await get('/api/v1/me')]);
    answers.push(['404 no route', await get('/api/v1/nowhere')]);
    answers.push(['400 bad-url', await get('/api/v1/handles/%E0%A4%A')]);
    answers.push(['healthz', await get('/healthz')]);
    answers.push(['openapi', await get('/openapi.json')]);
    for (const [what, r] of answers) expectPlainHeaders(r, what);
    expect(answers.map(([, r]) => r.status)).toEqual([200, 401, 404, 400, 200, 200]);
    // what Node's parser refuses is answered in the same shape and headers
    const broken = await rawBytes(relay.nodeUrl, 'GET /x HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n');
    expect(broken).toMatch(/^HTTP\/1\.1 400 /);
    expect(broken).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/i);
  });

  it('a request without a Host is 400 bad-host with a JSON body, not an empty answer', async () => {
    for (const version of ['HTTP/1.1', 'HTTP/1.0']) {
      const answer = await rawBytes(relay.nodeUrl, `GET /api/v1/me ${version}\r\nConnection: close\r\n\r\n`);
      const [head, body] = answer.split('\r\n\r\n');
      expect(head, version).toMatch(/^HTTP\/1\.1 400 /);
      expect(head, version).toMatch(/\r\ncontent-type: application\/json/i);
      expect(JSON.parse(body), version).toMatchObject({ code: 'bad-host' });
    }
  });

  it("an Origin is ours only with this relay's scheme, host and port", async () => {
    const other = port === '3000' ? '3001' : '3000';
    const withOrigin = (origin: string) =>
      rawRequest(relay.nodeUrl, {
        method: 'GET',
        path: '/openapi.json',
        headers: [
          ['Host', `127.0.0.1:${port}`],
          ['Origin', origin],
        ],
      });
    for (const origin of [
      `http://127.0.0.1:${other}`,
      `http://localhost:${other}`,
      'http://127.0.0.1',
      `https://127.0.0.1:${port}`,
    ]) {
      const r = await withOrigin(origin);
      expect([origin, r.status, JSON.parse(r.body).code]).toEqual([origin, 403, 'origin-not-allowed']);
    }
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const r = await withOrigin(origin);
      expect([origin, r.status]).toEqual([origin, 200]);
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
  });
});
