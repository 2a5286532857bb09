import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../store.js';
import { addr, devKey } from './temp-store.js';

import { STORE_BACKENDS, useTestStore } from './backends.js';

describe.each(STORE_BACKENDS)('$name store', (backend) => {
  const t = useTestStore(backend);

  const A = addr(1);
  const B = addr(2);
  const C = addr(3);
  const gid = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;
  const hashOf = (s: string) => createHash('sha256').update(s).digest();

  function group(
    n: number,
    over: Partial<{ isPublic: boolean; creatorAddress: string; now: number; passwordHash: string | null }> = {},
  ) {
    return t.store.createGroup({
      id: gid(n),
      name: `group ${n}`,
      isPublic: over.isPublic ?? true,
      passwordHash: over.passwordHash ?? null,
      avatar: null,
      creatorAddress: over.creatorAddress ?? A,
      now: over.now ?? n * 10,
    });
  }

  async function code(p: Promise<unknown>): Promise<string> {
    const e = await p.then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(StoreError);
    return (e as StoreError).code;
  }

  describe('groups', () => {
    it('creates a group whose creator is its first member', async () => {
      const g = await group(1, { passwordHash: 'h' });
      expect(g).toEqual({
        id: gid(1),
        name: 'group 1',
        isPublic: true,
        verified: false,
        passwordHash: 'h',
        avatar: null,
        creatorAddress: A,
        createdAt: 10,
        memberCount: 1,
      });
      expect(await t.store.listMembers(gid(1))).toEqual([A]);
      expect(await t.store.getGroup(gid(1).toUpperCase())).toEqual(g);
      expect(await t.store.getGroup(gid(99))).toBeNull();
    });

    it('patches only the fields given, and null clears', async () => {
      await group(1, { passwordHash: 'secret-hash' });
      const renamed = await t.store.patchGroup(gid(1), { name: 'renamed' });
      expect(renamed).toMatchObject({ name: 'renamed', isPublic: true, passwordHash: 'secret-hash', avatar: null });
      const changed = await t.store.patchGroup(gid(1), {
        isPublic: false,
        passwordHash: null,
        avatar: 'https://example.invalid/a.png',
      });
      expect(changed).toMatchObject({
        name: 'renamed',
        isPublic: false,
        passwordHash: null,
        avatar: 'https://example.invalid/a.png',
      });
      expect(await code(t.store.patchGroup(gid(2), { name: 'x' }))).toBe('not-found');
    });

    it('lists public groups newest first, paged by the last id seen; mine lists the member’s own, private ones too', async () => {
      await group(1);
      await group(2, { isPublic: false });
      await group(3);
      await group(4, { creatorAddress: B });
      await t.store.addMember(gid(4), A, 50);
      await group(5, { creatorAddress: B, isPublic: false });

      const ids = (rows: Array<{ id: string }>) => rows.map((g) => g.id);
      expect(ids(await t.store.listGroups({ mine: null, limit: 100, before: null }))).toEqual([gid(4), gid(3), gid(1)]);
      expect(ids(await t.store.listGroups({ mine: null, limit: 2, before: null }))).toEqual([gid(4), gid(3)]);
      expect(ids(await t.store.listGroups({ mine: null, limit: 2, before: gid(3) }))).toEqual([gid(1)]);
      expect(await t.store.listGroups({ mine: null, limit: 2, before: gid(77) })).toEqual([]);
      const mine = await t.store.listGroups({ mine: A, limit: 100, before: null });
      expect(ids(mine)).toEqual([gid(4), gid(3), gid(2), gid(1)]);
      expect(mine[0].memberCount).toBe(2);
      expect(ids(await t.store.listGroups({ mine: A, limit: 2, before: gid(3) }))).toEqual([gid(2), gid(1)]);
      expect(ids(await t.store.listGroups({ mine: B, limit: 100, before: null }))).toEqual([gid(5), gid(4)]);
    });

    it('breaks ties in creation time by creation order, newest first', async () => {
      await group(1, { now: 5 });
      await group(2, { now: 5 });
      expect((await t.store.listGroups({ mine: null, limit: 10, before: null })).map((g) => g.id)).toEqual([
        gid(2),
        gid(1),
      ]);
      expect((await t.store.listGroups({ mine: null, limit: 10, before: gid(2) })).map((g) => g.id)).toEqual([gid(1)]);
    });

    it('adds and removes members; the creator cannot leave while others remain', async () => {
      await group(1);
      await t.store.addMember(gid(1), B.toUpperCase().replace('0X', '0x'), 20);
      await t.store.addMember(gid(1), B, 21);
      expect(await t.store.isMember(gid(1), B)).toBe(true);
      expect(await t.store.listMembers(gid(1))).toEqual([A, B]);
      expect(await code(t.store.addMember(gid(9), B, 1))).toBe('not-found');

      expect(await code(t.store.removeMember(gid(1), A))).toBe('creator-cannot-leave');
      expect(await t.store.isMember(gid(1), A)).toBe(true);
      expect(await t.store.removeMember(gid(1), C)).toBe(false);
      expect(await t.store.removeMember(gid(1), B)).toBe(true);
      expect(await t.store.isMember(gid(1), B)).toBe(false);
      expect(await t.store.removeMember(gid(1), A)).toBe(true);
      expect((await t.store.getGroup(gid(1)))?.memberCount).toBe(0);
      expect(await t.store.removeMember(gid(9), A)).toBe(false);
    });

    it('maps every member to its current devices, [] for a member without any', async () => {
      await group(1);
      await t.store.addMember(gid(1), B, 20);
      await t.store.addDevice({ publicKey: devKey(1), address: A, certificate: '0x01', now: 1 });
      await t.store.addDevice({ publicKey: devKey(2), address: A, certificate: '0x02', now: 2 });
      await t.store.addDevice({ publicKey: devKey(3), address: C, certificate: '0x03', now: 3 });
      await t.store.revokeDevice(A, devKey(2), 4);
      const devices = await t.store.memberDevices(gid(1));
      expect([...devices.keys()]).toEqual([A, B]);
      expect(devices.get(A)).toEqual([
        { publicKey: devKey(1), address: A, certificate: '0x01', createdAt: 1, revokedAt: null },
      ]);
      expect(devices.get(B)).toEqual([]);
    });

    it('stores bot tokens by hash, lists them and revokes them within their group only', async () => {
      await group(1);
      await group(2);
      const token = {
        id: 'tok-1',
        groupId: gid(1),
        name: 'bot',
        prefix: 'gtk_live_ab',
        createdAt: 5,
        revokedAt: null,
        mintedBy: A,
      };
      await t.store.insertBotToken({ ...token, hash: hashOf('tok-1') });
      expect(await t.store.findBotTokenByHash(hashOf('tok-1'))).toEqual({ ...token, hash: hashOf('tok-1') });
      expect(await t.store.findBotTokenByHash(hashOf('other'))).toBeNull();
      expect(await t.store.listBotTokens(gid(1))).toEqual([token]);
      expect(await t.store.listBotTokens(gid(2))).toEqual([]);
      expect(await t.store.revokeBotToken(gid(2), 'tok-1', 9)).toBe(false);
      expect(await t.store.revokeBotToken(gid(1), 'tok-1', 9)).toBe(true);
      expect((await t.store.findBotTokenByHash(hashOf('tok-1')))?.revokedAt).toBe(9);
      expect(
        await code(t.store.insertBotToken({ ...token, id: 'tok-2', groupId: gid(9), hash: hashOf('tok-2') })),
      ).toBe('not-found');
    });

    it('caps live tokens per group (too-many-tokens); a revoked one makes room', async () => {
      await group(1);
      await group(2);
      const mint = (n: number, groupId = gid(1)) =>
        t.store.insertBotToken(
          {
            id: `cap-${n}`,
            groupId,
            name: 'b',
            prefix: 'gtk_live_ab',
            createdAt: n,
            revokedAt: null,
            mintedBy: A,
            hash: hashOf(`cap-${n}`),
          },
          2,
        );
      await mint(1);
      await mint(2);
      expect(await code(mint(3))).toBe('too-many-tokens');
      await mint(4, gid(2));
      expect(await t.store.revokeBotToken(gid(1), 'cap-1', 9)).toBe(true);
      await mint(5);
      expect((await t.store.listBotTokens(gid(1))).map((x) => x.id)).toEqual(['cap-1', 'cap-2', 'cap-5']);
    });

    it('revokes the tokens an admin minted when the admin is demoted or removed, and only theirs', async () => {
      await group(1);
      await group(2);
      for (const m of [B, C]) {
        await t.store.addMember(gid(1), m, 10);
        expect(await t.store.setAdmin(gid(1), m, true, 11)).toBe(true);
      }
      await t.store.addMember(gid(2), B, 10);
      const mint = (id: string, mintedBy: string, groupId = gid(1)) =>
        t.store.insertBotToken({
          id,
          groupId,
          name: id,
          prefix: 'gtk_live_ab',
          createdAt: 12,
          revokedAt: null,
          mintedBy,
          hash: hashOf(id),
        });
      await mint('by-a', A);
      await mint('by-b', B);
      await mint('by-c', C);
      await mint('by-b-elsewhere', B, gid(2));
      const revoked = async (groupId: string) =>
        Object.fromEntries((await t.store.listBotTokens(groupId)).map((x) => [x.id, x.revokedAt]));
      expect(await t.store.setAdmin(gid(1), B, false, 20)).toBe(true);
      expect(await revoked(gid(1))).toEqual({ 'by-a': null, 'by-b': 20, 'by-c': null });
      expect(await t.store.removeMember(gid(1), C, 30)).toBe(true);
      expect(await revoked(gid(1))).toEqual({ 'by-a': null, 'by-b': 20, 'by-c': 30 });
      expect(await revoked(gid(2))).toEqual({ 'by-b-elsewhere': null });
    });

    it('lets the operator verify a group', async () => {
      await group(1);
      expect(await t.store.setGroupVerified(gid(1), true)).toBe(true);
      expect((await t.store.getGroup(gid(1)))?.verified).toBe(true);
      expect(await t.store.setGroupVerified(gid(2), true)).toBe(false);
    });
  });
});
