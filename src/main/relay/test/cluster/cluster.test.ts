import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SchemaTooNewError } from '../../../sqlite/migrations.js';
import { DEFAULT_CONFIG, type RelayConfig } from '../../config.js';
import { openPg } from '../../store/postgres/pg-client.js';
import { PG_MIGRATIONS } from '../../store/postgres/pg-migrations.js';
import { openPgStore } from '../../store/postgres/pg-store.js';
import { privateCluster } from '../../store/test/backends.js';
import { pgMissing } from '../../../test-support/pg-cluster.js';
import { MAX_HELD_PER_WALLET } from '../../live/waiters.js';
import { startNode, type ClusterNode } from '../cluster-harness.js';
import { call, envelopeTo, signIn, type TestUser, watchHeldPulls } from '../harness.js';

/**
 * What makes two relay processes on one PostgreSQL database one relay (docs/protocol.md §16 Operating a relay):
 * each case talks to node A and node B directly. The rest of the relay's HTTP suite runs on a
 * cluster too (npm run test:cluster).
 */
const missing = pgMissing();
// Cases start PostgreSQL databases and pairs of nodes, and one stops and starts a server: on a
// loaded machine that alone can outlast the default timeouts, which are there for hung tests only.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
const config = (over: Partial<RelayConfig> = {}): RelayConfig => ({
  ...DEFAULT_CONFIG,
  rateLimit: 0,
  minFreeDiskMib: 0,
  baseUrl: 'http://127.0.0.1',
  ...over,
});

async function twoNodes(
  over: Partial<RelayConfig> = {},
): Promise<{ a: ClusterNode; b: ClusterNode; url: string; close(): Promise<void> }> {
  const url = await privateCluster().createDatabase();
  const a = await startNode(url, 'a', config(over), Date.now);
  const b = await startNode(url, 'b', config(over), Date.now);
  return {
    a,
    b,
    url,
    async close() {
      await a.close();
      await b.close();
    },
  };
}

const holds = watchHeldPulls();
/** Why each pull held with `u`'s key stopped waiting (null: it still waits), on either node, oldest first. */
const reasonsOf = (u: TestUser) => holds.filter((h) => h.keyId === u.keyId).map((h) => h.reason);

const send = (node: ClusterNode, from: TestUser, to: TestUser, extra: Record<string, unknown> = {}) =>
  call(node.url, 'POST', '/api/v1/envelopes', { auth: from.apiKey, body: { envelopes: [envelopeTo(to, extra)] } });
const pull = (node: ClusterNode, u: TestUser, q = '') =>
  call(node.url, 'GET', `/api/v1/envelopes${q}`, { auth: u.apiKey });

