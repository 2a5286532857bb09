import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Address, OkBody, type StakeCurrency } from '../../../shared/api/common.js';
import { GroupSendBody, GroupSendResults } from '../../../shared/api/envelopes.js';
import {
  AddMemberBody, CreateGroupBody, GroupDetail, GroupList, GroupListQuery, GroupView, JoinBody, MintTokenBody, MintTokenResult, PatchGroupBody,
  type CreateGroupBody as CreateGroupBodyT, type PatchGroupBody as PatchGroupBodyT,
} from '../../../shared/api/groups.js';
import { mintSecret } from '../credentials.js';
import { groupPasswordMatches, hashGroupPassword } from '../group-password.js';
import type { GroupPatch, GroupRow, RelayStore } from '../store/store.js';
import { apiKeyCaller, type Caller } from '../http/auth.js';
import { checkAvatar } from '../http/avatar.js';
import { acceptAnyBody, parseEnvelopeBatch } from '../http/envelope-batch.js';
import { forbidden, notFound, unauthorized } from '../http/errors.js';
import { presentBotToken, presentGroup } from '../http/present.js';
import { fromStore } from '../http/store-errors.js';
import { presentOutcome } from '../http/present.js';
import { apiKeyAuth, apiKeyOrTokenAuth, errorResponses } from './route-docs.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IdParams = Type.Object({ id: Type.String({ description: 'group id (uuid)' }) });
type IdReq = FastifyRequest<{ Params: { id: string } }>;

