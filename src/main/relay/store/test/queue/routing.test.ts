import { describe, expect, it } from 'vitest';
import { addr } from '../temp-store.js';
import { sendOne } from '../deliveries.js';

import { STORE_BACKENDS, useTestStore } from '../backends.js';

describe.each(STORE_BACKENDS)('$name store', (backend) => {
  const t = useTestStore(backend);

  const A = addr(0xa);
  const B = addr(0xb);

  const queued = async (to: string) => (await t.store.pull(to, null, 500)).length;

  describe('routing facts read inside the delivery', () => {
    it('sends a stranger’s message to requests by default and queues it', async () => {
      const out = await sendOne(t.store, A, B);
      expect(out.routed).toBe('request');
      expect(out.envelope?.routed).toBe('request');
      expect(await queued(B)).toBe(1);
    });

    it('delivers to the inbox when the recipient allows the sender', async () => {
      await t.store.setContact(B, A, 'allow', 'allow');
      expect((await sendOne(t.store, A, B)).routed).toBe('inbox');
    });

    it('delivers to the inbox when the recipient has written to the sender before', async () => {
      expect((await sendOne(t.store, B, A)).routed).toBe('request');
      const out = await sendOne(t.store, A, B);
      expect(out.routed).toBe('inbox');
      expect(out.envelope?.routed).toBe('inbox');
    });

    it('lets a block win over an allow, a previous send and asRequest, and queues nothing', async () => {
      await sendOne(t.store, B, A);
      await t.store.setContact(B, A, 'allow', 'allow');
      await t.store.setContact(B, A, 'block', 'block');
      const plain = await sendOne(t.store, A, B);
      const intro = await sendOne(t.store, A, B, { asRequest: true });
      expect(plain).toEqual({ routed: 'blocked' });
      expect(intro).toEqual({ routed: 'blocked' });
      expect(await queued(B)).toBe(0);
    });

    it('applies the stake gate with the recipient’s stake, or the default, and queues nothing', async () => {
      await t.store.setPolicy(B, 'stake-gate', '0.25');
      expect(await sendOne(t.store, A, B)).toEqual({ routed: 'stake-gate', stakeRequired: '0.25' });
      expect(await sendOne(t.store, A, B, { asRequest: true })).toEqual({
        routed: 'stake-gate',
        stakeRequired: '0.25',
      });
      await t.store.setPolicy(B, 'stake-gate', null);
      expect(await sendOne(t.store, A, B)).toEqual({ routed: 'stake-gate', stakeRequired: '0.01' });
      expect(await queued(B)).toBe(0);
    });

    it('blocks strangers when the policy is block, but not known senders', async () => {
      await t.store.setPolicy(B, 'block', null);
      expect(await sendOne(t.store, A, B)).toEqual({ routed: 'blocked' });
      await t.store.setContact(B, A, 'allow', 'allow');
      expect((await sendOne(t.store, A, B)).routed).toBe('inbox');
    });

    it('routes asRequest to requests even for a known sender', async () => {
      await t.store.setContact(B, A, 'allow', 'allow');
      const out = await sendOne(t.store, A, B, { asRequest: true });
      expect(out.routed).toBe('request');
      expect(out.envelope?.routed).toBe('request');
    });

    it('treats a wallet writing to its own devices as known', async () => {
      expect((await sendOne(t.store, A, A)).routed).toBe('inbox');
    });
  });

  describe('what counts as "has sent before"', () => {
    it('a queued direct send counts (request as well as inbox)', async () => {
      expect((await sendOne(t.store, A, B)).routed).toBe('request');
      expect((await sendOne(t.store, B, A)).routed).toBe('inbox');
    });

    it('a blocked send does not', async () => {
      await t.store.setContact(B, A, 'block', 'block');
      await sendOne(t.store, A, B);
      expect((await sendOne(t.store, B, A)).routed).toBe('request');
    });

    it('a stake-gated send does not', async () => {
      await t.store.setPolicy(B, 'stake-gate', null);
      await sendOne(t.store, A, B);
      expect((await sendOne(t.store, B, A)).routed).toBe('request');
    });

    it('a group send does not', async () => {
      await t.store.createGroup({
        id: '00000000-0000-4000-8000-000000000001',
        name: 'g',
        isPublic: true,
        passwordHash: null,
        avatar: null,
        creatorAddress: A,
        now: 1,
      });
      await t.store.addMember('00000000-0000-4000-8000-000000000001', B, 2);
      const [out] = await t.store.deliver({
        senderAddress: A,
        groupId: '00000000-0000-4000-8000-000000000001',
        via: 'api-key',
        now: 3,
        items: [
          {
            toAddress: B,
            recipientDeviceKey: null,
            ciphertext: 'q83vASNFZ4mrze8BI0VniavN7wEjRWeJ',
            ephemeralPublicKey: 'e'.repeat(64),
            nonce: 'AAECAwQFBgcICQoL',
            asRequest: false,
          },
        ],
      });
      expect(out.routed).toBe('inbox');
      expect((await sendOne(t.store, B, A)).routed).toBe('request');
    });
  });
});
