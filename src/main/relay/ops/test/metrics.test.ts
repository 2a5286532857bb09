/**
 * The metrics listener (docs/operations.md, Metrics): Prometheus text at GET /metrics on a
 * listener of its own, counting requests by route pattern and status, envelopes by the route
 * they took, and reading the queue, held pulls, database and blob bytes at each scrape; one
 * registry per relay, so two relays in one process count apart.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { RelayMetrics } from '../metrics.js';
import { startMetricsListener, type MetricsListener } from '../metrics-server.js';
import { call, envelopeTo, signIn, startRelay, type TestRelay } from '../../test/harness.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (opened.length > 0) await opened.pop()!.close();
});

async function relayWithMetrics(): Promise<{ relay: TestRelay; metrics: MetricsListener }> {
  const registry = new RelayMetrics();
  const relay = await startRelay({}, { metrics: registry });
  opened.push(relay);
  const metrics = await startMetricsListener(registry, '127.0.0.1', 0);
  opened.push(metrics);
  return { relay, metrics };
}

/** Samples of the exposition text: `name{labels}` → value. */
async function scrape(url: string): Promise<Map<string, number>> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

describe('GET /metrics', () => {
  it('counts requests and routed envelopes, and reads the queue, held pulls and storage', async () => {
    const { relay, metrics } = await relayWithMetrics();
    const alice = await signIn(relay.url);
    const bob = await signIn(relay.url);
    for (let i = 0; i < 3; i++)
      expect(
        (await call(relay.url, 'POST', '/api/v1/envelopes', { auth: alice.apiKey, body: envelopeTo(bob) })).status,
      ).toBe(200);
    expect((await call(relay.url, 'GET', '/api/v1/me', { auth: 'sk_live_nope' })).status).toBe(401);
    expect((await call(relay.url, 'GET', `/api/v1/keys/${bob.address}`, { auth: alice.apiKey })).status).toBe(200);
    const blob = await fetch(`${relay.url}/api/v1/blobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.apiKey}`, 'content-type': 'application/octet-stream' },
      body: randomBytes(4096),
    });
    expect(blob.status).toBe(200);
    // a held pull, answered only once the scrape has seen it
    const held = fetch(`${relay.url}/api/v1/envelopes?wait=20`, {
      headers: { authorization: `Bearer ${alice.apiKey}` },
    });
    while (relay.app.heldPulls === 0) await new Promise((r) => setTimeout(r, 10));

    const s = await scrape(metrics.url);
    expect(s.get('relay_http_requests_total{method="POST",route="/api/v1/envelopes",status="200"}')).toBe(3);
    expect(s.get('relay_http_requests_total{method="GET",route="/api/v1/me",status="401"}')).toBe(1);
    expect(s.get('relay_http_requests_total{method="GET",route="/api/v1/keys/:address",status="200"}')).toBe(1);
    expect(s.get('relay_http_request_duration_seconds_count{method="POST",route="/api/v1/envelopes"}')).toBe(3);
    expect(s.get('relay_http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/api/v1/envelopes"}')).toBe(
      3,
    );
    // strangers: Bob allowed nobody, so Alice's envelopes are contact requests
    expect(s.get('relay_envelopes_routed_total{routed="request",send="direct"}')).toBe(3);
    expect(s.get('relay_queued_envelopes')).toBe(3);
    expect(s.get('relay_accounts')).toBe(2);
    expect(s.get('relay_held_pulls')).toBe(1);
    expect(s.get('relay_blob_bytes')).toBe(4096);
    expect(s.get('relay_database_bytes')).toBeGreaterThan(4096);
    expect(s.get('relay_database_up')).toBe(1);
    // prom-client's process metrics: memory and the event loop
    expect(s.get('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(s.has('nodejs_eventloop_lag_p99_seconds')).toBe(true);
    // the scrape itself is not an API request: it has a listener of its own
    expect([...s.keys()].some((k) => k.includes('route="/metrics"'))).toBe(false);

    await call(relay.url, 'PUT', `/api/v1/contacts/${alice.address}`, { auth: bob.apiKey });
    expect(
      (await call(relay.url, 'POST', '/api/v1/envelopes', { auth: alice.apiKey, body: envelopeTo(bob) })).status,
    ).toBe(200);
    // Bob's answer to Alice (who wrote to him first, hence her inbox) answers her held pull
    expect(
      (await call(relay.url, 'POST', '/api/v1/envelopes', { auth: bob.apiKey, body: envelopeTo(alice) })).status,
    ).toBe(200);
    expect(((await (await held).json()) as { envelopes: unknown[] }).envelopes).toHaveLength(1);
    const after = await scrape(metrics.url);
    expect(after.get('relay_envelopes_routed_total{routed="inbox",send="direct"}')).toBe(2);
    expect(after.get('relay_envelopes_routed_total{routed="request",send="direct"}')).toBe(3);
    expect(after.get('relay_held_pulls')).toBe(0);
  });

  it('keeps each relay in its own registry, and answers only GET /metrics', async () => {
    const a = await relayWithMetrics();
    const b = await relayWithMetrics();
    for (let i = 0; i < 2; i++) expect((await call(a.relay.url, 'GET', '/livez')).status).toBe(200);
    expect((await call(b.relay.url, 'GET', '/livez')).status).toBe(200);
    expect(
      (await scrape(a.metrics.url)).get('relay_http_requests_total{method="GET",route="/livez",status="200"}'),
    ).toBe(2);
    expect(
      (await scrape(b.metrics.url)).get('relay_http_requests_total{method="GET",route="/livez",status="200"}'),
    ).toBe(1);

    const elsewhere = await fetch(a.metrics.url.replace('/metrics', '/api/v1/me'));
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toEqual({ error: 'only /metrics is served here', code: 'no-route' });
    const posted = await fetch(a.metrics.url, { method: 'POST' });
    expect(posted.status).toBe(405);
    expect(((await posted.json()) as { code: string }).code).toBe('method-not-allowed');
  });
});
