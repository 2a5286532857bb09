/**
 * The relay's log (docs/operations.md, Logs): one JSON line per request with the route's
 * pattern, the status, the duration and the request id, and nothing a client sent (keys,
 * tokens, signatures, nonces, ciphertext, bodies, query strings); 5xx with their stack; the
 * loss and return of the database, once each.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { relayLogger } from '../logger.js';
import { call, envelopeTo, signIn, startRelay, type TestRelay } from '../../test/harness.js';
import { StoreUnavailable, type RelayStore } from '../../store/store.js';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  req?: { id: string; method: string; route: string | null };
  res?: { status: number };
  durationMs?: number;
  err?: { type: string; message: string; stack: string };
  [key: string]: unknown;
}

function capture() {
  const text: string[] = [];
  const logger = relayLogger({ level: 'debug', destination: { write: (line) => void text.push(line) } });
  const lines = () => text.map((t) => JSON.parse(t) as Line);
  return { logger, text, lines };
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(done()).toBe(true);
}

let relay: TestRelay | undefined;
afterEach(async () => {
  await relay?.close();
  relay = undefined;
});

describe('the request log', () => {
  it('logs each request by route pattern and status, and nothing a client sent', async () => {
    const log = capture();
    relay = await startRelay({}, { logger: log.logger });
    const alice = await signIn(relay.url);
    const bob = await signIn(relay.url);
    const envelope = envelopeTo(bob);
    const sent = await call(relay.url, 'POST', '/api/v1/envelopes', { auth: alice.apiKey, body: envelope });
    expect(sent.status).toBe(200);
    // on purpose: an unknown route with a query, a bad key, a body that fails validation
    const probeSecret = 'zqSECRETqz';
    expect((await call(relay.url, 'GET', `/api/v1/nowhere?token=${probeSecret}`)).status).toBe(404);
    expect((await call(relay.url, 'GET', '/api/v1/me', { auth: `sk_live_${probeSecret}` })).status).toBe(401);
    const bad = await call(relay.url, 'PUT', '/api/v1/me/policy', {
      auth: alice.apiKey,
      body: { unknownSenders: probeSecret },
    });
    expect(bad.status).toBe(400);
    const keys = await call(relay.url, 'GET', `/api/v1/keys/${bob.address}`, { auth: alice.apiKey });
    expect(keys.status).toBe(200);

    const requests = log.lines().filter((l) => l.msg === 'request');
    const seen = requests.map((l) => `${l.req?.method} ${l.req?.route} ${l.res?.status}`);
    expect(seen).toEqual(
      expect.arrayContaining([
        'POST /api/v1/auth/challenge 200',
        'POST /api/v1/auth/keys 200',
        'POST /api/v1/envelopes 200',
        'GET null 404',
        'GET /api/v1/me 401',
        'PUT /api/v1/me/policy 400',
        // the pattern, never the address that filled it
        'GET /api/v1/keys/:address 200',
      ]),
    );
    for (const l of requests) {
      expect(l.reqId).toMatch(/^req-/);
      expect(l.req?.id).toBe(l.reqId);
      expect(typeof l.durationMs).toBe('number');
      expect(Object.keys(l.req ?? {}).sort()).toEqual(['id', 'method', 'route']);
      expect(Object.keys(l.res ?? {})).toEqual(['status']);
    }

    const all = log.text.join('');
    const challengeNonce = /Nonce: (\w+)/;
    for (const secret of [
      alice.apiKey,
      bob.apiKey,
      alice.apiKey.slice('sk_live_'.length),
      probeSecret,
      'Bearer',
      envelope.ciphertext,
      envelope.nonce,
      envelope.ephemeralPublicKey,
      bob.address,
      bob.deviceKey,
    ])
      expect(all, `the log holds ${secret}`).not.toContain(secret);
    // nor anything of the sign-in exchange: the message, its nonce, the signature
    expect(all).not.toMatch(challengeNonce);
    expect(all).not.toMatch(/0x[0-9a-f]{130}/i);
    for (const field of ['"authorization"', '"headers"', '"body"', '"query"', '"url"', '"ciphertext"', '"signature"'])
      expect(all).not.toContain(field);
  });

  it('logs a 5xx as an error with its stack, and the loss and return of the database once each', async () => {
    const log = capture();
    const outage = { on: false, bug: false };
    relay = await startRelay(
      {},
      {
        logger: log.logger,
        wrapStore: (store) =>
          Object.assign(Object.create(store) as RelayStore, {
            getAccount: (address: string) => {
              if (outage.bug) return Promise.reject(new Error('a bug in the store'));
              if (outage.on) return Promise.reject(new StoreUnavailable('the database is unreachable; retry shortly'));
              return store.getAccount(address);
            },
            healthy: () => Promise.resolve(!outage.on),
          }),
      },
    );
    const alice = await signIn(relay.url);

    outage.bug = true;
    expect((await call(relay.url, 'GET', '/api/v1/me', { auth: alice.apiKey })).status).toBe(500);
    outage.bug = false;
    const failed = log.lines().find((l) => l.msg === 'request failed');
    expect(failed?.level).toBe(50);
    expect(failed?.req?.route).toBe('/api/v1/me');
    expect(failed?.res?.status).toBe(500);
    expect(failed?.err?.message).toBe('a bug in the store');
    expect(failed?.err?.stack).toMatch(/a bug in the store\n\s+at /);

    outage.on = true;
    for (let i = 0; i < 3; i++)
      expect((await call(relay.url, 'GET', '/api/v1/me', { auth: alice.apiKey })).status).toBe(503);
    expect((await call(relay.url, 'GET', '/healthz')).status).toBe(503);
    outage.on = false;
    expect((await call(relay.url, 'GET', '/api/v1/me', { auth: alice.apiKey })).status).toBe(200);
    // the watcher's own probe notices the return, with no health request
    await until(() => log.lines().some((l) => l.msg === 'database reachable again'));
    expect((await call(relay.url, 'GET', '/api/v1/me', { auth: alice.apiKey })).status).toBe(200);

    const lost = log.lines().filter((l) => l.msg === 'database unreachable');
    const back = log.lines().filter((l) => l.msg === 'database reachable again');
    expect(lost).toHaveLength(1);
    expect(lost[0].level).toBe(50);
    expect(back).toHaveLength(1);
    expect(typeof back[0].downMs).toBe('number');
    const order = log.lines().map((l) => l.msg);
    expect(order.indexOf('database unreachable')).toBeLessThan(order.indexOf('database reachable again'));
    // the 503s are logged as failed requests, with the error that made them
    const unavailable = log.lines().filter((l) => l.msg === 'request failed' && l.res?.status === 503);
    expect(unavailable.length).toBe(3);
    expect(unavailable[0].err?.type).toBe('StoreUnavailable');
  });
});
