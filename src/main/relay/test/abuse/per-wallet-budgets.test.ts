/**
 * docs/protocol.md §4 Limits, budgets per wallet: the request budget is shared by every key of a
 * wallet (a group's tokens share one of their own), and one wallet's held pulls take at most its
 * share of a node's cap, so that minting credentials buys no more of either. Against a real
 * relay over HTTP (a two-node cluster under `npm run test:cluster`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RelayConfig } from '../../config.js';
import { call, signIn, startRelay, type TestRelay, type TestUser, watchHeldPulls } from '../harness.js';

const relays: TestRelay[] = [];
async function relayWith(config: Partial<RelayConfig>): Promise<TestRelay> {
  const r = await startRelay(config);
  relays.push(r);
  return r;
}
afterEach(async () => {
  for (const r of relays.splice(0)) await r.close();
});

const holds = watchHeldPulls();
const reasons = () => holds.map((h) => h.reason);

const me = (r: TestRelay, secret: string) => call(r.url, 'GET', '/api/v1/me', { auth: secret });

describe('the request budget is per wallet, not per credential', () => {
  it("a wallet's keys share one budget; another wallet keeps its own", async () => {
    // sign-ins spend the peer's sign-in budget (two requests each): three keys and a bystander
    const relay = await relayWith({ rateLimit: 8 });
    const first = await signIn(relay.url);
    const keys: TestUser[] = [first, await signIn(relay.url, first.account), await signIn(relay.url, first.account)];
    const bystander = await signIn(relay.url);
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await me(relay, keys[i % 3].apiKey)).status);
    expect(statuses).toEqual([...Array<number>(8).fill(200), 429, 429, 429, 429]);
    expect((await me(relay, bystander.apiKey)).status).toBe(200);
  });

  it("a group's tokens share one budget, apart from the wallet that minted them", async () => {
    const relay = await relayWith({ rateLimit: 6 });
    const admin = await signIn(relay.url);
    const group = await call(relay.url, 'POST', '/api/v1/groups', {
      auth: admin.apiKey,
      body: { name: 'g', isPublic: false },
    });
    const mint = (name: string) =>
      call(relay.url, 'POST', `/api/v1/groups/${group.body.id}/tokens`, { auth: admin.apiKey, body: { name } });
    const tokens = [(await mint('a')).body.token as string, (await mint('b')).body.token as string];
    const view = (t: string) => call(relay.url, 'GET', `/api/v1/groups/${group.body.id}`, { auth: t });
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await view(tokens[i % 2])).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    // the minter spent three of its own six: the tokens' requests were not its
    expect([(await me(relay, admin.apiKey)).status, (await me(relay, admin.apiKey)).status]).toEqual([200, 200]);
  });
});

describe("a wallet's held pulls take at most its share of the node", () => {
  it('a twentieth of --max-held-pulls each: wallets with many keys cannot fill the node, a bystander is held', async () => {
    const relay = await relayWith({ maxHeldPulls: 20 });
    // on a cluster the cap is each node's: every pull goes to one node
    const node = relay.nodeUrl;
    const pulls = [];
    for (let w = 0; w < 4; w++) {
      const first = await signIn(node);
      for (let k = 0; k < 5; k++) {
        const key = k === 0 ? first : await signIn(node, first.account);
        pulls.push(call(node, 'GET', '/api/v1/envelopes?wait=20', { auth: key.apiKey }));
        await expect.poll(() => relay.app.heldPulls, { timeout: 3000, interval: 5 }).toBe(w + 1);
      }
    }
    const bystander = await signIn(node);
    const held = call(node, 'GET', '/api/v1/envelopes?wait=1', { auth: bystander.apiKey });
    await expect.poll(() => relay.app.heldPulls, { timeout: 3000, interval: 5 }).toBe(5);
    expect((await held).status).toBe(200);
    // each wallet's older pulls were answered empty by its newer ones, not when their wait ran out
    for (const [i, p] of pulls.entries()) if (i % 5 !== 4) expect((await p).body).toEqual({ envelopes: [] });
    expect(reasons().filter((r) => r === 'replaced')).toHaveLength(16);
  });
});
