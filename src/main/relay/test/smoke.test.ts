import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, envelopeTo, signIn, startRelay, type TestRelay } from './harness.js';

let relay: TestRelay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => relay.close());

it('signs in, sends and pulls', async () => {
  const a = await signIn(relay.url);
  const b = await signIn(relay.url);
  const me = await call(relay.url, 'GET', '/api/v1/me', { auth: a.apiKey });
  expect(me.status).toBe(200);
  const s = await call(relay.url, 'POST', '/api/v1/envelopes', { auth: a.apiKey, body: envelopeTo(b) });
  expect(s.body.routed).toBe('request');
  const p = await call(relay.url, 'GET', '/api/v1/envelopes', { auth: b.apiKey });
  expect(p.body.envelopes).toHaveLength(1);
  const doc = await call(relay.url, 'GET', '/openapi.json');
  expect(doc.status).toBe(200);
  const root = await call(relay.url, 'GET', '/');
  expect(root.status).toBe(200);
});
