import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelayStore } from '../../store/store.js';
import {
  CLUSTER_MODE,
  call,
  envelopeTo,
  newDeviceKey,
  signIn,
  startRelay,
  type TestRelay,
  type TestUser,
  watchHeldPulls,
} from '../harness.js';

let relay: TestRelay;
beforeAll(async () => void (relay = await startRelay()));
afterAll(async () => relay.close());

const send = (r: TestRelay, from: TestUser, body: unknown) =>
  call(r.url, 'POST', '/api/v1/envelopes', { auth: from.apiKey, body });
const pull = (r: TestRelay, u: TestUser, q = '', signal?: AbortSignal) =>
  signal
    ? fetch(`${r.url}/api/v1/envelopes${q}`, { headers: { authorization: `Bearer ${u.apiKey}` }, signal })
    : call(r.url, 'GET', '/api/v1/envelopes' + q, { auth: u.apiKey });
/** Resolves once the relay holds `n` pulls. */
const held = (r: TestRelay, n: number) => expect.poll(() => r.app.heldPulls, { timeout: 3000, interval: 5 }).toBe(n);
const holds = watchHeldPulls();
/** Why each pull held with `u`'s key stopped waiting (null: it still waits), oldest first. */
const reasonsOf = (u: TestUser) => holds.filter((h) => h.keyId === u.keyId).map((h) => h.reason);

/** Two wallets that are each other's contacts, so sends land in the inbox. */
async function pair(r: TestRelay): Promise<[TestUser, TestUser]> {
  const a = await signIn(r.url);
  const b = await signIn(r.url);
  await call(r.url, 'PUT', `/api/v1/contacts/${a.address}`, { auth: b.apiKey });
  return [a, b];
}

