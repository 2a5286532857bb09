import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Recipient } from '../../../live/doorbell.js';
import { FALLBACK_POLL_MS, joinClusterBus, RING_GATHER_MS } from '../pg-cluster-bus.js';
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

const realSetTimeout = globalThis.setTimeout;
/**
 * Waits on real time until `ok()`, failing a hung test after 10 s. Unlike expect.poll it leaves
 * faked timers alone (expect.poll advances them by its interval at every try).
 */
async function until(what: string, ok: () => boolean): Promise<void> {
  const giveUp = Date.now() + 10_000;
  while (!ok()) {
    if (Date.now() > giveUp) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => realSetTimeout(resolve, 5));
  }
}

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
    // the poll's ticks are the test's to give: one tick must be enough
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
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
      vi.advanceTimersByTime(FALLBACK_POLL_MS);
      await until('the poll to ring both', () => rung.length >= 2);
      expect(rung.map((r) => `${r.address}/${r.deviceKey}`).sort()).toEqual([
        `${addr(0xb)}/null`,
        `${addr(0xc)}/${devKey(3)}`,
      ]);
      // so a pull is rung within one tick, shorter than a held pull's shortest wait (1 s)
      expect(FALLBACK_POLL_MS).toBeLessThan(1000);
    } finally {
      vi.useRealTimers();
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
    const names = () => new Set(heard.flat().map((r) => `${r.address}/${r.deviceKey}`)).size;
    try {
      await expect.poll(() => ringer.listening && hearer.listening, { timeout: 5000 }).toBe(true);
      // the ringer's clock is the test's: time moves only when the test moves it
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      const rings = 40;
      const ring = (i: number) =>
        ringer.ring([{ address: addr(0x100 + i), deviceKey: i % 2 === 0 ? null : devKey(i) }]);
      // the first goes out at once
      ring(0);
      await until('the first NOTIFY', () => names() === 1);
      // the rest, one a turn of the event loop as a node's batches of sends come under load, wait
      // for the window that the first NOTIFY opened
      for (let i = 1; i < rings; i++) {
        ring(i);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await until('the window to be waited for', () => vi.getTimerCount() === 1);
      vi.advanceTimersByTime(RING_GATHER_MS - 1);
      expect(vi.getTimerCount()).toBe(1);
      expect(heard).toHaveLength(1);
      // and go out together when it closes
      vi.advanceTimersByTime(1);
      await until('every recipient', () => names() === rings);
      expect(heard).toHaveLength(2);
    } finally {
      vi.useRealTimers();
      stop();
      await ringer.close();
      await hearer.close();
    }
  });
});
