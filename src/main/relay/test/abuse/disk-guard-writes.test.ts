/**
 * docs/protocol.md §4 Limits, the disk guard: below `--min-free-disk-mib` every request that
 * adds rows answers 507 `storage-full`, while those that free space or add none keep working;
 * and the allow and block lists are capped. Against a real relay over HTTP (one node of a
 * two-node cluster under `npm run test:cluster`: the guard is each node's own).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { MAX_LIST_ENTRIES, type RelayStore } from '../../store/store.js';
import {
  call,
  CLUSTER_MODE,
  certify,
  envelopeTo,
  newDeviceKey,
  signIn,
  startRelay,
  type TestRelay,
  type TestUser,
} from '../harness.js';

const relays: TestRelay[] = [];
async function relayWith(deps: Parameters<typeof startRelay>[1] = {}): Promise<TestRelay> {
  const r = await startRelay({}, deps);
  relays.push(r);
  return r;
}
afterEach(async () => {
  for (const r of relays.splice(0)) await r.close();
});

/** Turns the guard on as a reload would: far more free space asked for than any disk has. */
const diskFull = (r: TestRelay) => {
  const current = r.app.liveConfig.current;
  r.app.liveConfig.apply({ ...current, registration: current.registration ?? 'open', minFreeDiskMib: 2 ** 30 });
};

describe('the disk guard covers every write that grows storage', () => {
  it('list entries, devices, policy, invitations, joins and new wallets are 507 storage-full; the rest still works', async () => {
    const relay = await relayWith();
    // every request to the node whose guard is on
    const url = relay.nodeUrl;
    const api = (u: TestUser, method: string, path: string, body?: unknown) =>
      call(url, method, path, { auth: u.apiKey, body });
    const [u, friend, stranger, invitee] = [await signIn(url), await signIn(url), await signIn(url), await signIn(url)];
    await api(u, 'PUT', `/api/v1/contacts/${friend.address}`);
    const sent = await api(friend, 'POST', '/api/v1/envelopes', envelopeTo(u));
    const open = await api(stranger, 'POST', '/api/v1/groups', { name: 'open', isPublic: true });
    const mine = await api(u, 'POST', '/api/v1/groups', { name: 'mine', isPublic: false });
    diskFull(relay);

    const device = newDeviceKey();
    const writes = [
      api(u, 'PUT', `/api/v1/contacts/${stranger.address}`),
      api(u, 'PUT', `/api/v1/blocks/${stranger.address}`),
      api(u, 'POST', '/api/v1/devices', { publicKey: device, certificate: await certify(u.account, device) }),
      api(u, 'PUT', '/api/v1/me/policy', { unknownSenders: 'block' }),
      api(u, 'POST', `/api/v1/groups/${mine.body.id}/members`, { address: invitee.address }),
      api(u, 'POST', `/api/v1/groups/${open.body.id}/join`, {}),
    ];
    for (const w of await Promise.all(writes)) expect([w.status, w.body.code]).toEqual([507, 'storage-full']);
    await expect(signIn(url, privateKeyToAccount(generatePrivateKey()))).rejects.toThrow(/507 .*storage-full/);

    // nothing of it was written
    expect((await api(u, 'GET', '/api/v1/contacts')).body).toEqual({ allowed: [friend.address], blocked: [] });
    expect((await api(u, 'GET', `/api/v1/keys/${u.address}`)).body.deviceKeys).toEqual([u.deviceKey]);
    expect((await api(u, 'GET', '/api/v1/me/policy')).body).toEqual({ unknownSenders: 'request' });
    expect((await api(invitee, 'GET', '/api/v1/me/invitations')).body.invitations).toEqual([]);
    expect((await api(u, 'GET', '/api/v1/groups?mine=1')).body.groups).toHaveLength(1);

    // a known wallet signs in; acks, removals and revocations free space or add none
    const again = await signIn(url, u.account, u.deviceKey);
    expect((await api(u, 'POST', '/api/v1/envelopes/ack', { ids: [sent.body.envelope.id] })).body.acked).toBe(1);
    expect((await api(u, 'DELETE', `/api/v1/contacts/${friend.address}`)).status).toBe(200);
    expect((await api(again, 'DELETE', `/api/v1/me/keys/${u.keyId}`)).status).toBe(200);
  });
});

describe('allow and block lists are capped', () => {
  it.skipIf(CLUSTER_MODE)(
    `each holds at most ${MAX_LIST_ENTRIES} addresses: one more is 409 too-many-entries, naming what to do`,
    async () => {
      const caps: Array<number | undefined> = [];
      // Filling ten thousand entries through HTTP would take most of a minute: the store is asked
      // with a cap of two instead, and the route is held to passing MAX_LIST_ENTRIES.
      const relay = await relayWith({
        wrapStore: (store: RelayStore) =>
          Object.assign(Object.create(store) as RelayStore, {
            setContact: (...args: Parameters<RelayStore['setContact']>) => {
              caps.push(args[4]);
              return store.setContact(args[0], args[1], args[2], args[3], args[4] === undefined ? undefined : 2);
            },
          }),
      });
      const u = await signIn(relay.url);
      const others = [await signIn(relay.url), await signIn(relay.url), await signIn(relay.url)];
      const block = (o: TestUser) => call(relay.url, 'PUT', `/api/v1/blocks/${o.address}`, { auth: u.apiKey });
      expect((await block(others[0])).status).toBe(200);
      expect((await block(others[1])).status).toBe(200);
      const over = await block(others[2]);
      expect([over.status, over.body.code]).toEqual([409, 'too-many-entries']);
      expect(over.body.error).toMatch(/block list .*remove some/);
      expect(caps).toEqual([MAX_LIST_ENTRIES, MAX_LIST_ENTRIES, MAX_LIST_ENTRIES]);
    },
  );
});
