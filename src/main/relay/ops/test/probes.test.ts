/**
 * GET /livez and GET /readyz (docs/operations.md, Health): free of the rate limit and of
 * credentials, 503 in the relay's `{ error, code }` shape when the database is unreachable or
 * not migrated, and described in the OpenAPI document.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { call, startRelay, type TestRelay } from '../../test/harness.js';
import type { RelayStore } from '../../store/store.js';

let relay: TestRelay | undefined;
afterEach(async () => {
  await relay?.close();
  relay = undefined;
});

describe('the probes', () => {
  it('answer alive and ready, are never rate-limited and are not cached', async () => {
    relay = await startRelay({ rateLimit: 2 });
    for (let i = 0; i < 6; i++) {
      const live = await call(relay.url, 'GET', '/livez');
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ status: 'alive' });
      expect(live.headers.get('cache-control')).toBe('no-store');
      const ready = await call(relay.url, 'GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ready' });
    }
    // the same peer is limited on the API meanwhile
    const api = [];
    for (let i = 0; i < 4; i++) api.push((await call(relay.url, 'GET', '/api/v1/me')).status);
    expect(api).toContain(429);
    expect((await call(relay.url, 'GET', '/readyz')).status).toBe(200);
  });

  it('/readyz answers 503 database-unavailable or database-not-migrated; /livez stays 200', async () => {
    const state: { readiness: Awaited<ReturnType<RelayStore['readiness']>> | null } = { readiness: null };
    relay = await startRelay(
      {},
      {
        wrapStore: (store) =>
          Object.assign(Object.create(store) as RelayStore, {
            readiness: () => (state.readiness ? Promise.resolve(state.readiness) : store.readiness()),
          }),
      },
    );
    state.readiness = 'unreachable';
    const lost = await call(relay.url, 'GET', '/readyz');
    expect(lost.status).toBe(503);
    expect(lost.body).toEqual({ error: 'the database is unreachable', code: 'database-unavailable' });
    state.readiness = 'not-migrated';
    const old = await call(relay.url, 'GET', '/readyz');
    expect(old.status).toBe(503);
    expect(Object.keys(old.body).sort()).toEqual(['code', 'error']);
    expect(old.body.code).toBe('database-not-migrated');
    expect((await call(relay.url, 'GET', '/livez')).status).toBe(200);
    state.readiness = null;
    expect((await call(relay.url, 'GET', '/readyz')).status).toBe(200);
  });

  it('are in the OpenAPI document under health, with operation ids', async () => {
    relay = await startRelay();
    const { paths, components } = (await call(relay.url, 'GET', '/openapi.json')).body;
    expect(paths['/livez'].get.operationId).toBe('getLiveness');
    expect(paths['/livez'].get.tags).toEqual(['health']);
    expect(paths['/readyz'].get.operationId).toBe('getReadiness');
    expect(Object.keys(paths['/readyz'].get.responses).sort()).toEqual(['200', '400', '421', '503']);
    expect(paths['/readyz'].get.security).toEqual([]);
    // the relay's one error shape, named once in the document's components
    expect(paths['/readyz'].get.responses['503'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    expect(components.schemas.Error.required.sort()).toEqual(['code', 'error']);
  });
});
