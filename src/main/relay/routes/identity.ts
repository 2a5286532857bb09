import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { Address } from '../../../shared/api/common.js';
import { DeviceKeys, DirectoryQuery, DirectoryResult, HandleRecord, Me } from '../../../shared/api/directory.js';
import type { RelayStore } from '../store/store.js';
import { apiKeyCaller } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import { iso } from '../http/present.js';
import { apiKeyAuth, errorResponses } from './route-docs.js';
import { HANDLE, bareHandle } from '../../../shared/identity-patterns.js';
import { checkText } from '../http/text-fields.js';

/** GET /me, /handles/{handle}, /directory, /keys/{address}. */
export function identityRoutes(app: FastifyInstance, store: RelayStore): void {
  const auth = { auth: 'api-key' as const };

  app.get(
    '/api/v1/me',
    {
      config: auth,
      schema: {
        tags: ['identity'],
        summary: 'Introspect the calling key',
        security: apiKeyAuth,
        response: { 200: Me, ...errorResponses(401, 429) },
      },
    },
    async (req) => {
      const caller = apiKeyCaller(req);
      const [account, devices, entitlements] = await Promise.all([
        store.getAccount(caller.address),
        store.listDevices(caller.address),
        store.getEntitlements(caller.address),
      ]);
      return {
        address: caller.address,
        handle: account?.handle ?? null,
        verified: account?.verified ?? false,
        deviceKeys: devices.length,
        entitlements,
      };
    },
  );

  app.get<{ Params: { handle: string } }>(
    '/api/v1/handles/:handle',
    {
      config: auth,
      schema: {
        tags: ['identity'],
        summary: 'Resolve a handle (without the @)',
        security: apiKeyAuth,
        params: Type.Object({ handle: Type.String({ description: 'the handle without the @ prefix' }) }),
        response: { 200: HandleRecord, ...errorResponses(401, 404, 429) },
      },
    },
    async (req) => {
      const handle = bareHandle(req.params.handle).toLowerCase();
      const account = HANDLE.test(handle) ? await store.findHandle(handle) : null;
      if (!account || account.handle === null || account.handleClaimedAt === null)
        throw notFound('no one has claimed that handle', 'handle-not-found');
      return {
        handle: account.handle,
        address: account.address,
        verified: account.verified,
        claimedAt: iso(account.handleClaimedAt),
      };
    },
  );

  app.get<{ Querystring: { q?: string; limit?: number } }>(
    '/api/v1/directory',
    {
      config: auth,
      schema: {
        tags: ['identity'],
        summary: 'Search the public directory by handle or address fragment',
        security: apiKeyAuth,
        description: 'Exact handle matches first, then newest claims. Without `q`, the newest claims.',
        querystring: DirectoryQuery,
        response: { 200: DirectoryResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (req) => {
      const q = bareHandle(checkText(req.query.q ?? '', 'the search').trim()).toLowerCase();
      const rows = await store.searchDirectory(q.length > 0 ? q : null, req.query.limit ?? 20);
      return {
        results: rows
          .filter((r) => r.handle !== null)
          .map((r) => ({ handle: r.handle as string, address: r.address, verified: r.verified })),
      };
    },
  );

  app.get<{ Params: { address: string } }>(
    '/api/v1/keys/:address',
    {
      config: auth,
      schema: {
        tags: ['identity'],
        summary: "Fetch an address's current device public keys, with their certificates",
        security: apiKeyAuth,
        description:
          'Clients fetch fresh keys right before sealing and seal only to keys whose certificate verifies for the address.',
        params: Type.Object({ address: Address }),
        response: { 200: DeviceKeys, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (req) => {
      const address = req.params.address.toLowerCase();
      const devices = await store.listDevices(address);
      if (devices.length === 0) throw notFound('this address has no registered devices', 'no-devices');
      return {
        address,
        deviceKeys: devices.map((d) => d.publicKey),
        devices: devices.map((d) => ({
          publicKey: d.publicKey,
          certificate: d.certificate,
          createdAt: iso(d.createdAt),
        })),
      };
    },
  );
}
