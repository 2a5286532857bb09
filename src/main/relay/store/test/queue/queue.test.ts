import { beforeEach, describe, expect, it } from 'vitest';
import { StoreError, type Delivery } from '../../store.js';
import { addr, devKey } from '../temp-store.js';
import { direct, item, sendOne } from '../deliveries.js';
import { presentEnvelope } from '../../../http/present.js';

import { STORE_BACKENDS, useTestStore } from '../backends.js';

describe.each(STORE_BACKENDS)('$name store', (backend) => {
  const t = useTestStore(backend);

  const A = addr(0xa);
  const B = addr(0xb);
  const C = addr(0xc);
  const G = '00000000-0000-4000-8000-0000000000aa';
  const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  async function failure(p: Promise<unknown>): Promise<StoreError> {
    const e = await p.then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(StoreError);
    return e as StoreError;
  }

  async function devices(address: string, ...ns: number[]) {
    for (const n of ns) await t.store.addDevice({ publicKey: devKey(n), address, certificate: '0x00', now: n });
  }

  function groupSend(
    senderAddress: string,
    items: Delivery['items'],
    via: 'api-key' | 'group-token' = 'group-token',
  ): Delivery {
    return { senderAddress, groupId: G, via, items, now: 2_000 };
  }

  describe('delivering', () => {
    it('queues the envelope as given, lower-casing keys, and returns the row a pull returns', async () => {
      await devices(B, 1);
      await t.store.setContact(B, A, 'allow', 'allow');
      const out = await sendOne(
        t.store,
        A.toUpperCase().replace('0X', '0x'),
        B,
        { recipientDeviceKey: devKey(1).toUpperCase(), ephemeralPublicKey: 'AB'.repeat(32) },
        1234,
      );
      expect(out.envelope).toEqual({
        id: expect.stringMatching(UUID_V7),
        senderAddress: A,
        recipientAddress: B,
        recipientDeviceKey: devKey(1),
        ciphertext: 'q83vASNFZ4mrze8BI0VniavN7wEjRWeJ',
        ephemeralPublicKey: 'ab'.repeat(32),
        nonce: 'AAECAwQFBgcICQoL',
        createdAt: 1234,
        routed: 'inbox',
        groupId: null,
        via: null,
        botName: null,
      });
      expect(await t.store.pull(B, devKey(1), 10)).toEqual([out.envelope]);
    });

    it('keeps the input order of a batch and answers in input order', async () => {
      const outs = await t.store.deliver(
        direct(A, [item(B, { nonce: 'n1' }), item(C, { nonce: 'n2' }), item(B, { nonce: 'n3' })]),
      );
      expect(outs.map((o) => o.envelope?.nonce)).toEqual(['n1', 'n2', 'n3']);
      expect((await t.store.pull(B, null, 10)).map((e) => e.nonce)).toEqual(['n1', 'n3']);
    });

    it('refuses a recipientDeviceKey that is not a current key of the recipient, naming the item, and queues none of the batch', async () => {
      await devices(B, 1, 2);
      await devices(C, 3);
      await t.store.revokeDevice(B, devKey(2), 5);
      for (const bad of [devKey(9), devKey(3), devKey(2)]) {
        const e = await failure(
          t.store.deliver(
            direct(A, [item(B, { recipientDeviceKey: devKey(1) }), item(B, { recipientDeviceKey: bad })]),
          ),
        );
        expect(e.code).toBe('device-key-mismatch');
        expect(e.index).toBe(1);
      }
      expect(await t.store.pull(B, null, 10)).toEqual([]);
      // nothing of the refused batches counted as "sent before"
      expect((await sendOne(t.store, B, A)).routed).toBe('request');
    });

    it('rolls back the sent-before fact of a refused batch too', async () => {
      await failure(t.store.deliver(direct(A, [item(B), item(C, { recipientDeviceKey: devKey(7) })])));
      expect((await sendOne(t.store, B, A)).routed).toBe('request');
    });
    // PostgreSQL's batches send COMMIT right behind the insert without waiting for it: an insert
    // that fails must still fail its deliveries, and a COMMIT after it must have kept nothing.
    it('answers no delivery whose insert failed at the database, and keeps none of its rows', async () => {
      const poison =
        backend.name === 'postgres'
          ? [
              `CREATE FUNCTION poisoned() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.nonce = 'poison' THEN RAISE EXCEPTION 'poisoned'; END IF; RETURN NEW; END $$`,
              'CREATE TRIGGER poisoned BEFORE INSERT ON envelopes FOR EACH ROW EXECUTE FUNCTION poisoned()',
            ]
          : [
              `CREATE TRIGGER poisoned BEFORE INSERT ON envelopes WHEN NEW.nonce = 'poison' BEGIN SELECT RAISE(ABORT, 'poisoned'); END`,
            ];
      for (const statement of poison) await t.rows(statement);
      const settled = await Promise.allSettled([
        t.store.deliver(direct(A, [item(B, { nonce: 'before' })])),
        t.store.deliver(direct(C, [item(B, { nonce: 'ok' }), item(B, { nonce: 'poison' })])),
        t.store.deliver(direct(A, [item(B, { nonce: 'after' })])),
      ]);
      expect(settled[1].status).toBe('rejected');
      const queued = (await t.store.pull(B, null, 10)).map((e) => e.nonce);
      expect(queued).not.toContain('poison');
      expect(queued).not.toContain('ok');
      // what was answered is there, and what was refused is not
      for (const [i, nonce] of [
        [0, 'before'],
        [2, 'after'],
      ] as const) {
        expect(queued.includes(nonce), nonce).toBe(settled[i].status === 'fulfilled');
      }
      // the store goes on: the next delivery is queued
      expect((await sendOne(t.store, A, B, { nonce: 'later' })).envelope?.nonce).toBe('later');
    });
  });

  describe('group deliveries', () => {
    beforeEach(async () => {
      await t.store.createGroup({
        id: G,
        name: 'g',
        isPublic: false,
        passwordHash: null,
        avatar: null,
        creatorAddress: A,
        now: 1,
      });
      await t.store.addMember(G, B, 2);
      await t.store.addMember(G, C, 3);
    });

    it('routes inbox to every member, blocked where the member blocks the sender, whatever their policy', async () => {
      await t.store.setContact(C, A, 'block', 'block');
      await t.store.setPolicy(B, 'block', null);
      const outs = await t.store.deliver(groupSend(A, [item(B), item(C)]));
      expect(outs.map((o) => o.routed)).toEqual(['inbox', 'blocked']);
      expect(outs[0].envelope).toMatchObject({ groupId: G, via: 'group-token', routed: 'inbox', senderAddress: A });
      expect(outs[1].envelope).toBeUndefined();
      expect(await t.store.pull(C, null, 10)).toEqual([]);
      expect((await t.store.pull(B, null, 10))[0]).toEqual(outs[0].envelope);
    });

    it("keeps the token's name on a group-token delivery only, and pulls it back both ways", async () => {
      const [bot] = await t.store.deliver({ ...groupSend(A, [item(B)]), botName: 'deploy-notifier' });
      const [member] = await t.store.deliver({ ...groupSend(A, [item(B)], 'api-key'), botName: 'not a bot' });
      expect([bot.envelope?.botName, member.envelope?.botName]).toEqual(['deploy-notifier', null]);
      expect((await t.store.pull(B, null, 10)).map((e) => e.botName)).toEqual(['deploy-notifier', null]);
      expect(
        (JSON.parse(await t.store.pullWire(B, null, 10)) as Array<{ botName: unknown }>).map((e) => e.botName),
      ).toEqual(['deploy-notifier', null]);
    });

    it('refuses a non-member recipient, naming the item, and queues nothing', async () => {
      const e = await failure(t.store.deliver(groupSend(A, [item(B), item(addr(0xd))])));
      expect(e.code).toBe('not-a-member');
      expect(e.index).toBe(1);
      expect(await t.store.pull(B, null, 10)).toEqual([]);
    });

    it('checks group device keys too', async () => {
      await devices(B, 1);
      const e = await failure(
        t.store.deliver(
          groupSend(A, [item(B, { recipientDeviceKey: devKey(1) }), item(C, { recipientDeviceKey: devKey(1) })]),
        ),
      );
      expect(e.code).toBe('device-key-mismatch');
      expect(e.index).toBe(1);
    });
  });

  describe('pull and ack', () => {
    it('gives the wire page as the presented rows of pull, byte for byte, in queue order and within the limit', async () => {
      await devices(B, 1, 2);
      await t.store.createGroup({
        id: G,
        name: 'g',
        isPublic: true,
        passwordHash: null,
        avatar: null,
        creatorAddress: A,
        now: 1,
      });
      await t.store.addMember(G, B, 1);
      // Edge instants: the epoch, a millisecond before a second, a leap day, and now.
      const instants = [0, 999, 1_582_934_400_001, 951_782_399_999, Date.now()];
      for (const [i, now] of instants.entries()) {
        await t.store.deliver(
          direct(
            A,
            [item(B, { recipientDeviceKey: i % 2 ? devKey(1) : null, nonce: `n${i}`, ciphertext: `c"\\${i}` })],
            now,
          ),
        );
      }
      await t.store.deliver(groupSend(A, [item(B, { recipientDeviceKey: devKey(2) })], 'api-key'));
      await t.store.deliver(groupSend(A, [item(B)]));
      for (const [key, limit] of [
        [null, 100],
        [devKey(1), 100],
        [devKey(2).toUpperCase(), 100],
        [null, 3],
        [devKey(1), 1],
      ] as const) {
        const rows = await t.store.pull(B, key, limit);
        const wire = await t.store.pullWire(B, key, limit);
        expect(wire).toBe(JSON.stringify(rows.map(presentEnvelope)));
      }
      // a key bound to no device: the three unbound direct envelopes and the unbound group one
      expect(JSON.parse(await t.store.pullWire(B, null, 100))).toHaveLength(4);
      expect(JSON.parse(await t.store.pullWire(B, devKey(1), 100))).toHaveLength(instants.length + 1);
      expect(await t.store.pullWire(C, null, 100)).toBe('[]');
      expect(await t.store.pullWire(C, devKey(1), 100)).toBe('[]');
    });

    it.runIf(backend.name === 'postgres')(
      'builds the same page for rows queued before the wire JSON was kept (or by a node not yet upgraded)',
      async () => {
        await devices(B, 1);
        await t.store.createGroup({
          id: G,
          name: 'g',
          isPublic: true,
          passwordHash: null,
          avatar: null,
          creatorAddress: A,
          now: 1,
        });
        await t.store.addMember(G, B, 1);
        await t.store.deliver(
          direct(
            A,
            [item(B, { recipientDeviceKey: devKey(1) }), item(B, { nonce: 'a"b\\c\u0001é😀' })],
            1_582_934_400_001,
          ),
        );
        await t.store.deliver({ ...groupSend(A, [item(B)]), botName: 'ci "bot" \\ 😀' });
        const kept = await t.store.pullWire(B, devKey(1), 100);
        expect(
          (
            await t.rows(
              'SELECT count(*)::int AS n FROM envelopes WHERE wire_head IS NOT NULL AND wire_tail IS NOT NULL',
            )
          )[0].n,
        ).toBe(3);
        await t.rows('UPDATE envelopes SET wire_head = NULL, wire_tail = NULL');
        expect(await t.store.pullWire(B, devKey(1), 100)).toBe(kept);
        expect(kept).toBe(JSON.stringify((await t.store.pull(B, devKey(1), 100)).map(presentEnvelope)));
      },
    );

    it('gives a device-bound key its device’s envelopes and unbound ones; an unbound key only unbound ones', async () => {
      await devices(B, 1, 2);
      const d1 = (await sendOne(t.store, A, B, { recipientDeviceKey: devKey(1) })).envelope!;
      const d2 = (await sendOne(t.store, A, B, { recipientDeviceKey: devKey(2) })).envelope!;
      const any = (await sendOne(t.store, A, B)).envelope!;
      expect((await t.store.pull(B, devKey(1), 10)).map((e) => e.id)).toEqual([d1.id, any.id]);
      expect((await t.store.pull(B, devKey(2).toUpperCase(), 10)).map((e) => e.id)).toEqual([d2.id, any.id]);
      expect((await t.store.pull(B, null, 10)).map((e) => e.id)).toEqual([any.id]);
      expect(await t.store.pullWire(B, null, 10)).toBe(JSON.stringify([presentEnvelope(any)]));
      expect(await t.store.pull(A, null, 10)).toEqual([]);
    });

    it('never lets one device’s ack remove another device’s envelopes, nor another wallet’s', async () => {
      await devices(B, 1, 2);
      const d1 = (await sendOne(t.store, A, B, { recipientDeviceKey: devKey(1) })).envelope!;
      const d2 = (await sendOne(t.store, A, B, { recipientDeviceKey: devKey(2) })).envelope!;
      const any = (await sendOne(t.store, A, B)).envelope!;
      const forC = (await sendOne(t.store, A, C)).envelope!;

      expect(await t.store.ack(B, devKey(2), [d1.id, forC.id])).toBe(0);
      expect(await t.store.ack(C, null, [d1.id])).toBe(0);
      expect((await t.store.pull(B, devKey(1), 10)).map((e) => e.id)).toEqual([d1.id, any.id]);

      // a key bound to no device cannot remove what was sealed to a device
      expect(await t.store.ack(B, null, [d1.id, d2.id])).toBe(0);
      expect((await t.store.pull(B, devKey(2), 10)).map((e) => e.id)).toEqual([d2.id, any.id]);

      expect(await t.store.ack(B, devKey(2), [d2.id, any.id, d2.id, 'not-a-uuid'])).toBe(2);
      expect((await t.store.pull(B, devKey(1), 10)).map((e) => e.id)).toEqual([d1.id]);
      expect(await t.store.ack(B, devKey(2), [d2.id])).toBe(0);
      expect(await t.store.ack(B, devKey(1).toUpperCase(), [d1.id.toUpperCase()])).toBe(1);
      expect(await t.store.pull(B, devKey(1), 10)).toEqual([]);
      expect((await t.store.pull(C, null, 10)).map((e) => e.id)).toEqual([forC.id]);
    });

    it('answers acks that arrive together each with the count of its own ids, by the same device rule', async () => {
      await devices(B, 1, 2);
      const d1 = (await sendOne(t.store, A, B, { recipientDeviceKey: devKey(1) })).envelope!;
      const d2 = (await sendOne(t.store, A, B, { recipientDeviceKey: devKey(2) })).envelope!;
      const any = (await sendOne(t.store, A, B)).envelope!;
      const forC = [(await sendOne(t.store, A, C)).envelope!, (await sendOne(t.store, A, C)).envelope!];
      const ackBatches = () =>
        backend.name === 'postgres' ? (t.store as unknown as { ackBatches: number }).ackBatches : 0;
      const before = ackBatches();
      // all in one turn: on PostgreSQL the first goes alone and the rest wait for one statement
      const counts = await Promise.all([
        t.store.ack(C, null, [forC[0].id]),
        t.store.ack(B, devKey(2), [d1.id, forC[1].id]), // another device's and another wallet's: none
        t.store.ack(C, null, [forC[1].id, d2.id, 'not-a-uuid']),
        t.store.ack(B, null, [d1.id, d2.id]), // sealed to devices: a key bound to none takes neither
        t.store.ack(B, devKey(2), [d2.id, any.id]),
        t.store.ack(B, devKey(1), [any.id]), // already taken by the ack before it
      ]);
      expect(counts).toEqual([1, 0, 1, 0, 2, 0]);
      expect((await t.store.pull(B, devKey(1), 10)).map((e) => e.id)).toEqual([d1.id]);
      expect(await t.store.pull(C, null, 10)).toEqual([]);
      if (backend.name === 'postgres') expect(ackBatches()).toBe(before + 1);
    });

    it('pulls oldest first, at most limit, without consuming', async () => {
      const sent = await t.store.deliver(
        direct(
          A,
          Array.from({ length: 7 }, (_, i) => item(B, { nonce: `n${i}` })),
        ),
      );
      const first = await t.store.pull(B, null, 3);
      expect(first.map((e) => e.nonce)).toEqual(['n0', 'n1', 'n2']);
      expect(await t.store.pull(B, null, 3)).toEqual(first);
      await t.store.ack(
        B,
        null,
        first.map((e) => e.id),
      );
      expect((await t.store.pull(B, null, 10)).map((e) => e.id)).toEqual(sent.slice(3).map((o) => o.envelope!.id));
    });

    it('never reuses a queue position after an ack deletes the newest row', async () => {
      const seqOf = async (id: string) => Number((await t.rows('SELECT seq FROM envelopes WHERE id = ?', id))[0].seq);
      const a = (await sendOne(t.store, A, B, { nonce: 'a' })).envelope!;
      const b = (await sendOne(t.store, A, B, { nonce: 'b' })).envelope!;
      const seqB = await seqOf(b.id);
      await t.store.ack(B, null, [b.id]);
      const c = (await sendOne(t.store, A, B, { nonce: 'c' })).envelope!;
      expect(await seqOf(c.id)).toBeGreaterThan(seqB);
      expect((await t.store.pull(B, null, 10)).map((e) => e.nonce)).toEqual(['a', 'c']);
      expect(a.id < c.id).toBe(true); // uuid v7 ids sort by time too
    });
  });

  describe('sweep', () => {
    it('removes unacked envelopes created before the cutoff and nothing newer', async () => {
      await sendOne(t.store, A, B, { nonce: 'old' }, 1_000);
      await sendOne(t.store, A, C, { nonce: 'old-c' }, 1_999);
      await sendOne(t.store, A, B, { nonce: 'edge' }, 2_000);
      await sendOne(t.store, A, B, { nonce: 'new' }, 3_000);
      expect(await t.store.sweep(2_000)).toBe(2);
      expect((await t.store.pull(B, null, 10)).map((e) => e.nonce)).toEqual(['edge', 'new']);
      expect(await t.store.pull(C, null, 10)).toEqual([]);
      expect(await t.store.sweep(2_000)).toBe(0);
    });

    it('works through a backlog larger than one chunk', async () => {
      // One statement both backends run: 12,345 old rows and 3 new ones.
      await t.rows(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 12347)
         INSERT INTO envelopes (id, sender, recipient, ciphertext, ephemeral_public_key, nonce, created_at, routed)
         SELECT 'e-' || i, ?, ?, 'c', 'k', 'n', CASE WHEN i < 12345 THEN 10 ELSE 5000 END, 'inbox' FROM n`,
        A,
        B,
      );
      expect(await t.store.sweep(100)).toBe(12_345);
      expect((await t.store.stats()).queuedEnvelopes).toBe(3);
    });
  });

  describe('stats', () => {
    it('counts what the operator asks about', async () => {
      await t.store.addDevice({ publicKey: devKey(1), address: A, certificate: '0x00', now: 1 });
      await t.store.insertApiKey({
        id: 'k',
        address: A,
        label: null,
        prefix: 'sk_live_x',
        deviceKey: null,
        createdAt: 1,
        lastUsedAt: null,
        revokedAt: null,
        hash: Buffer.from('h'),
      });
      await t.store.createGroup({
        id: G,
        name: 'g',
        isPublic: true,
        passwordHash: null,
        avatar: null,
        creatorAddress: A,
        now: 1,
      });
      await sendOne(t.store, A, B, {}, 500);
      await sendOne(t.store, A, B, {}, 700);
      expect(await t.store.stats()).toEqual({
        accounts: 1,
        devices: 1,
        apiKeys: 1,
        groups: 1,
        queuedEnvelopes: 2,
        oldestQueuedAt: 500,
      });
    });
  });

  describe('envelope ids', () => {
    it('are UUIDv7, strictly increasing within one millisecond and across them', async () => {
      const items = Array.from({ length: 300 }, (_, i) => item(B, { nonce: String(i) }));
      const first = await t.store.deliver({ ...direct(A, items), now: 5_000 });
      const second = await t.store.deliver({ ...direct(A, [item(B)]), now: 4_000 }); // the clock went back
      const ids = [...first, ...second].map((o) => o.envelope!.id);
      for (const id of ids) expect(id).toMatch(UUID_V7);
      expect([...ids].sort()).toEqual(ids);
      expect(new Set(ids).size).toBe(ids.length);
    });
  });
});