describe.skipIf(missing !== null)(
  `a cluster of two nodes on one PostgreSQL database${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    afterAll(() => privateCluster().destroy());

    describe('one relay across the nodes', () => {
      let c: Awaited<ReturnType<typeof twoNodes>>;
      let alice: TestUser;
      let bob: TestUser;
      beforeAll(async () => {
        c = await twoNodes();
        alice = await signIn(c.a.url);
        bob = await signIn(c.b.url);
      });
      afterAll(() => c.close());

      it('a send on A is pulled on B, and an ack on B is gone on A', async () => {
        const sent = await send(c.a, alice, bob);
        expect(sent.status).toBe(200);
        const id = sent.body.results[0].envelope.id;
        expect((await pull(c.b, bob)).body.envelopes.map((e: { id: string }) => e.id)).toEqual([id]);
        expect(
          (await call(c.b.url, 'POST', '/api/v1/envelopes/ack', { auth: bob.apiKey, body: { ids: [id] } })).body,
        ).toEqual({ ok: true, acked: 1 });
        expect((await pull(c.a, bob)).body.envelopes).toEqual([]);
      });

      it('a held pull on B is woken by a send on A, before its wait is over', async () => {
        const held = pull(c.b, bob, '?wait=20');
        await expect.poll(() => c.b.app.heldPulls, { timeout: 3000, interval: 5 }).toBe(1);
        const sent = await send(c.a, alice, bob);
        const answer = await held;
        expect(answer.body.envelopes.map((e: { id: string }) => e.id)).toEqual([sent.body.results[0].envelope.id]);
        // woken by A's ring, not answered when its wait ran out
        expect(reasonsOf(bob).at(-1)).toBe('rung');
        await call(c.a.url, 'POST', '/api/v1/envelopes/ack', {
          auth: bob.apiKey,
          body: { ids: [sent.body.results[0].envelope.id] },
        });
      });

      it('a second held pull of the same credential on A answers the first one, held on B', async () => {
        const first = pull(c.b, bob, '?wait=20');
        await expect.poll(() => c.b.app.heldPulls, { timeout: 3000, interval: 5 }).toBe(1);
        const second = pull(c.a, bob, '?wait=20');
        expect((await first).body.envelopes).toEqual([]);
        // The later pull stays held (however the two nodes' announcements raced), and is woken.
        await expect.poll(() => c.a.app.heldPulls + c.b.app.heldPulls, { timeout: 3000, interval: 5 }).toBe(1);
        expect(c.a.app.heldPulls).toBe(1);
        const sent = await send(c.b, alice, bob);
        const answer = await second;
        expect(answer.body.envelopes.map((e: { id: string }) => e.id)).toEqual([sent.body.results[0].envelope.id]);
        await call(c.a.url, 'POST', '/api/v1/envelopes/ack', {
          auth: bob.apiKey,
          body: { ids: [sent.body.results[0].envelope.id] },
        });
      });

      it("a key revoked on A answers 401 on B as soon as B hears of it, not when B's cached credential expires", async () => {
        const carol = await signIn(c.a.url);
        await c.a.node.store.grantEntitlement(carol.address, 'developer-api');
        const minted = await call(c.a.url, 'POST', '/api/v1/me/keys', { auth: carol.apiKey, body: { label: 'ci' } });
        const second: string = minted.body.apiKey;
        // B has the key in its credential cache now
        expect((await call(c.b.url, 'GET', '/api/v1/me', { auth: second })).status).toBe(200);
        expect(
          (await call(c.a.url, 'DELETE', `/api/v1/me/keys/${minted.body.key.id}`, { auth: carol.apiKey })).status,
        ).toBe(200);
        await expect
          // the cache keeps a credential for a minute: this waits far less than that
          .poll(async () => (await call(c.b.url, 'GET', '/api/v1/me', { auth: second })).status, {
            timeout: 10_000,
            interval: 20,
          })
          .toBe(401);
      });

      it('a pull held on B is answered 401 at once when its key is revoked on A, and so is one whose device is revoked on A', async () => {
        const dave = await signIn(c.a.url);
        const davesOther = await signIn(c.a.url, dave.account);
        const held = pull(c.b, dave, '?wait=20');
        await expect.poll(() => c.b.app.heldPulls, { timeout: 3000, interval: 5 }).toBe(1);
        expect(
          (await call(c.a.url, 'DELETE', `/api/v1/me/keys/${dave.keyId}`, { auth: davesOther.apiKey })).status,
        ).toBe(200);
        expect((await held).status).toBe(401);
        // answered by the revocation A announced, not when its wait ran out
        expect(reasonsOf(dave)).toEqual(['revoked']);

        const heldToo = pull(c.b, davesOther, '?wait=20');
        await expect.poll(() => c.b.app.heldPulls, { timeout: 3000, interval: 5 }).toBe(1);
        const third = await signIn(c.a.url, dave.account);
        expect(
          (await call(c.a.url, 'DELETE', `/api/v1/devices/${davesOther.deviceKey}`, { auth: third.apiKey })).status,
        ).toBe(200);
        expect((await heldToo).status).toBe(401);
        expect(reasonsOf(davesOther)).toEqual(['revoked']);
      });

      it(`a wallet holds at most ${MAX_HELD_PER_WALLET} pulls across the nodes: the next one, on either node, answers the oldest`, async () => {
        const erin = await signIn(c.a.url);
        const keys = [erin];
        for (let i = 0; i < MAX_HELD_PER_WALLET; i++) keys.push(await signIn(c.a.url, erin.account, erin.deviceKey));
        const held = () => c.a.app.heldPulls + c.b.app.heldPulls;
        const pulls = [];
        for (let i = 0; i < MAX_HELD_PER_WALLET; i++) {
          pulls.push(pull(i % 2 === 0 ? c.a : c.b, keys[i], '?wait=20'));
          await expect.poll(held, { timeout: 3000, interval: 5 }).toBe(i + 1);
        }
        // the oldest is on A; the next is on B
        const last = pull(c.b, keys[MAX_HELD_PER_WALLET], '?wait=1');
        expect((await pulls[0]).body).toEqual({ envelopes: [] });
        // answered because of the pull past the cap, not when its own wait ran out
        expect(reasonsOf(erin)).toEqual(['replaced']);
        expect(held()).toBe(MAX_HELD_PER_WALLET);
        expect((await last).status).toBe(200);
        // the rest answer when their wait is cut short by a send to the wallet
        const sent = await send(c.a, alice, erin);
        for (const p of pulls.slice(1))
          expect((await p).body.envelopes.map((e: { id: string }) => e.id)).toEqual([sent.body.results[0].envelope.id]);
      });

      it('the LISTEN connections killed: a held pull is still answered within its wait, and LISTEN comes back', async () => {
        const admin = openPg(c.url, { max: 1 });
        try {
          const killed =
            await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'relay listener' AND datname = current_database()`;
          expect(killed.length).toBe(2);
          const held = pull(c.b, bob, '?wait=5');
          await expect.poll(() => c.b.app.heldPulls, { timeout: 3000, interval: 5 }).toBe(1);
          const sent = await send(c.a, alice, bob);
          const answer = await held;
          expect(answer.body.envelopes.map((e: { id: string }) => e.id)).toEqual([sent.body.results[0].envelope.id]);
          await call(c.a.url, 'POST', '/api/v1/envelopes/ack', {
            auth: bob.apiKey,
            body: { ids: [sent.body.results[0].envelope.id] },
          });
          await expect
            .poll(
              async () =>
                (
                  await admin`SELECT 1 FROM pg_stat_activity WHERE application_name = 'relay listener' AND datname = current_database()`
                ).length,
              { timeout: 5000 },
            )
            .toBe(2);
        } finally {
          await admin.end();
        }
      });

      it('says on /healthz that the database is reachable', async () => {
        for (const node of [c.a, c.b])
          expect((await call(node.url, 'GET', '/healthz')).body).toEqual({ ok: true, database: 'reachable' });
      });
    });

    it('counts the rate limit across the nodes: the 121st request in a minute is 429, whichever node gets it', async () => {
      const c = await twoNodes({ rateLimit: 120 });
      try {
        const u = await signIn(c.a.url);
        const statuses: number[] = [];
        for (let i = 0; i < 121; i++)
          statuses.push((await call((i % 2 === 0 ? c.a : c.b).url, 'GET', '/api/v1/me', { auth: u.apiKey })).status);
        expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
        expect(statuses[120]).toBe(429);
        expect((await call(c.a.url, 'GET', '/api/v1/me', { auth: u.apiKey })).status).toBe(429);
      } finally {
        await c.close();
      }
    });

    it("counts a recipient's queue across the nodes: sends racing on A and B never queue past --max-queued", async () => {
      const c = await twoNodes({ maxQueued: 4 });
      try {
        const [a, b, bob] = await Promise.all([signIn(c.a.url), signIn(c.b.url), signIn(c.a.url)]);
        for (const sender of [a, b])
          await call(c.a.url, 'PUT', `/api/v1/contacts/${sender.address}`, { auth: bob.apiKey });
        // Each node batches what arrives in one turn: four on each, at once, both read an empty queue.
        const statuses = (
          await Promise.all([
            ...Array.from({ length: 4 }, () => send(c.a, a, bob)),
            ...Array.from({ length: 4 }, () => send(c.b, b, bob)),
          ])
        ).map((r) => r.status);
        expect(statuses.filter((s) => s === 200)).toHaveLength(4);
        expect(statuses.filter((s) => s === 429)).toHaveLength(4);
        expect((await pull(c.b, bob, '?limit=100')).body.envelopes).toHaveLength(4);
      } finally {
        await c.close();
      }
    });

    it('two nodes migrating an empty database at once: one migrates, both start, the version is recorded once', async () => {
      const url = await privateCluster().createDatabase();
      const stores = await Promise.all([openPgStore(url), openPgStore(url)]);
      try {
        const [{ rows }] = await stores[0].sql<{ rows: number }[]>`SELECT count(*)::int AS rows FROM relay_schema`;
        expect(rows).toBe(1);
        const [{ version }] = await stores[0].sql<{ version: number }[]>`SELECT version FROM relay_schema`;
        expect(version).toBe(PG_MIGRATIONS.length);
        expect(await stores[1].stats()).toMatchObject({ accounts: 0, queuedEnvelopes: 0 });
        // a database a newer relay wrote is refused before anything touches it
        await stores[0].sql`UPDATE relay_schema SET version = ${PG_MIGRATIONS.length + 1}`;
        await expect(openPgStore(url)).rejects.toThrow(SchemaTooNewError);
      } finally {
        for (const s of stores) await s.close();
      }
    });

    // Stopping PostgreSQL at a bad moment once made the driver write to a connection it had closed,
    // from a setImmediate of its own: an uncaught TypeError that ended the process. patches/ guards
    // that write (porsager/postgres#1208); this test failed CI before it.
    it('PostgreSQL stopped mid-send: 503 with Retry-After, no partial batch, and service again when it is back', async () => {
      const c = await twoNodes();
      const cluster = privateCluster();
      try {
        const alice = await signIn(c.a.url);
        const bob = await signIn(c.b.url);
        const batch = (n: number) =>
          Array.from({ length: 5 }, () =>
            envelopeTo(bob, { nonce: Buffer.from(`batch-${n}-`.padEnd(12, '.')).toString('base64') }),
          );
        const sends = Array.from({ length: 20 }, (_, n) =>
          call((n % 2 ? c.a : c.b).url, 'POST', '/api/v1/envelopes', {
            auth: alice.apiKey,
            body: { envelopes: batch(n) },
          }),
        );
        // Stopped as soon as the first send is answered: the others are on their way or being batched.
        await Promise.race(sends);
        cluster.stop('immediate');
        const answers = await Promise.all(sends);
        expect(answers.some((a) => a.status === 200)).toBe(true);
        for (const a of answers) expect([200, 503]).toContain(a.status);
        const down = await call(c.a.url, 'POST', '/api/v1/envelopes', {
          auth: alice.apiKey,
          body: { envelopes: batch(99) },
        });
        expect(down.status).toBe(503);
        expect(down.body.code).toBe('database-unavailable');
        expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
        expect((await call(c.b.url, 'GET', '/healthz')).status).toBe(503);

        cluster.start();
        await expect
          .poll(async () => (await call(c.b.url, 'GET', '/healthz')).status, { timeout: 10_000, interval: 100 })
          .toBe(200);
        await expect
          .poll(async () => (await send(c.a, alice, bob)).status, { timeout: 10_000, interval: 100 })
          .toBe(200);
        // every batch is all there or not at all, and every 200 is all there
        const queued = (await pull(c.b, bob, '?limit=100')).body.envelopes as Array<{ nonce: string }>;
        const perBatch = new Map<string, number>();
        for (const e of queued) {
          const tag = Buffer.from(e.nonce, 'base64').toString().replace(/\.+$/, '');
          perBatch.set(tag, (perBatch.get(tag) ?? 0) + 1);
        }
        expect([...perBatch].filter(([tag, n]) => tag.startsWith('batch-') && n !== 5)).toEqual([]);
        const answered = answers.flatMap((a, n) => (a.status === 200 ? [`batch-${n}-`] : []));
        for (const tag of answered) expect(perBatch.get(tag), tag).toBe(5);
      } finally {
        await c.close();
      }
    });
  },
);
