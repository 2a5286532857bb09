/**
 * The group routes: listing, creating, viewing and sending into groups, edits, members and
 * admins. Invitations and joining are in group-joining.ts, bot tokens in group-bot-tokens.ts.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Address, OkBody } from '../../../shared/api/common.js';
import { GroupSendBody, GroupSendResults } from '../../../shared/api/envelopes.js';
import {
  AddMemberBody,
  AddMemberResult,
  CreateGroupBody,
  GroupDetail,
  GroupList,
  GroupListQuery,
  GroupView,
  PatchGroupBody,
  type CreateGroupBody as CreateGroupBodyT,
  type PatchGroupBody as PatchGroupBodyT,
} from '../../../shared/api/groups.js';
import { hashGroupPassword } from '../auth/group-password.js';
import type { GroupPatch, GroupRow, RelayStore } from '../store/store.js';
import { apiKeyCaller, type Caller } from '../http/auth.js';
import { checkAvatar } from '../http/avatar.js';
import { acceptAnyBody, parseEnvelopeBatch } from '../http/envelope-batch.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import { presentBotToken, presentGroup, presentOutcome } from '../http/present.js';
import { fromStore } from '../http/store-errors.js';
import { apiKeyAuth, apiKeyOrTokenAuth, errorResponses } from './route-docs.js';
import { groupAccess, IdParams, type GroupOptions } from './group-access.js';
import { groupBotTokenRoutes } from './group-bot-tokens.js';
import { groupJoiningRoutes } from './group-joining.js';
import { checkName } from '../http/text-fields.js';

export function groupRoutes(app: FastifyInstance, store: RelayStore, opts: GroupOptions): void {
  const keyOnly = { auth: 'api-key' as const };
  const keyOrToken = { auth: 'api-key-or-group-token' as const };
  const access = groupAccess(store);
  const { visibleGroup, managedGroup, creatorsGroup, detail } = access;

  app.get<{ Querystring: { mine?: '1'; limit?: number; before?: string } }>(
    '/api/v1/groups',
    {
      config: keyOnly,
      schema: {
        tags: ['groups'],
        summary: 'List public groups, or with mine=1 the groups you belong to (newest first)',
        security: apiKeyAuth,
        querystring: GroupListQuery,
        response: { 200: GroupList, ...errorResponses(400, 401, 429) },
      },
    },
    async (req) => {
      const caller = apiKeyCaller(req);
      const rows = await store.listGroups({
        mine: req.query.mine === '1' ? caller.address : null,
        limit: req.query.limit ?? 100,
        before: req.query.before ?? null,
      });
      return { groups: rows.map(presentGroup) };
    },
  );

  app.post<{ Body: CreateGroupBodyT }>(
    '/api/v1/groups',
    {
      config: keyOnly,
      schema: {
        tags: ['groups'],
        summary: 'Create a group; you become its creator and first member',
        security: apiKeyAuth,
        description:
          'A wallet creates at most `--max-groups-per-wallet` groups (default 100): past it 429 `too-many-groups`. ' +
          'A relay low on disk answers 507 `storage-full`.',
        body: CreateGroupBody,
        response: { 201: GroupDetail, ...errorResponses(400, 401, 429, 507) },
      },
    },
    async (req, reply) => {
      const caller = apiKeyCaller(req);
      const avatar = checkAvatar(req.body.avatar) ?? null;
      await opts.checkDisk();
      const passwordHash = req.body.password ? await hashGroupPassword(req.body.password) : null;
      const group = await fromStore(
        store.createGroup(
          {
            id: opts.randomUUID(),
            name: checkName(req.body.name, 'the group name'),
            isPublic: req.body.isPublic,
            passwordHash,
            avatar,
            creatorAddress: caller.address,
            now: opts.now(),
          },
          opts.maxGroupsPerWallet,
        ),
      );
      reply.code(201);
      return detail(group, true);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/v1/groups/:id',
    {
      config: keyOrToken,
      schema: {
        tags: ['groups'],
        summary: 'Get a group with every member device key (seal one copy per key)',
        security: apiKeyOrTokenAuth,
        description:
          "With a group token scoped to this group, or a member's API key (a key of anyone else, invited wallets included, is 401). " +
          "`botTokens` and `group.invited` appear for a group token, the creator's key and admins' keys.",
        params: IdParams,
        response: { 200: GroupView, ...errorResponses(401, 404, 429) },
      },
    },
    async (req) => {
      const { group, caller, role } = await visibleGroup(req);
      const devices = await store.memberDevices(group.id);
      const memberDeviceKeys: Record<string, string[]> = {};
      const memberDevices: Record<string, { publicKey: string; certificate: string }[]> = {};
      for (const [address, list] of devices) {
        memberDeviceKeys[address] = list.map((d) => d.publicKey);
        memberDevices[address] = list.map((d) => ({ publicKey: d.publicKey, certificate: d.certificate }));
      }
      // Admins manage bot tokens too (docs/protocol.md §12 Groups), so they see the list the creator sees.
      const managing = caller.kind === 'group-token' || role === 'creator' || role === 'admin';
      return {
        group: await detail(group, managing),
        memberDeviceKeys,
        memberDevices,
        auth:
          caller.kind === 'group-token'
            ? { via: 'group-token' as const, senderAddress: group.creatorAddress }
            : { via: 'api-key' as const, senderAddress: caller.address },
        ...(managing ? { botTokens: (await store.listBotTokens(group.id)).map(presentBotToken) } : {}),
      };
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/v1/groups/:id/envelopes',
    {
      config: keyOrToken,
      validatorCompiler: acceptAnyBody,
      schema: {
        tags: ['groups'],
        summary: 'Send sealed envelopes into a group, one per member device',
        security: apiKeyOrTokenAuth,
        description:
          'Each toAddress must be a current member (an invited wallet is not: 400 `not-a-member`). With a group token the relay names the creator as sender ' +
          "(`via: group-token`) and stamps the token's name on each envelope as `botName`; a member who blocks the creator, or the admin who minted the token, gets `blocked`. All or nothing, queue quotas included (429 `recipient-full`); 507 `storage-full` when the relay is low on disk.",
        params: IdParams,
        body: GroupSendBody,
        response: { 200: GroupSendResults, ...errorResponses(400, 401, 404, 413, 429, 507) },
      },
    },
    async (req) => {
      const { group, caller } = await visibleGroup(req);
      const { items, batch } = parseEnvelopeBatch(req.body, true);
      await opts.checkDisk();
      const via = caller.kind === 'group-token' ? ('group-token' as const) : ('api-key' as const);
      const sender = caller.kind === 'group-token' ? group.creatorAddress : caller.address;
      const botName = caller.kind === 'group-token' ? caller.name : null;
      const minter = caller.kind === 'group-token' ? caller.mintedBy : null;
      const outcomes = await fromStore(
        store.deliver({
          senderAddress: sender,
          groupId: group.id,
          via,
          botName,
          minter,
          items,
          now: opts.now(),
          limits: opts.limits,
        }),
        (i) => (batch ? `envelopes[${i}]` : 'envelope'),
      );
      return { results: outcomes.map((o) => presentOutcome(o, opts.stakeCurrency)), via };
    },
  );

  app.patch<{ Params: { id: string }; Body: PatchGroupBodyT }>(
    '/api/v1/groups/:id',
    {
      config: keyOnly,
      schema: {
        tags: ['groups'],
        summary: 'Edit name, visibility, password (null removes it) or avatar (creator or admin)',
        security: apiKeyAuth,
        description: 'A relay low on disk answers 507 `storage-full`.',
        params: IdParams,
        body: PatchGroupBody,
        response: { 200: GroupDetail, ...errorResponses(400, 401, 403, 404, 429, 507) },
      },
    },
    async (req) => {
      const { group } = await managedGroup(req);
      const patch: GroupPatch = {};
      if (req.body.name !== undefined) patch.name = checkName(req.body.name, 'the group name');
      if (req.body.isPublic !== undefined) patch.isPublic = req.body.isPublic;
      if (req.body.avatar !== undefined) patch.avatar = checkAvatar(req.body.avatar) ?? null;
      await opts.checkDisk();
      if (req.body.password !== undefined)
        patch.passwordHash = req.body.password === null ? null : await hashGroupPassword(req.body.password);
      return detail(await store.patchGroup(group.id, patch), true);
    },
  );

  app.post<{ Params: { id: string }; Body: { address: string } }>(
    '/api/v1/groups/:id/members',
    {
      config: keyOnly,
      schema: {
        tags: ['groups'],
        summary: 'Add a member, or invite them (creator or admin)',
        security: apiKeyAuth,
        description:
          "The added wallet's own rules decide: if it allows you or has written to you it is a member at once (`status: member`); " +
          'if it blocks you or the creator, or blocks all strangers, 403 `blocked`; if it asks strangers for a stake (policy stake-gate) and you have paid it none, ' +
          '403 `stake-required` (a staked contact request opens the contact, after which invitations work); otherwise it is invited (`status: invited`) and joins only if it accepts ' +
          '(`POST /api/v1/groups/{id}/invitation`). An invited wallet gets nothing of the group. A pending invitation is a contact request: with your undelivered ' +
          'requests to that wallet it counts toward `--max-requests-per-pair` (429 `too-many-requests-pending` past it). A relay low on disk answers 507 `storage-full`.',
        params: IdParams,
        body: AddMemberBody,
        response: { 200: AddMemberResult, ...errorResponses(400, 401, 403, 404, 429, 507) },
      },
    },
    async (req) => {
      const { group, caller } = await managedGroup(req);
      await opts.checkDisk();
      const rules = { maxRequestsPerPair: opts.limits.maxRequestsPerPair, stakesEnabled: opts.stakesEnabled };
      const status = await fromStore(
        store.addOrInvite(group.id, req.body.address.toLowerCase(), caller.address, opts.now(), rules),
      );
      if (status === 'blocked') throw forbidden('that wallet does not accept group invitations from you', 'blocked');
      if (status === 'stake-required') {
        throw forbidden(
          'that wallet asks strangers for a refundable stake: send it a staked contact request first; once that is paid, you can invite it',
          'stake-required',
        );
      }
      return { ...(await detail((await store.getGroup(group.id)) as GroupRow, true)), status };
    },
  );

  app.delete<{ Params: { id: string; address: string } }>(
    '/api/v1/groups/:id/members/:address',
    {
      config: keyOnly,
      schema: {
        tags: ['groups'],
        summary:
          'Remove a member or withdraw an invitation (creator or admin), or leave (a member removing themselves)',
        security: apiKeyAuth,
        description:
          'Admins cannot remove the creator or other admins (403). The creator cannot leave while other members remain (409).',
        params: Type.Object({ id: Type.String(), address: Address }),
        response: { 200: OkBody, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => {
      const { group, caller, role } = await visibleGroup(req);
      const target = req.params.address.toLowerCase();
      const me = (caller as Extract<Caller, { kind: 'api-key' }>).address;
      if (target !== me) {
        if (role !== 'creator' && role !== 'admin')
          throw forbidden('only the group creator or an admin can remove other members', 'not-admin');
        const targetRole = await store.role(group.id, target);
        if (role === 'admin' && (targetRole === 'creator' || targetRole === 'admin'))
          throw forbidden('admins cannot remove the creator or other admins', 'not-creator');
        if (targetRole === null) {
          if (await store.answerInvitation(group.id, target, false, opts.now())) return { ok: true as const };
          throw notFound('that address is neither a member nor invited', 'not-a-member');
        }
      }
      const removed = await fromStore(store.removeMember(group.id, target, opts.now()));
      if (!removed) throw notFound('that address is not a member', 'not-a-member');
      return { ok: true as const };
    },
  );

  for (const [verb, admin] of [
    ['put', true],
    ['delete', false],
  ] as const) {
    app[verb]<{ Params: { id: string; address: string } }>(
      '/api/v1/groups/:id/admins/:address',
      {
        config: keyOnly,
        schema: {
          tags: ['groups'],
          summary: admin ? 'Make a member an admin (creator only)' : 'Take admin rights back (creator only)',
          description:
            'Admins may add and remove members (not the creator nor other admins), edit the group and mint or revoke bot tokens. Bot posts still name the creator.',
          security: apiKeyAuth,
          params: Type.Object({ id: Type.String(), address: Address }),
          response: { 200: admin ? GroupDetail : OkBody, ...errorResponses(400, 401, 403, 404, 429) },
        },
      },
      async (req) => {
        const group = await creatorsGroup(req);
        const target = req.params.address.toLowerCase();
        if (target === group.creatorAddress)
          throw badRequest('the creator already has every right in the group', 'is-creator');
        if (!(await store.setAdmin(group.id, target, admin, opts.now())))
          throw notFound('that address is not a member', 'not-a-member');
        return admin ? detail(group, true) : { ok: true as const };
      },
    );
  }

  groupJoiningRoutes(app, store, opts, access);
  groupBotTokenRoutes(app, store, opts, access);
}
