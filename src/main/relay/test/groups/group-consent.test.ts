/**
 * docs/protocol.md §12 Groups: being put into a group follows the added
 * wallet's own rules, and group admins have exactly the rights the contract gives them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, envelopeTo, signIn, startRelay, type TestRelay, type TestUser } from '../harness.js';

let relay: TestRelay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => relay.close());

const api = (u: TestUser | string | undefined, method: string, path: string, body?: unknown) =>
  call(relay.url, method, path, { auth: typeof u === 'string' ? u : u?.apiKey, body });

async function privateGroup(creator: TestUser) {
  const r = await api(creator, 'POST', '/api/v1/groups', { name: 'Deals', isPublic: false });
  expect(r.status).toBe(201);
  return r.body as { id: string };
}

const inbox = async (u: TestUser) => (await api(u, 'GET', '/api/v1/envelopes')).body.envelopes as unknown[];

describe('group consent', () => {
  it('a stranger I block (policy block) cannot put me into a group nor post to me through one', async () => {
    const me = await signIn(relay.url);
    const stranger = await signIn(relay.url);
    await api(me, 'PUT', '/api/v1/me/policy', { unknownSenders: 'block' });
    const g = await privateGroup(stranger);
    const add = await api(stranger, 'POST', `/api/v1/groups/${g.id}/members`, { address: me.address });
    expect(add.status).toBe(403);
    expect(add.body.code).toBe('blocked');
    const post = await api(stranger, 'POST', `/api/v1/groups/${g.id}/envelopes`, envelopeTo(me));
    expect(post.status).toBe(400);
    expect(post.body.code).toBe('not-a-member');
    expect(await inbox(me)).toEqual([]);
    expect((await api(me, 'GET', '/api/v1/me/invitations')).body.invitations).toEqual([]);
  });

  it('one I block by name is refused too, and so is their admin adding me to their group', async () => {
    const me = await signIn(relay.url);
    const creator = await signIn(relay.url);
    const admin = await signIn(relay.url);
    await api(me, 'PUT', `/api/v1/blocks/${creator.address}`);
    const g = await privateGroup(creator);
    expect((await api(creator, 'POST', `/api/v1/groups/${g.id}/members`, { address: me.address })).body.code).toBe(
      'blocked',
    );
    await api(admin, 'PUT', `/api/v1/contacts/${creator.address}`);
    await api(creator, 'POST', `/api/v1/groups/${g.id}/members`, { address: admin.address });
    await api(creator, 'PUT', `/api/v1/groups/${g.id}/admins/${admin.address}`);
    // I even allow the admin: a block of the creator still wins
    await api(me, 'PUT', `/api/v1/contacts/${admin.address}`);
    expect((await api(admin, 'POST', `/api/v1/groups/${g.id}/members`, { address: me.address })).body.code).toBe(
      'blocked',
    );
  });

  it('a stranger only invites me: I get nothing of the group until I accept, and the creator sees me as invited', async () => {
    const me = await signIn(relay.url);
    const stranger = await signIn(relay.url);
    const g = await privateGroup(stranger);
    const add = await api(stranger, 'POST', `/api/v1/groups/${g.id}/members`, { address: me.address });
    expect(add.status).toBe(200);
    expect(add.body).toMatchObject({
      status: 'invited',
      members: [stranger.address],
      invited: [me.address],
      memberCount: 1,
    });
    const view = (await api(stranger, 'GET', `/api/v1/groups/${g.id}`)).body;
    expect(view.group.invited).toEqual([me.address]);
    expect(view.group.members).toEqual([stranger.address]);
    expect(Object.keys(view.memberDeviceKeys)).toEqual([stranger.address]);
    expect(Object.keys(view.memberDevices)).toEqual([stranger.address]);
    const post = await api(stranger, 'POST', `/api/v1/groups/${g.id}/envelopes`, envelopeTo(me));
    expect(post.status).toBe(400);
    expect(post.body.code).toBe('not-a-member');
    expect(await inbox(me)).toEqual([]);
    // an invited wallet is not a member: its key is not accepted on the group's routes
    expect((await api(me, 'GET', `/api/v1/groups/${g.id}`)).status).toBe(401);
    expect((await api(me, 'POST', `/api/v1/groups/${g.id}/envelopes`, envelopeTo(stranger))).status).toBe(401);
    expect((await api(me, 'GET', '/api/v1/groups?mine=1')).body.groups).toEqual([]);

    const invitations = (await api(me, 'GET', '/api/v1/me/invitations')).body.invitations;
    expect(invitations).toEqual([
      {
        groupId: g.id,
        name: 'Deals',
        creatorAddress: stranger.address,
        invitedBy: stranger.address,
        invitedAt: expect.any(String),
      },
    ]);
    // adding again keeps the one invitation
    expect((await api(stranger, 'POST', `/api/v1/groups/${g.id}/members`, { address: me.address })).body.status).toBe(
      'invited',
    );
    expect((await api(me, 'GET', '/api/v1/me/invitations')).body.invitations).toHaveLength(1);

    const accepted = await api(me, 'POST', `/api/v1/groups/${g.id}/invitation`, { accept: true });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      status: 'member',
      group: { id: g.id, members: [stranger.address, me.address] },
    });
    expect((await api(me, 'GET', '/api/v1/me/invitations')).body.invitations).toEqual([]);
    expect((await api(stranger, 'GET', `/api/v1/groups/${g.id}`)).body.group.invited).toEqual([]);
    expect((await api(stranger, 'POST', `/api/v1/groups/${g.id}/envelopes`, envelopeTo(me))).status).toBe(200);
    expect(await inbox(me)).toHaveLength(1);
    expect((await api(me, 'POST', `/api/v1/groups/${g.id}/invitation`, { accept: true })).status).toBe(404);
  });

  it('declining leaves me outside; an inviter can withdraw; someone I allow or wrote to adds me at once', async () => {
    const me = await signIn(relay.url);
    const stranger = await signIn(relay.url);
    const g = await privateGroup(stranger);
    await api(stranger, 'POST', `/api/v1/groups/${g.id}/members`, { address: me.address });
    const declined = await api(me, 'POST', `/api/v1/groups/${g.id}/invitation`, { accept: false });
    expect(declined.body).toEqual({ status: 'declined' });
    expect((await api(stranger, 'GET', `/api/v1/groups/${g.id}`)).body.group).toMatchObject({
      members: [stranger.address],
      invited: [],
    });
    expect((await api(me, 'POST', `/api/v1/groups/${g.id}/invitation`, { accept: true })).body.code).toBe(
      'no-invitation',
    );
    expect((await api(me, 'POST', `/api/v1/groups/${g.id}/invitation`, { accept: 'yes' })).status).toBe(400);
    expect((await api(me, 'POST', '/api/v1/groups/not-a-uuid/invitation', { accept: true })).status).toBe(404);

    await api(stranger, 'POST', `/api/v1/groups/${g.id}/members`, { address: me.address });
    expect((await api(stranger, 'DELETE', `/api/v1/groups/${g.id}/members/${me.address}`)).body).toEqual({ ok: true });
    expect((await api(me, 'GET', '/api/v1/me/invitations')).body.invitations).toEqual([]);

    // I wrote to them first: they are no stranger any more
    await api(me, 'POST', '/api/v1/envelopes', envelopeTo(stranger));
    expect((await api(stranger, 'POST', `/api/v1/groups/${g.id}/members`, { address: me.address })).body.status).toBe(
      'member',
    );
    const friend = await signIn(relay.url);
    const g2 = await privateGroup(friend);
    await api(me, 'PUT', `/api/v1/contacts/${friend.address}`);
    expect((await api(friend, 'POST', `/api/v1/groups/${g2.id}/members`, { address: me.address })).body.status).toBe(
      'member',
    );
  });

  it('joining a public group I was invited to makes me a member and clears the invitation', async () => {
    const me = await signIn(relay.url);
    const creator = await signIn(relay.url);
    const g = (await api(creator, 'POST', '/api/v1/groups', { name: 'Open', isPublic: true })).body;
    await api(creator, 'POST', `/api/v1/groups/${g.id}/members`, { address: me.address });
    expect((await api(me, 'POST', `/api/v1/groups/${g.id}/join`, {})).body.members).toContain(me.address);
    expect((await api(me, 'GET', '/api/v1/me/invitations')).body.invitations).toEqual([]);
  });
});

describe('group admins', () => {
  async function team() {
    const creator = await signIn(relay.url);
    const admin = await signIn(relay.url);
    const member = await signIn(relay.url);
    const g = await privateGroup(creator);
    for (const u of [admin, member]) {
      await api(u, 'PUT', `/api/v1/contacts/${creator.address}`);
      await api(creator, 'POST', `/api/v1/groups/${g.id}/members`, { address: u.address });
    }
    return { creator, admin, member, g };
  }

  it('only the creator names and removes admins; the view lists them', async () => {
    const { creator, admin, member, g } = await team();
    expect((await api(member, 'PUT', `/api/v1/groups/${g.id}/admins/${admin.address}`)).status).toBe(403);
    const made = await api(creator, 'PUT', `/api/v1/groups/${g.id}/admins/${admin.address}`);
    expect(made.status).toBe(200);
    expect(made.body.admins).toEqual([admin.address]);
    expect((await api(admin, 'PUT', `/api/v1/groups/${g.id}/admins/${member.address}`)).body.code).toBe('not-creator');
    expect((await api(member, 'GET', `/api/v1/groups/${g.id}`)).body.group.admins).toEqual([admin.address]);
    expect((await api(creator, 'PUT', `/api/v1/groups/${g.id}/admins/${creator.address}`)).status).toBe(400);
    const outsider = await signIn(relay.url);
    expect((await api(creator, 'PUT', `/api/v1/groups/${g.id}/admins/${outsider.address}`)).body.code).toBe(
      'not-a-member',
    );
    expect((await api(creator, 'PUT', `/api/v1/groups/${g.id}/admins/0xnope`)).status).toBe(400);
    expect((await api(creator, 'DELETE', `/api/v1/groups/${g.id}/admins/${admin.address}`)).body).toEqual({ ok: true });
    expect((await api(creator, 'GET', `/api/v1/groups/${g.id}`)).body.group.admins).toEqual([]);
    expect((await api(admin, 'PATCH', `/api/v1/groups/${g.id}`, { name: 'x' })).status).toBe(403);
  });

  it('an admin adds and removes members, edits the group and manages bot tokens, but cannot touch the creator or other admins', async () => {
    const { creator, admin, member, g } = await team();
    await api(creator, 'PUT', `/api/v1/groups/${g.id}/admins/${admin.address}`);
    expect((await api(member, 'PATCH', `/api/v1/groups/${g.id}`, { name: 'mine' })).status).toBe(403);
    expect((await api(admin, 'PATCH', `/api/v1/groups/${g.id}`, { name: 'Renamed' })).body.name).toBe('Renamed');
    const newcomer = await signIn(relay.url);
    const added = await api(admin, 'POST', `/api/v1/groups/${g.id}/members`, { address: newcomer.address });
    expect(added.body).toMatchObject({ status: 'invited', invited: [newcomer.address] });
    expect((await api(newcomer, 'GET', '/api/v1/me/invitations')).body.invitations[0]).toMatchObject({
      invitedBy: admin.address,
      creatorAddress: creator.address,
    });
    expect((await api(admin, 'DELETE', `/api/v1/groups/${g.id}/members/${member.address}`)).body).toEqual({ ok: true });
    expect((await api(admin, 'DELETE', `/api/v1/groups/${g.id}/members/${creator.address}`)).status).toBe(403);
    const second = await signIn(relay.url);
    await api(second, 'PUT', `/api/v1/contacts/${creator.address}`);
    await api(creator, 'POST', `/api/v1/groups/${g.id}/members`, { address: second.address });
    await api(creator, 'PUT', `/api/v1/groups/${g.id}/admins/${second.address}`);
    expect((await api(admin, 'DELETE', `/api/v1/groups/${g.id}/members/${second.address}`)).status).toBe(403);

    const minted = await api(admin, 'POST', `/api/v1/groups/${g.id}/tokens`, { name: 'bot' });
    expect(minted.status).toBe(201);
    expect((await api(admin, 'GET', `/api/v1/groups/${g.id}`)).body.botTokens).toHaveLength(1);
    // bot posts still name the creator
    const post = await api(minted.body.token, 'POST', `/api/v1/groups/${g.id}/envelopes`, envelopeTo(admin));
    expect(post.body.results[0].envelope.senderAddress).toBe(creator.address);
    expect((await api(admin, 'DELETE', `/api/v1/groups/${g.id}/tokens/${minted.body.botToken.id}`)).body).toEqual({
      ok: true,
    });
    // an admin who leaves loses the rights with the membership
    await api(admin, 'DELETE', `/api/v1/groups/${g.id}/members/${admin.address}`);
    expect((await api(creator, 'GET', `/api/v1/groups/${g.id}`)).body.group.admins).toEqual([second.address]);
  });
});
