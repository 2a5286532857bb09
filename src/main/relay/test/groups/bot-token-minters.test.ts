/**
 * docs/protocol.md §12 Groups, bot tokens: a token answers for the admin who minted it. A member
 * who blocks the minter gets nothing from the token, the token goes when its minter stops being
 * an admin or a member (401 on its next use, on every node of a cluster), and a group has at
 * most MAX_TOKENS_PER_GROUP live tokens. Against a real relay over HTTP (a two-node cluster
 * behind a round-robin proxy under `npm run test:cluster`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TOKENS_PER_GROUP } from '../../store/store.js';
import { call, CLUSTER_MODE, envelopeTo, signIn, startRelay, type TestRelay, type TestUser } from '../harness.js';

let relay: TestRelay;
beforeAll(async () => void (relay = await startRelay()));
afterAll(async () => relay.close());

const api = (u: TestUser | string, method: string, path: string, body?: unknown) =>
  call(relay.url, method, path, { auth: typeof u === 'string' ? u : u.apiKey, body });

/** A public group of `creator` that each of `members` joined; `admins` among them promoted. */
async function groupWith(creator: TestUser, members: TestUser[], admins: TestUser[]): Promise<string> {
  const g = await api(creator, 'POST', '/api/v1/groups', { name: 'Team', isPublic: true });
  for (const m of members) expect((await api(m, 'POST', `/api/v1/groups/${g.body.id}/join`, {})).status).toBe(200);
  for (const a of admins)
    expect((await api(creator, 'PUT', `/api/v1/groups/${g.body.id}/admins/${a.address}`)).status).toBe(200);
  return g.body.id;
}
const mint = async (admin: TestUser, groupId: string, name = 'bot') => {
  const r = await api(admin, 'POST', `/api/v1/groups/${groupId}/tokens`, { name });
  expect(r.status).toBe(201);
  return r.body as { token: string; botToken: { id: string; mintedBy: string } };
};

describe('a bot token answers for the admin who minted it', () => {
  it("a member who blocks the minter gets `blocked` from the minter's token; the others get the post", async () => {
    const [creator, admin, blocker, other] = [
      await signIn(relay.url),
      await signIn(relay.url),
      await signIn(relay.url),
      await signIn(relay.url),
    ];
    const g = await groupWith(creator, [admin, blocker, other], [admin]);
    const minted = await mint(admin, g);
    expect(minted.botToken.mintedBy).toBe(admin.address);
    const byCreator = await mint(creator, g, 'creator-bot');
    expect((await api(blocker, 'PUT', `/api/v1/blocks/${admin.address}`)).status).toBe(200);
    const post = (token: string) =>
      api(token, 'POST', `/api/v1/groups/${g}/envelopes`, [envelopeTo(blocker), envelopeTo(other)]);
    const sent = await post(minted.token);
    expect(sent.status).toBe(200);
    expect(sent.body.results.map((r: { routed: string }) => r.routed)).toEqual(['blocked', 'inbox']);
    // the creator's own token is not the blocked admin's
    expect((await post(byCreator.token)).body.results.map((r: { routed: string }) => r.routed)).toEqual([
      'inbox',
      'inbox',
    ]);
    const inbox = await api(blocker, 'GET', '/api/v1/envelopes');
    expect(inbox.body.envelopes.map((e: { botName: string }) => e.botName)).toEqual(['creator-bot']);
  });

  it('demoting the minter revokes its tokens at once (401), and so does removing it; other tokens keep working', async () => {
    const [creator, demoted, removed, member] = [
      await signIn(relay.url),
      await signIn(relay.url),
      await signIn(relay.url),
      await signIn(relay.url),
    ];
    const g = await groupWith(creator, [demoted, removed, member], [demoted, removed]);
    const [fromDemoted, fromRemoved, fromCreator] = [
      await mint(demoted, g),
      await mint(removed, g),
      await mint(creator, g),
    ];
    const view = async (token: string) => (await api(token, 'GET', `/api/v1/groups/${g}`)).status;
    /**
     * 401 on both nodes: at once on one relay; on a cluster, once the other node hears of it
     * (PostgreSQL's notification), well before its cached credential would expire (a minute).
     */
    const refused = async (token: string) => {
      if (CLUSTER_MODE) await expect.poll(() => view(token), { timeout: 10_000, interval: 20 }).toBe(401);
      expect([await view(token), await view(token)]).toEqual([401, 401]);
    };
    // each used once, so that a node that cached them must forget them
    for (const t of [fromDemoted, fromRemoved, fromCreator]) expect(await view(t.token)).toBe(200);

    expect((await api(creator, 'DELETE', `/api/v1/groups/${g}/admins/${demoted.address}`)).status).toBe(200);
    await refused(fromDemoted.token);
    const post = await api(fromDemoted.token, 'POST', `/api/v1/groups/${g}/envelopes`, envelopeTo(member));
    expect(post.status).toBe(401);

    expect((await api(creator, 'DELETE', `/api/v1/groups/${g}/members/${removed.address}`)).status).toBe(200);
    await refused(fromRemoved.token);

    expect([await view(fromCreator.token), await view(fromCreator.token)]).toEqual([200, 200]);
    const detail = await api(creator, 'GET', `/api/v1/groups/${g}`);
    const revoked = Object.fromEntries(
      detail.body.botTokens.map((t: { id: string; revokedAt: string | null }) => [t.id, t.revokedAt !== null]),
    );
    expect(revoked).toEqual({
      [fromDemoted.botToken.id]: true,
      [fromRemoved.botToken.id]: true,
      [fromCreator.botToken.id]: false,
    });
  });

  it(`a group has at most ${MAX_TOKENS_PER_GROUP} live tokens: one more is 409 too-many-tokens; revoking one makes room`, async () => {
    const creator = await signIn(relay.url);
    const g = await groupWith(creator, [], []);
    const ids = [];
    for (let i = 0; i < MAX_TOKENS_PER_GROUP; i++) ids.push((await mint(creator, g, `bot-${i}`)).botToken.id);
    const over = await api(creator, 'POST', `/api/v1/groups/${g}/tokens`, { name: 'one more' });
    expect([over.status, over.body.code]).toEqual([409, 'too-many-tokens']);
    expect((await api(creator, 'DELETE', `/api/v1/groups/${g}/tokens/${ids[0]}`)).status).toBe(200);
    await mint(creator, g, 'room again');
  });
});