describe('long-poll pull', () => {
  it('a held pull is answered by a send made after it, with the envelope, Relay-Wait and no-store', async () => {
    const [a, b] = await pair(relay);
    const before = relay.app.heldPulls;
    const pending = pull(relay, b, '?wait=10') as ReturnType<typeof call>;
    await held(relay, before + 1);
    const sent = await send(relay, a, envelopeTo(b));
    expect(sent.status).toBe(200);
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.envelopes.map((e: { id: string }) => e.id)).toEqual([sent.body.envelope.id]);
    expect(res.headers.get('relay-wait')).toBe('10');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(relay.app.heldPulls).toBe(before);
  });

  it('answers without holding when envelopes are queued; a pull without wait has no Relay-Wait header', async () => {
    const [a, b] = await pair(relay);
    await send(relay, a, envelopeTo(b));
    const res = (await pull(relay, b, '?wait=25')) as Awaited<ReturnType<typeof call>>;
    expect(res.body.envelopes).toHaveLength(1);
    expect(reasonsOf(b)).toEqual([]);
    const plain = (await pull(relay, b)) as Awaited<ReturnType<typeof call>>;
    expect(plain.headers.get('relay-wait')).toBeNull();
    expect(plain.headers.get('cache-control')).toBe('no-store');
    const zero = (await pull(relay, b, '?wait=0')) as Awaited<ReturnType<typeof call>>;
    expect(zero.headers.get('relay-wait')).toBe('0');
  });

  it('wait=1 on an empty inbox is held for its second, then answers empty', async () => {
    const b = await signIn(relay.url);
    const res = (await pull(relay, b, '?wait=1')) as Awaited<ReturnType<typeof call>>;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ envelopes: [] });
    // held once, for the second asked (less the first look's microseconds), until it ran out
    expect(reasonsOf(b)).toEqual(['timeout']);
    const [hold] = holds.filter((h) => h.keyId === b.keyId);
    expect(hold.ms).toBeGreaterThan(900);
    expect(hold.ms).toBeLessThanOrEqual(1000);
  });

  it("another device's envelope does not wake a device's waiter; an unbound one does", async () => {
    const [a, b] = await pair(relay);
    const otherDevice = await signIn(relay.url, b.account, newDeviceKey());
    const before = relay.app.heldPulls;
    const pending = pull(relay, b, '?wait=10') as ReturnType<typeof call>;
    await held(relay, before + 1);
    // the relay rings before it answers a send
    expect((await send(relay, a, envelopeTo(otherDevice))).status).toBe(200);
    // the other device's pull would be answered now; this one is still held
    expect(((await pull(relay, otherDevice)) as Awaited<ReturnType<typeof call>>).body.envelopes).toHaveLength(1);
    expect(reasonsOf(b)).toEqual([null]);
    expect(relay.app.heldPulls).toBe(before + 1);
    const unbound = await send(relay, a, envelopeTo({ address: b.address }));
    const res = await pending;
    expect(res.body.envelopes.map((e: { id: string }) => e.id)).toEqual([unbound.body.envelope.id]);
    // held once, and woken once: by the unbound envelope
    expect(reasonsOf(b)).toEqual(['rung']);
  });

  it('a key bound to no device is woken by an envelope sealed to no device, not by one sealed to a device', async () => {
    const [a, b] = await pair(relay);
    // an unbound key: a sign-in without a device
    const ch = await call(relay.url, 'POST', '/api/v1/auth/challenge', { body: { address: b.address } });
    const keyRes = await call(relay.url, 'POST', '/api/v1/auth/keys', {
      body: { message: ch.body.message, signature: await b.account.signMessage({ message: ch.body.message }) },
    });
    expect(keyRes.status).toBe(200);
    const unboundKey: TestUser = { ...b, apiKey: keyRes.body.apiKey, keyId: keyRes.body.key.id };
    const before = relay.app.heldPulls;
    const pending = pull(relay, unboundKey, '?wait=10') as ReturnType<typeof call>;
    await held(relay, before + 1);
    expect((await send(relay, a, envelopeTo(b))).status).toBe(200);
    const sent = await send(relay, a, envelopeTo({ address: b.address }));
    expect((await pending).body.envelopes.map((e: { id: string }) => e.id)).toEqual([sent.body.envelope.id]);
  });

  it('an aborted request leaves no waiter', async () => {
    const b = await signIn(relay.url);
    const before = relay.app.heldPulls;
    const controller = new AbortController();
    const pending = (pull(relay, b, '?wait=20', controller.signal) as Promise<Response>).catch((e: Error) => e);
    await held(relay, before + 1);
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    await held(relay, before);
  });

  // The race needs a shim that slows one store's look at the inbox: a cluster node owns its own
  // PostgreSQL store, which the harness does not wrap (npm run test:cluster skips this one).
  it.skipIf(CLUSTER_MODE)(
    'a request aborted while the relay was still looking at the inbox leaves no waiter either',
    async () => {
      let enter!: () => void;
      const entered = new Promise<void>((r) => (enter = r));
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let looked!: () => void;
      const firstLook = new Promise<void>((r) => (looked = r));
      let slowAddress = '';
      let looks = 0;
      const r = await startRelay(
        {},
        {
          wrapStore: (store) =>
            Object.assign(Object.create(store) as typeof store, {
              async pullWire(address: string, deviceKey: string | null, limit: number) {
                if (address !== slowAddress || ++looks > 1) return store.pullWire(address, deviceKey, limit);
                enter();
                await gate;
                const page = await store.pullWire(address, deviceKey, limit);
                // the handler registers its waiter in the turn this look answers
                setImmediate(looked);
                return page;
              },
            }),
        },
      );
      try {
        const b = await signIn(r.url);
        slowAddress = b.address;
        const socketClosed = new Promise<void>((resolve) =>
          r.app.server.once('request', (req) => req.socket.once('close', () => resolve())),
        );
        const controller = new AbortController();
        const pending = (pull(r, b, '?wait=20', controller.signal) as Promise<Response>).catch((e: Error) => e);
        await entered;
        controller.abort();
        expect(await pending).toBeInstanceOf(Error);
        await socketClosed;
        release();
        await firstLook;
        // without the check the waiter would stay the whole 20 s
        await held(r, 0);
      } finally {
        release();
        await r.close();
      }
    },
  );

  it.skipIf(CLUSTER_MODE)(
    'a send committed while a pull looks at the empty inbox rings before the pull is held: it looks once more and answers at once',
    async () => {
      let watched = '';
      let looks = 0;
      let during: () => Promise<unknown> = async () => undefined;
      const r = await startRelay(
        {},
        {
          wrapStore: (store) =>
            Object.assign(Object.create(store) as typeof store, {
              async pullWire(address: string, deviceKey: string | null, limit: number) {
                const page = await store.pullWire(address, deviceKey, limit);
                // committed (and rung) after this look read the queue, before the waiter exists
                if (address === watched && ++looks === 1) await during();
                return page;
              },
            }),
        },
      );
      try {
        const [a, b] = await pair(r);
        let sent: Awaited<ReturnType<typeof call>> | null = null;
        during = async () => (sent = await send(r, a, envelopeTo(b)));
        watched = b.address;
        const res = await (pull(r, b, '?wait=5') as ReturnType<typeof call>);
        expect(res.body.envelopes.map((e: { id: string }) => e.id)).toEqual([sent!.body.envelope.id]);
        expect(looks).toBe(2);
        // answered by that look, not when the wait ran out
        expect(reasonsOf(b)).toEqual(['rung']);
      } finally {
        await r.close();
      }
    },
  );

  // What a look would give, compared as text: a hand-over that wrote one byte differently fails.
  const pullText = async (r: TestRelay, u: TestUser, q = '') =>
    (await fetch(`${r.url}/api/v1/envelopes${q}`, { headers: { authorization: `Bearer ${u.apiKey}` } })).text();
  /** A relay whose store counts the looks at `seen.watched`'s queue; `more` adds to the shim. */
  const countingLooks = async (more: (store: RelayStore) => Partial<RelayStore> = () => ({})) => {
    const seen = { watched: '', looks: 0 };
    const r = await startRelay(
      {},
      {
        wrapStore: (store) =>
          Object.assign(Object.create(store) as RelayStore, {
            async pullWire(address: string, deviceKey: string | null, limit: number) {
              if (address === seen.watched) seen.looks++;
              return store.pullWire(address, deviceKey, limit);
            },
            ...more(store),
          }),
      },
    );
    return { r, seen };
  };

  it.skipIf(CLUSTER_MODE)(
    'a woken pull is answered with the envelopes that woke it, without a second look, byte for byte what a look gives',
    async () => {
      const { r, seen } = await countingLooks();
      try {
        const [a, b] = await pair(r);
        seen.watched = b.address;
        const held1 = pullText(r, b, '?wait=5');
        await held(r, 1);
        // three in one request, one of them unbound: the queue's order is the request's
        const batch = await send(r, a, {
          envelopes: [envelopeTo(b), envelopeTo({ address: b.address }), envelopeTo(b)],
        });
        expect(batch.status).toBe(200);
        const text = await held1;
        expect(JSON.parse(text).envelopes.map((e: { id: string }) => e.id)).toEqual(
          batch.body.results.map((x: { envelope: { id: string } }) => x.envelope.id),
        );
        expect(seen.looks).toBe(1);
        expect(text).toBe(await pullText(r, b));
        // the page's limit holds for a hand-over too
        seen.looks = 0;
        await call(r.url, 'POST', '/api/v1/envelopes/ack', {
          auth: b.apiKey,
          body: { ids: JSON.parse(text).envelopes.map((e: { id: string }) => e.id) },
        });
        const held2 = pullText(r, b, '?wait=5&limit=2');
        await held(r, 1);
        await send(r, a, { envelopes: [envelopeTo(b), envelopeTo(b), envelopeTo(b)] });
        const two = await held2;
        expect(JSON.parse(two).envelopes).toHaveLength(2);
        expect(seen.looks).toBe(1);
        expect(two).toBe(await pullText(r, b, '?limit=2'));
      } finally {
        await r.close();
      }
    },
  );

  it.skipIf(CLUSTER_MODE)(
    'deliveries committed together: the pull woken by the first looks, and finds the second as well',
    async () => {
      // The first delivery to the watched wallet waits for the second, so that both enter the
      // same group commit and ring one after the other before the woken pull answers.
      let letFirstGo: (() => void) | null = null;
      const { r, seen } = await countingLooks((store) => ({
        async deliver(d) {
          if (d.items[0]?.toAddress.toLowerCase() !== seen.watched) return store.deliver(d);
          if (letFirstGo === null) {
            await new Promise<void>((resolve) => (letFirstGo = resolve));
            return store.deliver(d);
          }
          const second = store.deliver(d);
          letFirstGo();
          return second;
        },
      }));
      try {
        const [a, b] = await pair(r);
        seen.watched = b.address;
        const pending = pullText(r, b, '?wait=5');
        await held(r, 1);
        const sent = await Promise.all([send(r, a, envelopeTo(b)), send(r, a, envelopeTo(b))]);
        const text = await pending;
        expect(
          JSON.parse(text)
            .envelopes.map((e: { id: string }) => e.id)
            .sort(),
        ).toEqual(sent.map((x) => x.body.envelope.id).sort());
        // before holding, and after the wake, since a second ring came before the answer
        expect(seen.looks).toBe(2);
        expect(text).toBe(await pullText(r, b));
      } finally {
        await r.close();
      }
    },
  );

  it('a group send wakes the held pull of a member', async () => {
    const [a, b] = await pair(relay);
    const g = await call(relay.url, 'POST', '/api/v1/groups', {
      auth: a.apiKey,
      body: { name: 'Live', isPublic: true },
    });
    expect(g.status).toBe(201);
    expect(
      (
        await call(relay.url, 'POST', `/api/v1/groups/${g.body.id}/members`, {
          auth: a.apiKey,
          body: { address: b.address },
        })
      ).body.status,
    ).toBe('member');
    const before = relay.app.heldPulls;
    const pending = pull(relay, b, '?wait=10') as ReturnType<typeof call>;
    await held(relay, before + 1);
    const sent = await call(relay.url, 'POST', `/api/v1/groups/${g.body.id}/envelopes`, {
      auth: a.apiKey,
      body: [envelopeTo(b)],
    });
    expect(sent.status).toBe(200);
    const res = await pending;
    expect(res.body.envelopes.map((e: { id: string; groupId: string }) => [e.id, e.groupId])).toEqual([
      [sent.body.results[0].envelope.id, g.body.id],
    ]);
  });

  it('a second held pull of the same credential answers the first with no envelopes', async () => {
    const [a, b] = await pair(relay);
    const before = relay.app.heldPulls;
    const first = pull(relay, b, '?wait=20') as ReturnType<typeof call>;
    await held(relay, before + 1);
    const second = pull(relay, b, '?wait=20') as ReturnType<typeof call>;
    const firstRes = await first;
    expect(firstRes.status).toBe(200);
    expect(firstRes.body).toEqual({ envelopes: [] });
    // answered because of the second, not when its own wait ran out
    expect(reasonsOf(b)[0]).toBe('replaced');
    await held(relay, before + 1);
    const sent = await send(relay, a, envelopeTo(b));
    expect((await second).body.envelopes.map((e: { id: string }) => e.id)).toEqual([sent.body.envelope.id]);
  });

  it.each(['26', '-1', '2.5', 'soon', ''])('wait=%s is 400', async (w) => {
    const b = await signIn(relay.url);
    const res = (await pull(relay, b, `?wait=${w}`)) as Awaited<ReturnType<typeof call>>;
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid-request');
  });

  it('a held pull needs a credential like any pull', async () => {
    const res = await call(relay.url, 'GET', '/api/v1/envelopes?wait=5');
    expect(res.status).toBe(401);
  });
});

