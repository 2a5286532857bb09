import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, envelopeTo, signIn, startRelay, type TestRelay, type TestUser } from '../harness.js';
import type { Envelope, SendResult } from '../../../../shared/api/envelopes.js';

let relay: TestRelay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => relay.close());

const api = (u: TestUser | string | undefined, method: string, path: string, body?: unknown) =>
  call(relay.url, method, path, { auth: typeof u === 'string' ? u : u?.apiKey, body });

async function groupOf(creator: TestUser, extra: Record<string, unknown> = {}) {
  const r = await api(creator, 'POST', '/api/v1/groups', { name: 'Team', isPublic: true, ...extra });
  expect(r.status).toBe(201);
  return r.body;
}

/** Adds a wallet that allows the creator first, so it becomes a member at once (docs/protocol.md §12 Groups). */
async function addFriend(creator: TestUser, groupId: string, member: TestUser) {
  await api(member, 'PUT', `/api/v1/contacts/${creator.address}`);
  const r = await api(creator, 'POST', `/api/v1/groups/${groupId}/members`, { address: member.address });
  expect(r.body.status).toBe('member');
  return r;
}

describe('groups', () => {
  it('create, list public and mine, view with member device keys and certificates', async () => {
    const c = await signIn(relay.url);
    const m = await signIn(relay.url);
    const g = await groupOf(c, { avatar: 'data:image/png;base64,iVBORw0KGgo=' });
    expect(g).toMatchObject({
      name: 'Team',
      isPublic: true,
      hasPassword: false,
      verified: false,
      memberCount: 1,
      creatorAddress: c.address,
      members: [c.address],
    });
    const priv = await groupOf(c, { name: 'Secret', isPublic: false });
    const pub = await api(m, 'GET', '/api/v1/groups');
    expect(pub.body.groups.map((x: { id: string }) => x.id)).toContain(g.id);
    expect(pub.body.groups.map((x: { id: string }) => x.id)).not.toContain(priv.id);
    const mine = await api(c, 'GET', '/api/v1/groups?mine=1');
    expect(mine.body.groups.map((x: { id: string }) => x.id).slice(0, 2)).toEqual([priv.id, g.id]);
    expect((await addFriend(c, g.id, m)).body.memberCount).toBe(2);
    const view = await api(m, 'GET', `/api/v1/groups/${g.id}`);
    expect(view.status).toBe(200);
    expect(view.body.memberDeviceKeys).toEqual({ [c.address]: [c.deviceKey], [m.address]: [m.deviceKey] });
    expect(view.body.memberDevices[m.address][0].publicKey).toBe(m.deviceKey);
    expect(view.body.auth).toEqual({ via: 'api-key', senderAddress: m.address });
    expect(view.body.botTokens).toBeUndefined();
    expect((await api(c, 'GET', `/api/v1/groups/${g.id}`)).body.botTokens).toEqual([]);
  });

  it('paging with limit and before; limit out of range is 400', async () => {
    const c = await signIn(relay.url);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await groupOf(c, { isPublic: false })).id);
    const page1 = await api(c, 'GET', '/api/v1/groups?mine=1&limit=2');
    expect(page1.body.groups.map((g: { id: string }) => g.id)).toEqual([ids[2], ids[1]]);
    const page2 = await api(c, 'GET', `/api/v1/groups?mine=1&limit=2&before=${ids[1]}`);
    expect(page2.body.groups.map((g: { id: string }) => g.id)).toEqual([ids[0]]);
    expect((await api(c, 'GET', '/api/v1/groups?limit=0')).status).toBe(400);
    expect((await api(c, 'GET', '/api/v1/groups?mine=2')).status).toBe(400);
  });

  it("authentication comes first, then existence: a non-member's key is 401, unknown and bad ids 404", async () => {
    const c = await signIn(relay.url);
    const s = await signIn(relay.url);
    const g = await groupOf(c);
    expect((await api(undefined, 'GET', `/api/v1/groups/${g.id}`)).status).toBe(401);
    expect((await api('sk_live_bogus', 'GET', '/api/v1/groups/not-a-uuid')).status).toBe(401);
    const stranger = await api(s, 'GET', `/api/v1/groups/${g.id}`);
    expect(stranger.status).toBe(401);
    expect(stranger.body.code).toBe('not-a-member');
    expect((await api(c, 'GET', '/api/v1/groups/not-a-uuid')).status).toBe(404);
    expect((await api(c, 'GET', '/api/v1/groups/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await api(s, 'POST', `/api/v1/groups/${g.id}/envelopes`, envelopeTo(c))).status).toBe(401);
    expect((await api(s, 'GET', '/api/v1/groups/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('join: public with password (403 wrong/missing), private is 404 to strangers', async () => {
    const c = await signIn(relay.url);
    const j = await signIn(relay.url);
    const g = await groupOf(c, { password: 'open sesame' });
    expect(g.hasPassword).toBe(true);
    expect((await api(j, 'POST', `/api/v1/groups/${g.id}/join`, {})).status).toBe(403);
    expect((await api(j, 'POST', `/api/v1/groups/${g.id}/join`, { password: 'nope' })).status).toBe(403);
    const ok = await api(j, 'POST', `/api/v1/groups/${g.id}/join`, { password: 'open sesame' });
    expect(ok.status).toBe(200);
    expect(ok.body.members).toContain(j.address);
    const priv = await groupOf(c, { isPublic: false });
    expect((await api(j, 'POST', `/api/v1/groups/${priv.id}/join`, {})).status).toBe(404);
  });

  it('creator-only changes are 403 for members; the creator cannot leave a group with others', async () => {
    const c = await signIn(relay.url);
    const m = await signIn(relay.url);
    const g = await groupOf(c);
    await addFriend(c, g.id, m);
    expect((await api(m, 'PATCH', `/api/v1/groups/${g.id}`, { name: 'Mine now' })).status).toBe(403);
    expect((await api(m, 'POST', `/api/v1/groups/${g.id}/tokens`, { name: 'bot' })).status).toBe(403);
    expect((await api(m, 'DELETE', `/api/v1/groups/${g.id}/members/${c.address}`)).status).toBe(403);
    expect((await api(c, 'DELETE', `/api/v1/groups/${g.id}/members/${c.address}`)).status).toBe(409);
    const patched = await api(c, 'PATCH', `/api/v1/groups/${g.id}`, {
      name: 'Renamed',
      password: 'pw',
      isPublic: false,
    });
    expect(patched.body).toMatchObject({ name: 'Renamed', hasPassword: true, isPublic: false });
    expect((await api(c, 'PATCH', `/api/v1/groups/${g.id}`, { avatar: 'javascript:alert(1)' })).status).toBe(400);
    expect((await api(c, 'PATCH', `/api/v1/groups/${g.id}`, {})).status).toBe(400);
    // a member leaves
    expect((await api(m, 'DELETE', `/api/v1/groups/${g.id}/members/${m.address}`)).body).toEqual({ ok: true });
    expect((await api(m, 'GET', `/api/v1/groups/${g.id}`)).status).toBe(401);
  });

  it('group sends: every member gets inbox, non-members are 400, blocks apply, all or nothing', async () => {
    const c = await signIn(relay.url);
    const m = await signIn(relay.url);
    const o = await signIn(relay.url);
    const g = await groupOf(c);
    await addFriend(c, g.id, m);
    const r = await api(c, 'POST', `/api/v1/groups/${g.id}/envelopes`, [envelopeTo(m), envelopeTo(c)]);
    expect(r.status).toBe(200);
    expect(r.body.via).toBe('api-key');
    expect(r.body.results.map((x: SendResult) => x.routed)).toEqual(['inbox', 'inbox']);
    expect(r.body.results[0].envelope).toMatchObject({
      groupId: g.id,
      via: 'api-key',
      routed: 'inbox',
      senderAddress: c.address,
    });
    const bad = await api(c, 'POST', `/api/v1/groups/${g.id}/envelopes`, { envelopes: [envelopeTo(m), envelopeTo(o)] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/envelopes\[1\]/);
    expect((await api(m, 'GET', '/api/v1/envelopes')).body.envelopes).toHaveLength(1);
    expect((await api(c, 'POST', `/api/v1/groups/${g.id}/envelopes`, envelopeTo(m, { asRequest: true }))).status).toBe(
      400,
    );
    await api(m, 'PUT', `/api/v1/blocks/${c.address}`);
    expect((await api(c, 'POST', `/api/v1/groups/${g.id}/envelopes`, envelopeTo(m))).body.results[0]).toEqual({
      routed: 'blocked',
    });
    // a group send does not make the sender "known" for direct sends
    await api(m, 'DELETE', `/api/v1/blocks/${c.address}`);
    await api(m, 'DELETE', `/api/v1/contacts/${c.address}`);
    expect((await api(c, 'POST', '/api/v1/envelopes', envelopeTo(m))).body.routed).toBe('request');
  });

  it('bot tokens: minted once, scoped to one group, post as the creator with via group-token, revoked at once', async () => {
    const c = await signIn(relay.url);
    const m = await signIn(relay.url);
    const g = await groupOf(c);
    const other = await groupOf(c);
    await addFriend(c, g.id, m);
    const minted = await api(c, 'POST', `/api/v1/groups/${g.id}/tokens`, { name: 'deploy bot' });
    expect(minted.status).toBe(201);
    const token: string = minted.body.token;
    expect(token.startsWith('gtk_live_')).toBe(true);
    expect(minted.body.botToken).toMatchObject({ name: 'deploy bot', revokedAt: null, prefix: token.slice(0, 15) });
    const view = await api(token, 'GET', `/api/v1/groups/${g.id}`);
    expect(view.body.auth).toEqual({ via: 'group-token', senderAddress: c.address });
    expect(view.body.botTokens).toHaveLength(1);
    expect(JSON.stringify(view.body)).not.toContain(token);
    expect((await api(token, 'GET', `/api/v1/groups/${other.id}`)).status).toBe(401);
    expect((await api(token, 'GET', '/api/v1/me')).status).toBe(401);
    expect((await api(token, 'GET', '/api/v1/groups')).status).toBe(401);
    const post = await api(token, 'POST', `/api/v1/groups/${g.id}/envelopes`, envelopeTo(m));
    expect(post.body.via).toBe('group-token');
    expect(post.body.results[0].envelope).toMatchObject({ senderAddress: c.address, via: 'group-token' });
    expect((await api(c, 'DELETE', `/api/v1/groups/${g.id}/tokens/${minted.body.botToken.id}`)).body).toEqual({
      ok: true,
    });
    expect((await api(token, 'POST', `/api/v1/groups/${g.id}/envelopes`, envelopeTo(m))).status).toBe(401);
    expect((await api(c, 'GET', `/api/v1/groups/${g.id}`)).body.botTokens[0].revokedAt).not.toBeNull();
    expect((await api(c, 'DELETE', `/api/v1/groups/${g.id}/tokens/00000000-0000-4000-8000-000000000000`)).status).toBe(
      404,
    );
  });

  it("botName: a token post carries the minted name; a member's group send and a direct send carry null", async () => {
    const c = await signIn(relay.url);
    const m = await signIn(relay.url);
    const g = await groupOf(c);
    await addFriend(c, g.id, m);
    const minted = await api(c, 'POST', `/api/v1/groups/${g.id}/tokens`, { name: '  deploy-notifier ' });
    const token: string = minted.body.token;
    const post = await api(token, 'POST', `/api/v1/groups/${g.id}/envelopes`, envelopeTo(m));
    expect(post.body.results[0].envelope).toMatchObject({ via: 'group-token', botName: 'deploy-notifier' });
    expect(
      (await api(c, 'POST', `/api/v1/groups/${g.id}/envelopes`, envelopeTo(m))).body.results[0].envelope,
    ).toMatchObject({ via: 'api-key', botName: null });
    expect((await api(c, 'POST', '/api/v1/envelopes', envelopeTo(m))).body.envelope).toMatchObject({
      via: null,
      botName: null,
    });
    // the pull (built in SQLite) says the same, in queue order
    const pulled = (await api(m, 'GET', '/api/v1/envelopes')).body.envelopes;
    expect(pulled.map((e: Envelope) => [e.via, e.botName])).toEqual([
      ['group-token', 'deploy-notifier'],
      ['api-key', null],
      [null, null],
    ]);
  });

  it('a member without devices maps to [] and a removed member gets nothing more', async () => {
    const c = await signIn(relay.url);
    const m = await signIn(relay.url);
    const g = await groupOf(c);
    const lonely = '0x' + '12'.repeat(20);
    // a wallet with no devices cannot accept an invitation through the API; the store adds it directly
    await relay.store.addMember(g.id, lonely, Date.now());
    await addFriend(c, g.id, m);
    expect((await api(c, 'GET', `/api/v1/groups/${g.id}`)).body.memberDeviceKeys[lonely]).toEqual([]);
    expect((await api(c, 'DELETE', `/api/v1/groups/${g.id}/members/${m.address}`)).status).toBe(200);
    expect((await api(c, 'POST', `/api/v1/groups/${g.id}/envelopes`, envelopeTo(m))).status).toBe(400);
  });
});