export function groupRoutes(app: FastifyInstance, store: RelayStore, opts: { now: () => number; stakeCurrency: StakeCurrency; randomUUID: () => string }): void {
  const keyOnly = { auth: 'api-key' as const };
  const keyOrToken = { auth: 'api-key-or-group-token' as const };

  /** The group, if this caller may see it: a token scoped to it, or a member's key. Otherwise 401/404. */
  async function visibleGroup(req: IdReq): Promise<{ group: GroupRow; caller: Caller }> {
    const caller = req.caller;
    if (!caller) throw unauthorized();
    const id = req.params.id.toLowerCase();
    if (caller.kind === 'group-token' && caller.groupId !== id) throw unauthorized('this group token is for another group', 'token-scope');
    const group = UUID.test(id) ? await store.getGroup(id) : null;
    if (!group) throw notFound('no such group', 'group-not-found');
    if (caller.kind === 'api-key' && !(await store.isMember(id, caller.address))) throw notFound('no such group', 'group-not-found');
    return { group, caller };
  }

  /** The group for a creator-only change: members who are not the creator get 403, strangers 404. */
  async function creatorsGroup(req: IdReq): Promise<GroupRow> {
    const { group, caller } = await visibleGroup(req);
    if (caller.kind !== 'api-key' || caller.address !== group.creatorAddress) throw forbidden('only the group creator can do this', 'not-creator');
    return group;
  }

  async function detail(group: GroupRow) {
    return { ...presentGroup(group), creatorAddress: group.creatorAddress, members: await store.listMembers(group.id) };
  }

  app.get<{ Querystring: { mine?: '1'; limit?: number; before?: string } }>('/api/v1/groups', {
    config: keyOnly,
    schema: {
      tags: ['groups'], summary: 'List public groups, or with mine=1 the groups you belong to (newest first)', security: apiKeyAuth,
      querystring: GroupListQuery, response: { 200: GroupList, ...errorResponses(400, 401, 429) },
    },
  }, async (req) => {
    const caller = apiKeyCaller(req);
    const rows = await store.listGroups({ mine: req.query.mine === '1' ? caller.address : null, limit: req.query.limit ?? 100, before: req.query.before ?? null });
    return { groups: rows.map(presentGroup) };
  });

  app.post<{ Body: CreateGroupBodyT }>('/api/v1/groups', {
    config: keyOnly,
    schema: {
      tags: ['groups'], summary: 'Create a group; you become its creator and first member', security: apiKeyAuth,
      body: CreateGroupBody, response: { 201: GroupDetail, ...errorResponses(400, 401, 429) },
    },
  }, async (req, reply) => {
    const caller = apiKeyCaller(req);
    const avatar = checkAvatar(req.body.avatar) ?? null;
    const passwordHash = req.body.password ? await hashGroupPassword(req.body.password) : null;
    const group = await store.createGroup({ id: opts.randomUUID(), name: req.body.name.trim(), isPublic: req.body.isPublic, passwordHash, avatar, creatorAddress: caller.address, now: opts.now() });
    reply.code(201);
    return detail(group);
  });

  app.get<{ Params: { id: string } }>('/api/v1/groups/:id', {
    config: keyOrToken,
    schema: {
      tags: ['groups'], summary: 'Get a group with every member device key (seal one copy per key)', security: apiKeyOrTokenAuth,
      description: 'With a group token scoped to this group, or a member\'s API key. `botTokens` appears for a group token or the creator\'s key.',
      params: IdParams, response: { 200: GroupView, ...errorResponses(401, 404, 429) },
    },
  }, async (req) => {
    const { group, caller } = await visibleGroup(req);
    const devices = await store.memberDevices(group.id);
    const memberDeviceKeys: Record<string, string[]> = {};
    const memberDevices: Record<string, { publicKey: string; certificate: string }[]> = {};
    for (const [address, list] of devices) {
      memberDeviceKeys[address] = list.map((d) => d.publicKey);
      memberDevices[address] = list.map((d) => ({ publicKey: d.publicKey, certificate: d.certificate }));
    }
    const byCreator = caller.kind === 'group-token' || caller.address === group.creatorAddress;
    return {
      group: await detail(group),
      memberDeviceKeys,
      memberDevices,
      auth: caller.kind === 'group-token' ? { via: 'group-token' as const, senderAddress: group.creatorAddress } : { via: 'api-key' as const, senderAddress: caller.address },
      ...(byCreator ? { botTokens: (await store.listBotTokens(group.id)).map(presentBotToken) } : {}),
    };
  });

  app.post<{ Params: { id: string } }>('/api/v1/groups/:id/envelopes', {
    config: keyOrToken,
    validatorCompiler: acceptAnyBody,
    schema: {
      tags: ['groups'], summary: 'Send sealed envelopes into a group, one per member device', security: apiKeyOrTokenAuth,
      description: 'Each toAddress must be a current member. With a group token the relay names the creator as sender (`via: group-token`). All or nothing.',
      params: IdParams, body: GroupSendBody, response: { 200: GroupSendResults, ...errorResponses(400, 401, 404, 413, 429) },
    },
  }, async (req) => {
    const { group, caller } = await visibleGroup(req);
    const { items, batch } = parseEnvelopeBatch(req.body, true);
    const via = caller.kind === 'group-token' ? ('group-token' as const) : ('api-key' as const);
    const sender = caller.kind === 'group-token' ? group.creatorAddress : caller.address;
    const outcomes = await fromStore(
      store.deliver({ senderAddress: sender, groupId: group.id, via, items, now: opts.now() }),
      (i) => (batch ? `envelopes[${i}]` : 'envelope'),
    );
    return { results: outcomes.map((o) => presentOutcome(o, opts.stakeCurrency)), via };
  });

  app.patch<{ Params: { id: string }; Body: PatchGroupBodyT }>('/api/v1/groups/:id', {
    config: keyOnly,
    schema: {
      tags: ['groups'], summary: 'Edit name, visibility, password (null removes it) or avatar (creator only)', security: apiKeyAuth,
      params: IdParams, body: PatchGroupBody, response: { 200: GroupDetail, ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const group = await creatorsGroup(req);
    const patch: GroupPatch = {};
    if (req.body.name !== undefined) patch.name = req.body.name.trim();
    if (req.body.isPublic !== undefined) patch.isPublic = req.body.isPublic;
    if (req.body.password !== undefined) patch.passwordHash = req.body.password === null ? null : await hashGroupPassword(req.body.password);
    if (req.body.avatar !== undefined) patch.avatar = checkAvatar(req.body.avatar) ?? null;
    return detail(await store.patchGroup(group.id, patch));
  });

  app.post<{ Params: { id: string }; Body: { address: string } }>('/api/v1/groups/:id/members', {
    config: keyOnly,
    schema: {
      tags: ['groups'], summary: 'Add a member (creator only)', security: apiKeyAuth,
      params: IdParams, body: AddMemberBody, response: { 200: GroupDetail, ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const group = await creatorsGroup(req);
    await store.addMember(group.id, req.body.address.toLowerCase(), opts.now());
    return detail((await store.getGroup(group.id)) as GroupRow);
  });

  app.delete<{ Params: { id: string; address: string } }>('/api/v1/groups/:id/members/:address', {
    config: keyOnly,
    schema: {
      tags: ['groups'], summary: 'Remove a member (creator), or leave (a member removing themselves)', security: apiKeyAuth,
      description: 'The creator cannot leave while other members remain (409).',
      params: Type.Object({ id: Type.String(), address: Address }), response: { 200: OkBody, ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (req) => {
    const { group, caller } = await visibleGroup(req);
    const target = req.params.address.toLowerCase();
    const me = (caller as Extract<Caller, { kind: 'api-key' }>).address;
    if (target !== me && me !== group.creatorAddress) throw forbidden('only the group creator can remove other members', 'not-creator');
    const removed = await fromStore(store.removeMember(group.id, target));
    if (!removed) throw notFound('that address is not a member', 'not-a-member');
    return { ok: true as const };
  });

  app.post<{ Params: { id: string }; Body: { password?: string } }>('/api/v1/groups/:id/join', {
    config: keyOnly,
    schema: {
      tags: ['groups'], summary: 'Join a public group (with its password when it has one)', security: apiKeyAuth,
      description: 'A wrong or missing password is 403. Private groups cannot be joined (404 when you cannot see them).',
      params: IdParams, body: Type.Optional(JoinBody), response: { 200: GroupDetail, ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const caller = apiKeyCaller(req);
    const id = req.params.id.toLowerCase();
    const group = UUID.test(id) ? await store.getGroup(id) : null;
    const member = group ? await store.isMember(id, caller.address) : false;
    if (!group || (!group.isPublic && !member)) throw notFound('no such group', 'group-not-found');
    if (member) return detail(group);
    if (group.passwordHash !== null) {
      const password = req.body?.password;
      if (!password || !(await groupPasswordMatches(password, group.passwordHash))) throw forbidden(password ? 'wrong group password' : 'this group needs a password', 'wrong-password');
    }
    await store.addMember(id, caller.address, opts.now());
    return detail((await store.getGroup(id)) as GroupRow);
  });

  app.post<{ Params: { id: string }; Body: { name: string } }>('/api/v1/groups/:id/tokens', {
    config: keyOnly,
    schema: {
      tags: ['groups'], summary: 'Mint a bot token for this group (creator only; the secret is shown once)', security: apiKeyAuth,
      params: IdParams, body: MintTokenBody, response: { 201: MintTokenResult, ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req, reply) => {
    const group = await creatorsGroup(req);
    const { secret, hash, prefix } = mintSecret('group-token');
    const row = { id: opts.randomUUID(), groupId: group.id, name: req.body.name.trim(), prefix, createdAt: opts.now(), revokedAt: null };
    await store.insertBotToken({ ...row, hash });
    reply.code(201);
    return { token: secret, botToken: presentBotToken(row) };
  });

  app.delete<{ Params: { id: string; tokenId: string } }>('/api/v1/groups/:id/tokens/:tokenId', {
    config: keyOnly,
    schema: {
      tags: ['groups'], summary: 'Revoke a bot token (creator only); it answers 401 at once', security: apiKeyAuth,
      params: Type.Object({ id: Type.String(), tokenId: Type.String() }), response: { 200: OkBody, ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req) => {
    const group = await creatorsGroup(req);
    const tokenId = req.params.tokenId.toLowerCase();
    if (!UUID.test(tokenId) || !(await store.revokeBotToken(group.id, tokenId, opts.now()))) throw notFound('no such bot token', 'token-not-found');
    return { ok: true as const };
  });

}