describe('long-poll limits', () => {
  it('shutdown answers held pulls at once, empty', async () => {
    const r = await startRelay();
    const b = await signIn(r.url);
    const pending = pull(r, b, '?wait=25') as ReturnType<typeof call>;
    await held(r, 1);
    await r.close();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ envelopes: [] });
    // answered by the shutdown, not when its wait ran out
    expect(reasonsOf(b)).toEqual(['shutdown']);
  });

  it('past the per-node cap a held pull answers 503 with Retry-After; a freed slot is usable again', async () => {
    const r = await startRelay({ maxHeldPulls: 1 });
    try {
      const [a, b] = await pair(r);
      const c = await signIn(r.url);
      // The cap is per node: on a cluster, every pull of this test goes to the same one.
      const node = { ...r, url: r.nodeUrl };
      const first = pull(node, b, '?wait=20') as ReturnType<typeof call>;
      await held(r, 1);
      const refused = (await pull(node, c, '?wait=5')) as Awaited<ReturnType<typeof call>>;
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('too-many-waiters');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // without wait nothing is held, so the cap does not apply
      expect(((await pull(node, c)) as Awaited<ReturnType<typeof call>>).status).toBe(200);
      await send(r, a, envelopeTo(b));
      expect((await first).body.envelopes).toHaveLength(1);
      await held(r, 0);
      const again = pull(node, c, '?wait=1') as ReturnType<typeof call>;
      expect((await again).status).toBe(200);
    } finally {
      await r.close();
    }
  });

  // Made certain with a shim that holds the look after the wake until the other device has
  // acked (SQLite only, like the abort race above; the test below covers clusters by chance).
  // The shim also turns the hand-over off, as on a cluster: there a woken pull always looks.
  it.skipIf(CLUSTER_MODE)(
    'a wake that finds nothing sends the pull back to waiting, and it still costs one request',
    async () => {
      let watched = '';
      let looks = 0;
      let lookAfterWake!: () => void;
      const woken = new Promise<void>((r) => (lookAfterWake = r));
      let ackDone!: () => void;
      const acked = new Promise<void>((r) => (ackDone = r));
      const r = await startRelay(
        { rateLimit: 120 },
        {
          wrapStore: (store) =>
            Object.assign(Object.create(store) as typeof store, {
              commitsInOrder: false,
              async pullWire(address: string, deviceKey: string | null, limit: number) {
                // the held pull's looks: before holding, then after the wake (nothing rang between
                // the first look and the registration, so no look in between)
                if (deviceKey === watched && ++looks === 2) {
                  lookAfterWake();
                  await acked;
                }
                return store.pullWire(address, deviceKey, limit);
              },
            }),
        },
      );
      try {
        const [a, b] = await pair(r);
        const otherDevice = await signIn(r.url, b.account, newDeviceKey());
        const start = Number(
          ((await pull(r, b)) as Awaited<ReturnType<typeof call>>).headers.get('ratelimit-remaining'),
        );
        watched = b.deviceKey;
        const pending = pull(r, b, '?wait=2') as ReturnType<typeof call>;
        await held(r, 1);
        const unbound = await send(r, a, envelopeTo({ address: b.address }));
        await woken;
        expect(
          (
            await call(r.url, 'POST', '/api/v1/envelopes/ack', {
              auth: otherDevice.apiKey,
              body: { ids: [unbound.body.envelope.id] },
            })
          ).body.acked,
        ).toBe(1);
        ackDone();
        const res = await pending;
        expect([res.status, res.body]).toEqual([200, { envelopes: [] }]);
        // before holding and after the wake: registering again looks no more, as nothing rang since
        expect(looks).toBe(2);
        expect(Number(res.headers.get('ratelimit-remaining'))).toBe(start - 1);
      } finally {
        ackDone();
        await r.close();
      }
    },
  );

  it('a held pull costs one request of the rate-limit budget, however long it waits and however often it is woken', async () => {
    const r = await startRelay({ rateLimit: 120 });
    try {
      const [a, b] = await pair(r);
      const remaining = async () =>
        Number(((await pull(r, b)) as Awaited<ReturnType<typeof call>>).headers.get('ratelimit-remaining'));
      const start = await remaining();
      // a wake that finds nothing (the other device acked first) sends it back to waiting
      const otherDevice = await signIn(r.url, b.account, newDeviceKey());
      const pending = pull(r, b, '?wait=2') as ReturnType<typeof call>;
      await held(r, 1);
      const unbound = await send(r, a, envelopeTo({ address: b.address }));
      await call(r.url, 'POST', '/api/v1/envelopes/ack', {
        auth: otherDevice.apiKey,
        body: { ids: [unbound.body.envelope.id] },
      });
      const res = await pending;
      expect(res.status).toBe(200);
      expect(Number(res.headers.get('ratelimit-remaining'))).toBe(start - 1);
      // the other device's ack counts too: a wallet's keys share one budget
      expect(await remaining()).toBe(start - 3);
    } finally {
      await r.close();
    }
  });
});
