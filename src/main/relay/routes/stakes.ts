import type { FastifyInstance } from 'fastify';
import type { Hex } from 'viem';
import { OkBody } from '../../../shared/api/common.js';
import {
  ReleaseBody,
  StakeConfig,
  StakeIdParams,
  StakeList,
  StakeListQuery,
  StakeRecord,
} from '../../../shared/api/stakes.js';
import { apiKeyCaller } from '../http/auth.js';
import { HttpError, badRequest, forbidden, notFound } from '../http/errors.js';
import { stakeUnavailable, type StakeService } from '../chain/stake-service.js';
import type { RelayStore } from '../store/store.js';
import { isLowS } from '../auth/low-s.js';
import { apiKeyAuth, errorResponses } from './route-docs.js';

const LIST_LIMIT = 200;

/** GET /stake-config, the caller's stakes, and the recipient's release signature (docs/protocol.md §13 Stakes). */
export function stakeRoutes(app: FastifyInstance, store: RelayStore, stakes: StakeService): void {
  const auth = { auth: 'api-key' as const };

  app.get(
    '/api/v1/stake-config',
    {
      schema: {
        tags: ['stakes'],
        summary: 'The chain and escrow this relay takes stakes on (no credential)',
        security: [],
        description:
          '`enabled: false` on a relay without a chain: `stake-gate` cannot be set there, and senders to such recipients are routed `request`.',
        response: { 200: StakeConfig, ...errorResponses(429) },
      },
    },
    async () => stakes.publicConfig(),
  );

  const mine = async (address: string, id: string) => {
    if (!stakes.enabled) throw stakeUnavailable();
    const row = await store.getStake(id.toLowerCase());
    if (!row || (row.sender !== address && row.recipient !== address))
      throw notFound('no such stake of yours', 'stake-not-found');
    return row;
  };

  app.get<{ Querystring: { role?: 'sent' | 'received' } }>(
    '/api/v1/stakes',
    {
      config: auth,
      schema: {
        tags: ['stakes'],
        summary: 'Your stakes, sent and received, newest first, with their status read from the chain',
        security: apiKeyAuth,
        description:
          'A stake appears once it opened a contact request. `releaseSignature` is set once the recipient accepted: the sender submits it with `releaseWithSig`.',
        querystring: StakeListQuery,
        response: { 200: StakeList, ...errorResponses(400, 401, 409, 429, 503) },
      },
    },
    async (req) => {
      if (!stakes.enabled) throw stakeUnavailable();
      const rows = await store.listStakes(apiKeyCaller(req).address, req.query.role ?? null, LIST_LIMIT);
      const fresh = await Promise.all(rows.map((r) => stakes.refreshed(r)));
      return { stakes: fresh.map((r) => stakes.present(r)) };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/v1/stakes/:id',
    {
      config: auth,
      schema: {
        tags: ['stakes'],
        summary: 'One of your stakes, its status read from the chain',
        security: apiKeyAuth,
        params: StakeIdParams,
        response: { 200: StakeRecord, ...errorResponses(400, 401, 404, 409, 429, 503) },
      },
    },
    async (req) => stakes.present(await stakes.refreshed(await mine(apiKeyCaller(req).address, req.params.id))),
  );

  app.post<{ Params: { id: string }; Body: { signature: string } }>(
    '/api/v1/stakes/:id/release',
    {
      config: auth,
      schema: {
        tags: ['stakes'],
        summary: 'Store your signed release of a stake you received, for its sender to submit',
        security: apiKeyAuth,
        description:
          "Recipient only. The relay checks the EIP-712 `Release(bytes32 id)` signature against the escrow's domain. 409 `stake-settled` once the stake is no longer active.",
        params: StakeIdParams,
        body: ReleaseBody,
        response: { 200: OkBody, ...errorResponses(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (req) => {
      const caller = apiKeyCaller(req);
      const row = await stakes.refreshed(await mine(caller.address, req.params.id));
      if (row.recipient !== caller.address)
        throw forbidden('only the recipient of a stake can release it', 'not-recipient');
      if (row.status !== 'active') throw new HttpError(409, `the stake is already ${row.status}`, 'stake-settled');
      const signature = req.body.signature as Hex;
      if (!isLowS(signature) || !(await stakes.isReleaseSignature(row, signature)))
        throw badRequest('not your EIP-712 Release signature for this stake on this escrow', 'bad-signature');
      await store.setReleaseSignature(row.id, signature);
      return { ok: true as const };
    },
  );
}
