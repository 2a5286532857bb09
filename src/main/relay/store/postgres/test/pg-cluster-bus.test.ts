import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recipient } from '../../../live/doorbell.js';
import { joinClusterBus, RING_GATHER_MS } from '../pg-cluster-bus.js';
import type { PgListener } from '../pg-client.js';
import { openPgStore, type PgRelayStore } from '../pg-store.js';
import { direct, item } from '../../test/deliveries.js';
import { pgMissing, startPgCluster, type PgCluster } from '../../../../test-support/pg-cluster.js';
import { addr, devKey } from '../../test/temp-store.js';

const missing = pgMissing();

/** A LISTEN connection that never comes up, as when the database refuses it for good. */
const neverListening = (): PgListener => ({
  listening: false,
  ready: async () => undefined,
  close: async () => undefined,
});

describe.skipIf(missing !== null)('cluster bus', () => {
  let cluster: PgCluster;
  const stores: PgRelayStore[] = [];
  beforeAll(() => {
    cluster = startPgCluster();
  }, 60_000);
  afterAll(async () => {
    for (const s of stores) await s.close();
    cluster?.destroy();
  });
  /** A node's store on a database of its own, so that one test's rings never reach another's. */
  const nodeStore = async (nodeId: string): Promise<{ url: string; store: PgRelayStore }> => {
    const url = await cluster.createDatabase();
    const store = await openPgStore(url, { nodeId });
    stores.push(store);
    return { url, store };
  };

  it('without LISTEN (the fallback poll), rings the recipients of envelopes queued by another node, device-bound or not, from the envelope sequence alone', async () => {
    const { url, store } = await nodeStore('sender');
    const bus = await joinClusterBus(store.sql, url, 'poller', neverListening);
    const rung: Recipient[] = [];
    const stop = bus.listen((recipients) => rung.push(...recipients));
    try {
      expect(bus.listening).toBe(false);
      await store.addDevice({ publicKey: devKey(3), address: addr(0xc), certificate: '0x00', now: 1 });
      // Delivered straight through the store: no node rings, so only the poll can find them.
      await store.deliver(
        direct(addr(1), [
          item(addr(0xb)),
          item(addr(0xc), { recipientDeviceKey: devKey(3), nonce: 'BBECAwQFBgcICQoL' }),
        ]),
      );
      // Within a held pull's shortest useful wait (1 s), where the poll looks every 250 ms.
      await expect
        .poll(() => rung.map((r) => `${r.address}/${r.deviceKey}`).sort(), { timeout: 1000, interval: 25 })
        .toEqual([`${addr(0xb)}/null`, `${addr(0xc)}/${devKey(3)}`]);
    } finally {
      stop();
      await bus.close();
    }
  });

  it('gathers a steady stream of rings into one NOTIFY per RING_GATHER_MS at most, and every recipient is heard on the other node', async () => {
    const { url, store } = await nodeStore('ringer');
    const ringer = await joinClusterBus(store.sql, url, 'ringer');
    const hearer = await joinClusterBus(store.sql, url, 'hearer');
    const heard: Recipient[][] = [];
    const stop = hearer.listen((recipients) => heard.push([...recipients]));
    try {
      await expect.poll(() => ringer.listening && hearer.listening, { timeout: 5000 }).toBe(true);
      // a ring every millisecond or so, as a node's batches of sends would under load
      const rings = 40;
      const started = performance.now();
      for (let i = 0; i < rings; i++) {
        ringer.ring([{ address: addr(0x100 + i), deviceKey: i % 2 === 0 ? null : devKey(i) }]);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      const elapsed = performance.now() - started;
      await expect
        .poll(() => new Set(heard.flat().map((r) => `${r.address}/${r.deviceKey}`)).size, {
          timeout: 3000,
          interval: 20,
        })
        .toBe(rings);
      // One NOTIFY per ring (about 40) without the gathering.
      expect(heard.length).toBeLessThanOrEqual(Math.ceil(elapsed / RING_GATHER_MS) + 2);
      expect(heard.length).toBeLessThan(rings / 2);
    } finally {
      stop();
      await ringer.close();
      await hearer.close();
    }
  });
});
