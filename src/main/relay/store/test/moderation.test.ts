import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addr, devKey } from './temp-store.js';
import { sendOne } from './deliveries.js';
import { STORE_BACKENDS, useTestStore } from './backends.js';

describe.each(STORE_BACKENDS)('$name store: who may join, and moderation', (backend) => {
  const t = useTestStore(backend);

  async function key(address: string, now = 1_000) {
    const id = randomUUID();
    await t.store.insertApiKey({
      id,
      address,
      hash: Buffer.from(id.replace(/-/g, ''), 'hex'),
      label: null,
      prefix: 'sk_live_x',
      deviceKey: null,
      createdAt: now,
      lastUsedAt: null,
      revokedAt: null,
    });
    return id;
  }

  it('open mode admits a new wallet and makes its account at once; closed mode admits only known wallets', async () => {
    const known = addr(1);
    expect(await t.store.admitSignIn(known, { mode: 'open', invite: null, now: 5_000 })).toBe('admitted');
    expect(await t.store.getAccount(known)).not.toBeNull();
    expect(await t.store.admitSignIn(addr(2), { mode: 'closed', invite: null, now: 6_000 })).toBe(
      'registration-closed',
    );
    expect(await t.store.getAccount(addr(2))).toBeNull();
    // the mode never touches a wallet the relay knows, nor does a missing code
    expect(await t.store.admitSignIn(known, { mode: 'closed', invite: null, now: 7_000 })).toBe('admitted');
    expect(await t.store.admitSignIn(known, { mode: 'invite', invite: null, now: 8_000 })).toBe('admitted');
    const [user] = await t.store.listUsers();
    expect(user).toMatchObject({ address: known, lastSignIn: 8_000, state: 'active' });
  });

  it('invite mode spends one use of a live code per new wallet and refuses used-up, expired and revoked codes', async () => {
    await t.store.createInvite({ code: 'twoUsesCode1', uses: 2, expiresAt: 100_000, now: 1_000 });
    await t.store.createInvite({ code: 'expiringCode', uses: 5, expiresAt: 2_000, now: 1_000 });
    await t.store.createInvite({ code: 'revokedCode1', uses: 5, expiresAt: null, now: 1_000 });
    const rule = (invite: string | null, now = 1_500) => ({ mode: 'invite' as const, invite, now });

    expect(await t.store.admitSignIn(addr(1), rule(null))).toBe('invite-required');
    expect(await t.store.admitSignIn(addr(1), rule('nosuchcode1'))).toBe('invite-invalid');
    expect(await t.store.admitSignIn(addr(1), rule('twoUsesCode1'))).toBe('admitted');
    // a wallet admitted once needs no code again, and spends none
    expect(await t.store.admitSignIn(addr(1), rule(null))).toBe('admitted');
    expect(await t.store.admitSignIn(addr(1), rule('twoUsesCode1'))).toBe('admitted');
    expect(await t.store.admitSignIn(addr(2), rule('twoUsesCode1'))).toBe('admitted');
    expect(await t.store.admitSignIn(addr(3), rule('twoUsesCode1'))).toBe('invite-invalid');

    expect(await t.store.admitSignIn(addr(3), rule('expiringCode', 2_000))).toBe('invite-invalid');
    expect(await t.store.revokeInvite('revokedCode1', 1_600)).toBe(true);
    expect(await t.store.revokeInvite('nosuchcode1', 1_600)).toBe(false);
    expect(await t.store.admitSignIn(addr(3), rule('revokedCode1'))).toBe('invite-invalid');
    expect(await t.store.getAccount(addr(3))).toBeNull();

    const invites = await t.store.listInvites();
    expect(invites.map((i) => [i.code, i.usesLeft, i.revokedAt !== null]).sort()).toEqual([
      ['expiringCode', 5, false],
      ['revokedCode1', 5, true],
      ['twoUsesCode1', 0, false],
    ]);
  });

  it('a suspension revokes every active key of the wallet, refuses its sign-ins and keeps its queue; lifting it admits again', async () => {
    const a = addr(1);
    await t.store.admitSignIn(a, { mode: 'open', invite: null, now: 1_000 });
    await t.store.addDevice({ publicKey: devKey(1), address: a, certificate: 'cert', now: 1_000 });
    const k1 = await key(a);
    const k2 = await key(a);
    const other = await key(addr(2));
    await sendOne(t.store, addr(2), a);

    expect(await t.store.setSuspended(addr(9), true, null, 2_000)).toBe(false);
    expect(await t.store.setSuspended(a, true, 'spam', 2_000)).toBe(true);
    const keys = await t.store.listApiKeys(a);
    expect(keys.map((k) => [k.id, k.revokedAt])).toEqual(
      expect.arrayContaining([
        [k1, 2_000],
        [k2, 2_000],
      ]),
    );
    expect((await t.store.listApiKeys(addr(2))).find((k) => k.id === other)?.revokedAt).toBeNull();
    expect(await t.store.admitSignIn(a, { mode: 'open', invite: null, now: 3_000 })).toBe('suspended');

    const users = await t.store.listUsers();
    expect(users.find((u) => u.address === a)).toEqual({
      address: a,
      handle: null,
      devices: 1,
      lastSignIn: 1_000,
      queued: 1,
      state: 'suspended',
    });
    expect(users.find((u) => u.address === addr(2))?.state).toBe('active');

    expect(await t.store.setSuspended(a, false, null, 4_000)).toBe(true);
    expect(await t.store.admitSignIn(a, { mode: 'closed', invite: null, now: 5_000 })).toBe('admitted');
    expect((await t.store.listUsers()).find((u) => u.address === a)).toMatchObject({ state: 'active', queued: 1 });
  });

  it('deleting an account removes what is its own; its groups pass to their longest-serving admin or go', async () => {
    const [a, admin1, admin2, member] = [addr(1), addr(2), addr(3), addr(4)];
    for (const w of [a, admin1, admin2, member])
      await t.store.admitSignIn(w, { mode: 'open', invite: null, now: 1_000 });
    await t.store.addDevice({ publicKey: devKey(1), address: a, certificate: 'cert', now: 1_000 });
    await key(a);
    await t.store.setHandle(a, 'leaving', 1_000);
    await t.store.grantEntitlement(a, 'developer-api');
    const group = (id: string) => ({
      id,
      name: id,
      isPublic: false,
      passwordHash: null,
      avatar: null,
      creatorAddress: a,
      now: 1_000,
    });
    const kept = '0b9c1a4e-1111-4222-8333-000000000001';
    const gone = '0b9c1a4e-1111-4222-8333-000000000002';
    await t.store.createGroup(group(kept));
    await t.store.createGroup(group(gone));
    await t.store.addMember(kept, admin2, 2_000);
    await t.store.addMember(kept, admin1, 3_000);
    await t.store.addMember(kept, member, 1_500);
    await t.store.setAdmin(kept, admin1, true);
    await t.store.setAdmin(kept, admin2, true);
    await t.store.addMember(gone, member, 2_000);
    await t.store.insertBotToken({
      id: randomUUID(),
      groupId: kept,
      name: 'bot',
      prefix: 'gtk_live_x',
      mintedBy: null,
      hash: Buffer.alloc(32, 7),
      createdAt: 1_000,
      revokedAt: null,
    });
    await sendOne(t.store, member, a);
    await t.store.insertBlob(
      { id: 'blobOfTheLeaver01', uploader: a, size: 10, createdAt: 1_000, expiresAt: 9e12 },
      1e9,
    );

    expect(await t.store.deleteAccount(addr(9))).toBeNull();
    expect(await t.store.deleteAccount(a)).toEqual({
      blobIds: ['blobOfTheLeaver01'],
      groupsPassed: 1,
      groupsDeleted: 1,
    });
    expect(await t.store.getAccount(a)).toBeNull();
    expect(await t.store.findHandle('leaving')).toBeNull();
    expect(await t.store.listDevices(a)).toEqual([]);
    expect(await t.store.listApiKeys(a)).toEqual([]);
    expect(await t.store.getEntitlements(a)).toEqual([]);
    expect(await t.store.getBlob('blobOfTheLeaver01')).toBeNull();
    expect((await t.store.listUsers()).map((u) => u.address)).not.toContain(a);
    // the longest-serving admin, not the first to join or the first made admin
    expect((await t.store.getGroup(kept))?.creatorAddress).toBe(admin2);
    expect((await t.store.listMembers(kept)).sort()).toEqual([admin1, admin2, member].sort());
    expect(await t.store.listBotTokens(kept)).toEqual([]);
    expect(await t.store.getGroup(gone)).toBeNull();
    expect(await t.store.listGroups({ mine: member, limit: 10, before: null })).toHaveLength(1);
    // a new sign-in of the same wallet starts afresh (in invite mode it would need a code)
    expect(await t.store.admitSignIn(a, { mode: 'invite', invite: null, now: 5_000 })).toBe('invite-required');
  });
});
