import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StoreError, type QueueLimits, type StakeRow } from '../../store.js';
import { direct, item } from '../deliveries.js';
import { addr, devKey } from '../temp-store.js';
import { STORE_BACKENDS, useTestStore } from '../backends.js';

/**
 * The limits of docs/protocol.md (Limits) as the stores keep them, on both backends: the share of
 * a device's queue that contact requests may fill, invitations counted as contact requests (and
 * refused by a stake gate), and the caps on groups and API keys.
 */
describe.each(STORE_BACKENDS)('$name store limits', (backend) => {
  const t = useTestStore(backend);

  const ME = addr(0xa);
  const FRIEND = addr(0xf);
  const stranger = (n: number) => addr(0x100 + n);
  const gid = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;
  const rules = { maxRequestsPerPair: 3, stakesEnabled: true };

  async function refusal(p: Promise<unknown>): Promise<StoreError> {
    const e = await p.then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(StoreError);
    return e as StoreError;
  }
  const limited = (limits: QueueLimits, from: string, count: number, over: Parameters<typeof item>[1] = {}) => ({
    ...direct(
      from,
      Array.from({ length: count }, () => item(ME, { recipientDeviceKey: devKey(1), ...over })),
    ),
    limits,
  });
  const group = (n: number, creatorAddress: string, max?: number) =>
    t.store.createGroup(
      { id: gid(n), name: `g${n}`, isPublic: false, passwordHash: null, avatar: null, creatorAddress, now: n },
      max,
    );

  describe('the requests share of a device queue', () => {
    const limits: QueueLimits = { maxQueued: 6, maxQueuedBytes: Infinity, maxRequestsPerPair: 100 };

    it("strangers' requests fill half of --max-queued (requests-full past it, within one batch too); contacts still get the rest", async () => {
      await t.store.addDevice({ publicKey: devKey(1), address: ME, certificate: '0x00', now: 1 });
      await t.store.setContact(ME, FRIEND, 'allow', 'allow');
      expect((await t.store.deliver(limited(limits, stranger(1), 2))).map((o) => o.routed)).toEqual([
        'request',
        'request',
      ]);
      // a fourth request would pass half the quota (3 of 6), whoever sends it, and the whole batch goes
      const over = await refusal(t.store.deliver(limited(limits, stranger(2), 2)));
      expect([over.code, over.index]).toEqual(['requests-full', 1]);
      expect((await t.store.deliver(limited(limits, stranger(2), 1)))[0].routed).toBe('request');
      expect((await refusal(t.store.deliver(limited(limits, stranger(3), 1)))).code).toBe('requests-full');
      // a known sender's intro is routed request too, and counts so
      expect((await refusal(t.store.deliver(limited(limits, FRIEND, 1, { asRequest: true })))).code).toBe(
        'requests-full',
      );
      expect((await t.store.deliver(limited(limits, FRIEND, 3))).map((o) => o.routed)).toEqual([
        'inbox',
        'inbox',
        'inbox',
      ]);
      expect((await refusal(t.store.deliver(limited(limits, FRIEND, 1)))).code).toBe('recipient-full');
      expect(await t.store.pull(ME, devKey(1), 100)).toHaveLength(6);
    });

    it('counts request bytes against half of --max-queued-mib, and an ack frees the share', async () => {
      await t.store.addDevice({ publicKey: devKey(1), address: ME, certificate: '0x00', now: 1 });
      // 24 bytes of ciphertext each (deliveries.ts): two fit in 50, a third does not
      const bytes: QueueLimits = { maxQueued: 1000, maxQueuedBytes: 100, maxRequestsPerPair: 100 };
      await t.store.deliver(limited(bytes, stranger(1), 2));
      expect((await refusal(t.store.deliver(limited(bytes, stranger(2), 1)))).code).toBe('requests-full');
      const [first] = await t.store.pull(ME, devKey(1), 1);
      expect(await t.store.ack(ME, devKey(1), [first.id])).toBe(1);
      expect((await t.store.deliver(limited(bytes, stranger(2), 1)))[0].routed).toBe('request');
    });

    it('holds across deliveries answered by one commit', async () => {
      await t.store.addDevice({ publicKey: devKey(1), address: ME, certificate: '0x00', now: 1 });
      const outcomes = await Promise.allSettled(
        [1, 2, 3, 4, 5].map((n) => t.store.deliver(limited(limits, stranger(n), 1))),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
      expect(outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as StoreError).code] : []))).toEqual([
        'requests-full',
        'requests-full',
      ]);
    });
  });

  describe('invitations are contact requests', () => {
    it("a stranger's pending invitations count with its requests toward the per-pair cap; an answer frees one", async () => {
      const s = stranger(1);
      for (const n of [1, 2, 3]) await group(n, s);
      await t.store.deliver({
        ...direct(s, [item(ME)]),
        limits: { maxQueued: 100, maxQueuedBytes: Infinity, maxRequestsPerPair: 3 },
      });
      expect(await t.store.addOrInvite(gid(1), ME, s, 10, rules)).toBe('invited');
      expect(await t.store.addOrInvite(gid(2), ME, s, 11, rules)).toBe('invited');
      const over = await refusal(t.store.addOrInvite(gid(3), ME, s, 12, rules));
      expect(over.code).toBe('too-many-requests-pending');
      // asking again for a pending invitation is no new request
      expect(await t.store.addOrInvite(gid(1), ME, s, 13, rules)).toBe('invited');
      // and the invitations count against the stranger's next direct request
      const send = await refusal(
        t.store.deliver({
          ...direct(s, [item(ME)]),
          limits: { maxQueued: 100, maxQueuedBytes: Infinity, maxRequestsPerPair: 3 },
        }),
      );
      expect(send.code).toBe('too-many-requests-pending');
      expect(await t.store.answerInvitation(gid(1), ME, false, 14)).toBe(true);
      expect(await t.store.addOrInvite(gid(3), ME, s, 15, rules)).toBe('invited');
      expect((await t.store.listInvitations(ME)).map((i) => i.groupId).sort()).toEqual([gid(2), gid(3)]);
      // someone I allow puts me in at once, whatever their count
      await t.store.setContact(ME, s, 'allow', 'allow');
      await group(4, s);
      expect(await t.store.addOrInvite(gid(4), ME, s, 16, rules)).toBe('member');
    });

    it('a stake-gate refuses a stranger until it has paid a stake to the wallet (not one forfeited as spam); without a chain it only invites', async () => {
      const s = stranger(1);
      await t.store.setPolicy(ME, 'stake-gate', '0.01');
      await group(1, s);
      expect(await t.store.addOrInvite(gid(1), ME, s, 10, rules)).toBe('stake-required');
      expect(await t.store.addOrInvite(gid(1), ME, s, 10, { ...rules, stakesEnabled: false })).toBe('invited');
      await t.store.answerInvitation(gid(1), ME, false, 11);
      const stake = (n: number, status: StakeRow['status']): StakeRow => ({
        id: '0x' + createHash('sha256').update(`stake ${n}`).digest('hex'),
        ref: '0x' + n.toString(16).padStart(64, '0'),
        chainId: 31337,
        escrow: addr(0xe5c),
        sender: s,
        recipient: ME,
        amountWei: '10000000000000000',
        deadline: 2_000_000_000,
        status,
        releaseSignature: null,
        createdAt: 1,
      });
      await t.store.deliver(
        direct(s, [item(ME, { stakeRef: stake(1, 'active').ref, stake: { ok: stake(1, 'active') } })]),
      );
      await t.store.setStakeStatus(stake(1, 'active').id, 'forfeited');
      expect(await t.store.addOrInvite(gid(1), ME, s, 12, rules)).toBe('stake-required');
      await t.store.deliver(
        direct(s, [
          item(ME, { stakeRef: stake(2, 'active').ref, stake: { ok: stake(2, 'active') }, nonce: 'BBECAwQFBgcICQoL' }),
        ]),
      );
      expect(await t.store.addOrInvite(gid(1), ME, s, 13, rules)).toBe('invited');
    });
  });

  describe('caps per wallet', () => {
    it('--max-groups-per-wallet: past it too-many-groups, counting the groups it created, left ones included', async () => {
      for (const n of [1, 2]) await group(n, ME, 2);
      expect((await refusal(group(3, ME, 2))).code).toBe('too-many-groups');
      expect(await t.store.getGroup(gid(3))).toBeNull();
      // leaving an emptied group does not give its slot back: the row stays
      expect(await t.store.removeMember(gid(1), ME)).toBe(true);
      expect((await refusal(group(3, ME, 2))).code).toBe('too-many-groups');
      expect((await group(3, FRIEND, 2)).creatorAddress).toBe(FRIEND);
    });

    it('--max-keys-per-wallet: past it too-many-keys, naming where old keys are revoked; a revoked key makes room', async () => {
      const key = (n: number) => ({
        id: `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`,
        address: ME,
        label: null,
        prefix: 'sk_live_abcd',
        deviceKey: null,
        createdAt: n,
        lastUsedAt: null,
        revokedAt: null,
        hash: createHash('sha256').update(`key ${n}`).digest(),
      });
      for (const n of [1, 2]) await t.store.insertApiKey(key(n), 2);
      const over = await refusal(t.store.insertApiKey(key(3), 2));
      expect(over.code).toBe('too-many-keys');
      expect(over.message).toMatch(/Settings → API keys.*revoke-key/);
      await t.store.insertApiKey({ ...key(4), address: FRIEND }, 2);
      expect(await t.store.revokeApiKey(ME, key(1).id, 5)).toBe(true);
      await t.store.insertApiKey(key(3), 2);
      expect((await t.store.listApiKeys(ME)).filter((k) => k.revokedAt === null).map((k) => k.id)).toEqual([
        key(2).id,
        key(3).id,
      ]);
    });

    it('a sign-in key with its device: the device is registered with the key, and not at all when the key is refused', async () => {
      const device = devKey;
      const key = (n: number, dev: number) => ({
        id: `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`,
        address: ME,
        label: null,
        prefix: 'sk_live_abcd',
        deviceKey: device(dev),
        createdAt: n,
        lastUsedAt: null,
        revokedAt: null,
        hash: createHash('sha256').update(`key ${n}`).digest(),
      });
      const devices = async () => (await t.store.listDevices(ME)).map((d) => d.publicKey);
      await t.store.insertApiKey(key(1, 1), 2, { certificate: 'cert 1' });
      // the same device signing in again keeps its registration
      await t.store.insertApiKey(key(2, 1), 2, { certificate: 'cert 1 again' });
      expect(await devices()).toEqual([device(1)]);
      expect((await t.store.listDevices(ME))[0].certificate).toBe('cert 1');
      // past the key cap: neither the key nor the new device
      expect((await refusal(t.store.insertApiKey(key(3, 2), 2, { certificate: 'cert 2' }))).code).toBe('too-many-keys');
      expect(await devices()).toEqual([device(1)]);
      expect(await t.store.revokeApiKey(ME, key(1, 1).id, 4)).toBe(true);
      // a revoked device cannot come back through a sign-in, and the refused key is not kept either
      expect(await t.store.revokeDevice(ME, device(1), 5)).toBe(true);
      expect((await refusal(t.store.insertApiKey(key(4, 1), 2, { certificate: 'cert 1' }))).code).toBe('device-exists');
      expect((await t.store.listApiKeys(ME)).map((k) => k.id)).not.toContain(key(4, 1).id);
      await t.store.insertApiKey(key(3, 2), 2, { certificate: 'cert 2' });
      expect(await devices()).toEqual([device(2)]);
    });
  });
});
