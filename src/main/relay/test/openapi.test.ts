import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIRE_COMPONENTS } from '../../../shared/api/components.js';
import { call, startRelay, type TestRelay } from './harness.js';

interface Operation {
  responses: Record<string, { description: string; content?: Record<string, { schema?: { $ref?: string } }> }>;
}

let relay: TestRelay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => relay.close());

const SEED_ROUTES = [
  'get /api/v1/me',
  'get /api/v1/handles/{handle}',
  'get /api/v1/directory',
  'get /api/v1/keys/{address}',
  'get /api/v1/envelopes',
  'post /api/v1/envelopes',
  'post /api/v1/envelopes/ack',
  'get /api/v1/groups',
  'get /api/v1/groups/{id}',
  'post /api/v1/groups/{id}/envelopes',
];
const ACCOUNT_ROUTES = [
  'post /api/v1/auth/challenge',
  'post /api/v1/auth/keys',
  'get /api/v1/me/keys',
  'post /api/v1/me/keys',
  'delete /api/v1/me/keys/{id}',
  'post /api/v1/devices',
  'delete /api/v1/devices/{publicKey}',
  'put /api/v1/me/handle',
  'get /api/v1/me/policy',
  'put /api/v1/me/policy',
  'get /api/v1/contacts',
  'put /api/v1/contacts/{address}',
  'delete /api/v1/contacts/{address}',
  'put /api/v1/blocks/{address}',
  'delete /api/v1/blocks/{address}',
  'post /api/v1/groups',
  'patch /api/v1/groups/{id}',
  'post /api/v1/groups/{id}/members',
  'delete /api/v1/groups/{id}/members/{address}',
  'post /api/v1/groups/{id}/join',
  'post /api/v1/groups/{id}/tokens',
  'delete /api/v1/groups/{id}/tokens/{tokenId}',
];
const BLOB_ROUTES = ['post /api/v1/blobs', 'get /api/v1/blobs/{id}', 'delete /api/v1/blobs/{id}'];

