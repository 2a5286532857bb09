/**
 * Settings → My relay in main: the commands reach the built-in relay through its admin socket,
 * and what they change holds at once for the people on that relay.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, newProfile, startRelay } from '../../client/test/harness.js';
import { myRelayHandlers } from '../my-relay.js';

afterAll(cleanup);

describe('my relay', () => {
  it('creates an invite a newcomer joins with, lists people, suspends and deletes one', async () => {
    const relay = await startRelay({ registration: 'invite' });
    const h = myRelayHandlers(() => relay.dataDir);

    const invite = await h['myRelay.createInvite']({ uses: 1, expiresInDays: 7 });
    expect(invite.uses).toBe(1);
    expect(invite.link).toBe(`${relay.url}/join#invite=${invite.code}`);
    await expect(newProfile(relay.url)).rejects.toMatchObject({ code: 'invite-required' });
    const bob = await newProfile(relay.url, { invite: invite.code, handle: 'team_bob' });
    expect(await h['myRelay.invites']({})).toEqual([
      { code: invite.code, usesLeft: 0, expiresAt: invite.expiresAt, revoked: false },
    ]);
    expect(await h['myRelay.users']({})).toEqual([
      expect.objectContaining({ address: bob.address, handle: 'team_bob', devices: 1, state: 'active' }),
    ]);
    expect((await h['myRelay.stats']({})).accounts).toBe(1);

    const suspended = await h['myRelay.suspend']({ address: bob.address });
    expect(suspended).toEqual([expect.objectContaining({ address: bob.address, state: 'suspended' })]);
    // at once: the key bob holds no longer works
    await expect(bob.m.handlers()['devices.list']({})).rejects.toMatchObject({ status: 401 });
    expect(await h['myRelay.unsuspend']({ address: bob.address })).toEqual([
      expect.objectContaining({ state: 'active' }),
    ]);

    expect(await h['myRelay.deleteAccount']({ address: bob.address })).toEqual([]);
    await expect(h['myRelay.suspend']({ address: bob.address })).rejects.toMatchObject({
      code: 'relay-admin-refused',
    });
  }, 120_000);

  it('says the built-in relay is off when it does not run', async () => {
    const h = myRelayHandlers(() => null);
    await expect(h['myRelay.users']({})).rejects.toMatchObject({
      code: 'local-relay-off',
      message: expect.stringContaining('not running'),
    });
  });
});
