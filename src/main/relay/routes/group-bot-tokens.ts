/** A group's bot tokens: minted and revoked by its creator or an admin. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { OkBody } from '../../../shared/api/common.js';
import { MintTokenBody, MintTokenResult } from '../../../shared/api/groups.js';
import { mintSecret } from '../auth/credentials.js';
import { MAX_TOKENS_PER_GROUP, type RelayStore } from '../store/store.js';
import { fromStore } from '../http/store-errors.js';
import { notFound } from '../http/errors.js';
import { presentBotToken } from '../http/present.js';
import { IdParams, UUID, type GroupAccess, type GroupOptions } from './group-access.js';
import { apiKeyAuth, errorResponses } from './route-docs.js';
import { checkName } from '../http/text-fields.js';

export function groupBotTokenRoutes(
  app: FastifyInstance,
  store: RelayStore,
  opts: GroupOptions,
  { managedGroup }: GroupAccess,
): void {
  const keyOnly = { auth: 'api-key' as const };

  app.post<{ Params: { id: string }; Body: { name: string } }>(
    '/api/v1/groups/:id/tokens',
    {
      config: keyOnly,
      schema: {
        tags: ['groups'],
        summary: 'Mint a bot token for this group (creator or admin; the secret is shown once)',
        security: apiKeyAuth,
        description:
          `A group has at most ${MAX_TOKENS_PER_GROUP} live tokens (409 \`too-many-tokens\`). A token answers for whoever minted it: ` +
          'a member who blocks the minter gets nothing from it (`blocked`), and it is revoked when the minter stops being an admin or a member. ' +
          'A relay low on disk answers 507 `storage-full`.',
        params: IdParams,
        body: MintTokenBody,
        response: { 201: MintTokenResult, ...errorResponses(400, 401, 403, 404, 409, 429, 507) },
      },
    },
    async (req, reply) => {
      const { group, caller } = await managedGroup(req);
      await opts.checkDisk();
      const { secret, hash, prefix } = mintSecret('group-token');
      const row = {
        id: opts.randomUUID(),
        groupId: group.id,
        name: checkName(req.body.name, 'the token name'),
        prefix,
        createdAt: opts.now(),
        revokedAt: null,
        mintedBy: caller.address,
      };
      await fromStore(store.insertBotToken({ ...row, hash }, MAX_TOKENS_PER_GROUP));
      reply.code(201);
      return { token: secret, botToken: presentBotToken(row) };
    },
  );

  app.delete<{ Params: { id: string; tokenId: string } }>(
    '/api/v1/groups/:id/tokens/:tokenId',
    {
      config: keyOnly,
      schema: {
        tags: ['groups'],
        summary: 'Revoke a bot token (creator or admin); it answers 401 at once',
        security: apiKeyAuth,
        params: Type.Object({ id: Type.String(), tokenId: Type.String() }),
        response: { 200: OkBody, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (req) => {
      const { group } = await managedGroup(req);
      const tokenId = req.params.tokenId.toLowerCase();
      if (!UUID.test(tokenId) || !(await store.revokeBotToken(group.id, tokenId, opts.now())))
        throw notFound('no such bot token', 'token-not-found');
      return { ok: true as const };
    },
  );
}
