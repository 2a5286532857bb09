/**
 * The code a plaintext-looking envelope is refused with (docs/protocol.md §4, envelopes): clients
 * and scripts tell "this is not sealed" from a malformed field by it, so it is pinned here for
 * direct and group sends alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, envelopeTo, signIn, startRelay, type TestRelay } from '../harness.js';

let relay: TestRelay;
beforeAll(async () => void (relay = await startRelay()));
afterAll(async () => relay.close());

const plaintexts = {
  'base64-wrapped text': Buffer.from('hello bob, this is plaintext pretending').toString('base64'),
  'base64 of JSON': Buffer.from('{"text":"hi bob, nothing sealed here"}').toString('base64'),
};

describe('plaintext-looking ciphertext is 400 not-sealed', () => {
  it.each(Object.entries(plaintexts))('%s, sent directly or into a group, and nothing is queued', async (_, text) => {
    const [a, b] = [await signIn(relay.url), await signIn(relay.url)];
    const direct = await call(relay.url, 'POST', '/api/v1/envelopes', {
      auth: a.apiKey,
      body: [envelopeTo(b), envelopeTo(b, { ciphertext: text })],
    });
    expect([direct.status, direct.body.code]).toEqual([400, 'not-sealed']);
    expect(direct.body.error).toMatch(/^envelopes\[1\]: /);

    const group = await call(relay.url, 'POST', '/api/v1/groups', {
      auth: a.apiKey,
      body: { name: 'g', isPublic: false },
    });
    const inGroup = await call(relay.url, 'POST', `/api/v1/groups/${group.body.id}/envelopes`, {
      auth: a.apiKey,
      body: envelopeTo(a, { ciphertext: text }),
    });
    expect([inGroup.status, inGroup.body.code]).toEqual([400, 'not-sealed']);
    for (const u of [a, b])
      expect((await call(relay.url, 'GET', '/api/v1/envelopes', { auth: u.apiKey })).body.envelopes).toEqual([]);
  });
});