describe('the OpenAPI document and the reference', () => {
  it('is OpenAPI 3.1.0 at version 1.0.0, lists every route, and needs no credential', async () => {
    const r = await call(relay.url, 'GET', '/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    expect(r.body.info.version).toBe('1.0.0');
    const ops = Object.entries(r.body.paths as Record<string, Record<string, unknown>>).flatMap(([p, m]) =>
      Object.keys(m).map((verb) => `${verb} ${p}`),
    );
    for (const route of [...SEED_ROUTES, ...ACCOUNT_ROUTES, ...BLOB_ROUTES]) expect(ops).toContain(route);
    // outside /api/v1 only the orchestrator's probes (the rest of the relay's own pages are hidden)
    expect(ops.filter((o) => !o.includes('/api/v1/')).sort()).toEqual(['get /livez', 'get /readyz']);
    // blobs go up and come down as raw bytes, not JSON
    expect(Object.keys(r.body.paths['/api/v1/blobs'].post.requestBody.content)).toEqual(['application/octet-stream']);
    expect(Object.keys(r.body.paths['/api/v1/blobs/{id}'].get.responses['206'].content)).toEqual([
      'application/octet-stream',
    ]);
  });

  it('names the sign-in and blob refusals: bad-host and host-not-allowed on the challenge, not-siwe on the exchange, the entropy rule on uploads', async () => {
    const { paths } = (await call(relay.url, 'GET', '/openapi.json')).body;
    expect(paths['/api/v1/auth/challenge'].post.responses['400'].description).toContain('`bad-host`');
    expect(paths['/api/v1/auth/challenge'].post.responses['421'].description).toContain('`host-not-allowed`');
    expect(paths['/api/v1/auth/keys'].post.description).toContain('`not-siwe`');
    expect(paths['/api/v1/auth/keys'].post.description).toContain('401 `bad-signin`');
    expect(paths['/api/v1/auth/keys'].post.description).toContain('`invalid-text`');
    expect(paths['/api/v1/auth/challenge'].post.responses['421'].description).toContain('another port');
    expect(paths['/api/v1/envelopes'].post.description).toMatch(/400 `not-sealed`.*400 `invalid-envelope`/);
    expect(paths['/api/v1/groups'].post.responses['400'].description).toContain('`invalid-text`');
    expect(paths['/api/v1/blobs'].post.description).toMatch(/`not-sealed`.*entropy of at least 7.5 bits per byte/);
  });

  it('every error answer of every operation promises both fields, with its own words for that route and status', async () => {
    const doc = (await call(relay.url, 'GET', '/openapi.json')).body;
    const errorBody = doc.components.schemas.Error;
    expect(errorBody.required).toEqual(['error', 'code']);
    let errors = 0;
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
      for (const [verb, op] of Object.entries(ops)) {
        for (const [status, res] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          errors++;
          const schema = res.content?.['application/json']?.schema;
          expect(schema?.$ref, `${verb} ${path} ${status}`).toBe('#/components/schemas/Error');
          expect(res.description, `${verb} ${path} ${status}`).not.toBe('Default Response');
          expect(res.description, `${verb} ${path} ${status}`).not.toBe(errorBody.description);
        }
      }
    }
    expect(errors).toBeGreaterThan(150);
  });

  it('names the wire types as components, referenced by $ref, so generated clients get one named type each', async () => {
    const doc = (await call(relay.url, 'GET', '/openapi.json')).body;
    const names = Object.keys(doc.components.schemas);
    expect(names.sort()).toEqual(WIRE_COMPONENTS.map((s) => (s as { $id: string }).$id).sort());
    const send = doc.paths['/api/v1/envelopes'].post;
    expect(send.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SendBody' });
    expect(doc.components.schemas.SendBody.anyOf[0]).toEqual({ $ref: '#/components/schemas/EnvelopeInput' });
    expect(doc.components.schemas.PullResult.properties.envelopes.items).toEqual({
      $ref: '#/components/schemas/Envelope',
    });

    const source = astToString(await openapiTS(doc));
    for (const name of [
      'Envelope',
      'EnvelopeInput',
      'GroupEnvelopeInput',
      'SendResult',
      'BatchResults',
      'PullResult',
      'Error',
      'Me',
      'DeviceKeys',
      'Device',
      'GroupView',
      'GroupDetail',
      'StakeQuote',
      'StakeRecord',
      'Policy',
      'ApiKey',
      'BlobUploadResult',
    ])
      expect(source, name).toContain(`components["schemas"]["${name}"]`);
    // each shape is declared once, under its name, not copied into every route that uses it
    const declared = (field: string) => source.split('\n').filter((l) => l.trim().startsWith(field)).length;
    expect(declared('recipientAddress: string;')).toBe(1);
    expect(declared('stakeRef?: string;')).toBe(1);
    expect(declared('releaseSignature: string | null;')).toBe(1);
  });

  it("names each limit's status and code on the routes that answer them (docs/protocol.md, Limits)", async () => {
    const paths = (await call(relay.url, 'GET', '/openapi.json')).body.paths;
    const expected: Array<[string, string, number, string]> = [
      ['/api/v1/envelopes', 'post', 429, 'requests-full'],
      ['/api/v1/envelopes', 'post', 429, 'too-many-requests-pending'],
      ['/api/v1/groups/{id}/members', 'post', 429, 'too-many-requests-pending'],
      ['/api/v1/groups/{id}/members', 'post', 403, 'stake-required'],
      ['/api/v1/groups', 'post', 429, 'too-many-groups'],
      ['/api/v1/groups', 'post', 507, 'storage-full'],
      ['/api/v1/groups/{id}', 'patch', 507, 'storage-full'],
      ['/api/v1/groups/{id}/tokens', 'post', 507, 'storage-full'],
      ['/api/v1/me/handle', 'put', 507, 'storage-full'],
      ['/api/v1/me/keys', 'post', 507, 'storage-full'],
      ['/api/v1/me/keys', 'post', 409, 'too-many-keys'],
      ['/api/v1/auth/keys', 'post', 409, 'too-many-keys'],
      ['/api/v1/envelopes', 'get', 401, 'Revoking the key or its device answers a held pull'],
    ];
    for (const [path, verb, status, code] of expected) {
      const op = paths[path][verb];
      expect(Object.keys(op.responses), `${verb} ${path}`).toContain(String(status));
      expect(op.description, `${verb} ${path}`).toContain(code);
    }
  });

  it('passes the Redocly linter (recommended rules) with no errors or warnings', async () => {
    const r = await call(relay.url, 'GET', '/openapi.json');
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(r.body), absoluteRef: 'openapi.json', config });
    const summary = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} @ ${p.location[0]?.pointer}`);
    expect(summary).toEqual([]);
  });

  it('GET / is a human-readable reference whose assets are all served by the relay itself', async () => {
    const page = await fetch(relay.url + '/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(2);
    for (const a of assets) {
      expect(a).not.toMatch(/^(https?:)?\/\//);
      const url = new URL(a, relay.url + '/');
      const res = await fetch(url);
      expect(res.status, url.pathname).toBe(200);
    }
    const init = await (await fetch(relay.url + '/reference/static/swagger-initializer.js')).text();
    const code = init
      .split('\n')
      .filter((line) => !line.trim().startsWith('//'))
      .join('\n');
    expect(code).not.toMatch(/https?:\/\//);
    // The page's own CSP keeps it to this origin.
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
  });
});
