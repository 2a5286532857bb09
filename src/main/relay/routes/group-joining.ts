/**
 * A group from the joining wallet's side: the invitations waiting for its answer, its answer,
 * and joining a public group (with the group's password when it has one).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  GroupDetail,
  InvitationAnswer,
  InvitationAnswerBody,
  InvitationList,
  JoinBody,
} from '../../../shared/api/groups.js';
import { GroupPasswordAttempts } from '../auth/group-password-attempts.js';
import type { GroupRow, RelayStore } from '../store/store.js';
import { apiKeyCaller } from '../http/auth.js';
import { forbidden, notFound } from '../http/errors.js';
import { iso } from '../http/present.js';
import { IdParams, UUID, type GroupAccess, type GroupOptions } from './group-access.js';
import { apiKeyAuth, errorResponses } from './route-docs.js';

export function groupJoiningRoutes(
  app: FastifyInstance,
  store: RelayStore,
  opts: GroupOptions,
  { detail }: GroupAccess,
): void {
  const keyOnly = { auth: 'api-key' as const };
  const passwordAttempts = new GroupPasswordAttempts();

  app.get(
    '/api/v1/me/invitations',
    {
      config: keyOnly,
      schema: {
        tags: ['groups'],
        summary: 'Group invitations waiting for your answer (newest first)',
        security: apiKeyAuth,
        response: { 200: InvitationList, ...errorResponses(401, 429) },
      },
    },
    async (req) => {
      const rows = await store.listInvitations(apiKeyCaller(req).address);
      return {
        invitations: rows.map((r) => ({
          groupId: r.groupId,
          name: r.name,
          creatorAddress: r.creatorAddress,
          invitedBy: r.invitedBy,
          invitedAt: iso(r.invitedAt),
        })),
      };
    },
  );

  app.post<{ Params: { id: string }; Body: { accept: boolean } }>(
    '/api/v1/groups/:id/invitation',
    {
      config: keyOnly,
      schema: {
        tags: ['groups'],
        summary: 'Accept (join, no password needed) or decline a group invitation',
        security: apiKeyAuth,
        description:
          '404 `no-invitation` when you have no invitation to that group. To refuse further invitations from the inviter, block them.',
        params: IdParams,
        body: InvitationAnswerBody,
        response: { 200: InvitationAnswer, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (req) => {
      const caller = apiKeyCaller(req);
      const id = req.params.id.toLowerCase();
      const group = UUID.test(id) ? await store.getGroup(id) : null;
      if (!group || !(await store.answerInvitation(id, caller.address, req.body.accept, opts.now())))
        throw notFound('you have no invitation to that group', 'no-invitation');
      if (!req.body.accept) return { status: 'declined' as const };
      return { status: 'member' as const, group: await detail((await store.getGroup(id)) as GroupRow) };
    },
  );

  app.post<{ Params: { id: string }; Body: { password?: string } }>(
    '/api/v1/groups/:id/join',
    {
      config: keyOnly,
      schema: {
        tags: ['groups'],
        summary: 'Join a public group (with its password when it has one)',
        security: apiKeyAuth,
        description:
          'A wrong or missing password is 403; after 5 wrong ones for a group (from anyone), 429 `too-many-attempts` with Retry-After. Private groups cannot be joined (404 when you cannot see them). ' +
          'A relay low on disk answers 507 `storage-full`.',
        params: IdParams,
        body: Type.Optional(JoinBody),
        response: { 200: GroupDetail, ...errorResponses(400, 401, 403, 404, 429, 507) },
      },
    },
    async (req, reply) => {
      const caller = apiKeyCaller(req);
      const id = req.params.id.toLowerCase();
      const group = UUID.test(id) ? await store.getGroup(id) : null;
      const member = group ? await store.isMember(id, caller.address) : false;
      if (!group || (!group.isPublic && !member)) throw notFound('no such group', 'group-not-found');
      if (member) return detail(group);
      if (group.passwordHash !== null) {
        const password = req.body?.password;
        if (!password) throw forbidden('this group needs a password', 'wrong-password');
        await passwordAttempts.check(id, password, group.passwordHash, opts.now(), reply);
      }
      await opts.checkDisk();
      await store.addMember(id, caller.address, opts.now());
      return detail((await store.getGroup(id)) as GroupRow);
    },
  );
}
