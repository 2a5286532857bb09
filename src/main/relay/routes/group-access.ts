/**
 * Who may see or change a group, shared by the group routes: the group as a caller may see it,
 * as its creator or an admin may manage it, or as only its creator may; and its detail as the
 * routes answer it.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { StakeCurrency } from '../../../shared/api/common.js';
import type { GroupRole, GroupRow, RelayStore } from '../store/store.js';
import type { Caller } from '../http/auth.js';
import { forbidden, notFound, unauthorized } from '../http/errors.js';
import { presentGroup } from '../http/present.js';
import type { SendLimits } from './envelopes.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const IdParams = Type.Object({ id: Type.String({ description: 'group id (uuid)' }) });
export type IdReq = FastifyRequest<{ Params: { id: string } }>;

export interface GroupOptions extends SendLimits {
  now: () => number;
  stakeCurrency: StakeCurrency;
  randomUUID: () => string;
  /** false on a relay without a stake chain: a stake-gated wallet is invited like any other */
  stakesEnabled: boolean;
  /** groups one wallet may create (429 too-many-groups past it) */
  maxGroupsPerWallet: number;
}

export type GroupAccess = ReturnType<typeof groupAccess>;

export function groupAccess(store: RelayStore) {
  /**
   * The group, if this caller may see it: a token scoped to it, or a member's key. A key of a
   * wallet that is not a current member is not accepted for the group (401, docs/protocol.md §2);
   * an unknown group is 404 for everyone.
   */
  async function visibleGroup(req: IdReq): Promise<{ group: GroupRow; caller: Caller; role: GroupRole | null }> {
    const caller = req.caller;
    if (!caller) throw unauthorized();
    const id = req.params.id.toLowerCase();
    if (caller.kind === 'group-token' && caller.groupId !== id)
      throw unauthorized('this group token is for another group', 'token-scope');
    const group = UUID.test(id) ? await store.getGroup(id) : null;
    if (!group) throw notFound('no such group', 'group-not-found');
    if (caller.kind === 'group-token') return { group, caller, role: null };
    const role = await store.role(id, caller.address);
    if (role === null) throw unauthorized("this API key's wallet is not a member of that group", 'not-a-member');
    return { group, caller, role };
  }

  /** The group for a change its creator or admins may make: other members get 403. */
  async function managedGroup(
    req: IdReq,
  ): Promise<{ group: GroupRow; caller: Extract<Caller, { kind: 'api-key' }>; role: 'creator' | 'admin' }> {
    const { group, caller, role } = await visibleGroup(req);
    if (caller.kind !== 'api-key' || (role !== 'creator' && role !== 'admin'))
      throw forbidden('only the group creator or an admin can do this', 'not-admin');
    return { group, caller, role };
  }

  /** The group for a creator-only change: members who are not the creator get 403. */
  async function creatorsGroup(req: IdReq): Promise<GroupRow> {
    const { group, role } = await visibleGroup(req);
    if (role !== 'creator') throw forbidden('only the group creator can do this', 'not-creator');
    return group;
  }

  /** The group's detail; the creator and admins (and the group's bot) also see who is invited. */
  async function detail(group: GroupRow, managing = false) {
    const [members, admins] = await Promise.all([store.listMembers(group.id), store.listAdmins(group.id)]);
    return {
      ...presentGroup(group),
      creatorAddress: group.creatorAddress,
      members,
      admins,
      ...(managing ? { invited: await store.listInvited(group.id) } : {}),
    };
  }

  return { visibleGroup, managedGroup, creatorsGroup, detail };
}
