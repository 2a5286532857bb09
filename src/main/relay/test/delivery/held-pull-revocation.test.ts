/**
 * A held pull whose credential is revoked while it reads its page (woken, no longer waiting, so
 * the revocation has no waiter to answer) still answers 401: what it read after the revocation
 * never goes out (docs/protocol.md §4 Limits). Made certain with a shim that holds the look
 * after the wake until the revocation has been answered (SQLite only; it also turns the hand-over
 * off, as on a cluster, so the woken pull looks at the queue).
 */
import { describe, expect, it } from 'vitest';
import { call, CLUSTER_MODE, envelopeTo, signIn, startRelay, watchHeldPulls } from '../harness.js';

const holds = watchHeldPulls();

describe('a revocation during a held pull’s page read', () => {
  it.skipIf(CLUSTER_MODE)('answers the pull 401, not the page it read', async () => {
    let watched = '';
    let looks = 0;
    let lookAfterWake!: () => void;
    const woken = new Promise<void>((r) => (lookAfterWake = r));
    let revoked!: () => void;
    const revocation = new Promise<void>((r) => (revoked = r));
    const relay = await startRelay(
      {},
      {
        wrapStore: (store) =>
          Object.assign(Object.create(store) as typeof store, {
            commitsInOrder: false,
            async pullWire(address: string, deviceKey: string | null, limit: number) {
              if (deviceKey === watched && ++looks === 2) {
                lookAfterWake();
                await revocation;
              }
              return store.pullWire(address, deviceKey, limit);
            },
          }),
      },
    );
    try {
      const [u, sender] = [await signIn(relay.url), await signIn(relay.url)];
      const other = await signIn(relay.url, u.account, u.deviceKey);
      watched = u.deviceKey;
      const pending = call(relay.url, 'GET', '/api/v1/envelopes?wait=10', { auth: u.apiKey });
      await expect.poll(() => relay.app.heldPulls, { timeout: 3000, interval: 5 }).toBe(1);
      expect(
        (await call(relay.url, 'POST', '/api/v1/envelopes', { auth: sender.apiKey, body: envelopeTo(u) })).status,
      ).toBe(200);
      await woken;
      expect((await call(relay.url, 'DELETE', `/api/v1/me/keys/${u.keyId}`, { auth: other.apiKey })).status).toBe(200);
      revoked();
      const answer = await pending;
      expect(answer.status).toBe(401);
      // woken by the send, so it was the check after the read that refused it
      expect(holds.filter((h) => h.keyId === u.keyId).map((h) => h.reason)).toEqual(['rung']);
    } finally {
      await relay.close();
    }
  });
});
