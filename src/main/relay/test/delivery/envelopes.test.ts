import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { PullResult, type Envelope, type SendResult } from '../../../../shared/api/envelopes.js';
import {
  call,
  envelopeTo,
  newDeviceKey,
  sealedLooking,
  signIn,
  startRelay,
  UNREAD_STAKE_CHAIN,
  type TestRelay,
  type TestUser,
} from '../harness.js';

let relay: TestRelay;
// a relay that takes stakes, so that stake-gate can be set (the chain itself: stakes.test.ts)
beforeAll(async () => {
  relay = await startRelay({}, { stakeChain: UNREAD_STAKE_CHAIN });
});
afterAll(async () => relay.close());

const send = (from: TestUser, body: unknown) =>
  call(relay.url, 'POST', '/api/v1/envelopes', { auth: from.apiKey, body });
const pull = (u: TestUser, q = '') => call(relay.url, 'GET', '/api/v1/envelopes' + q, { auth: u.apiKey });
const ack = (u: TestUser, ids: unknown) =>
  call(relay.url, 'POST', '/api/v1/envelopes/ack', { auth: u.apiKey, body: { ids } });

describe('routing of direct sends', () => {
  it('an unknown sender lands as a request; an allowed one in the inbox', async () => {
    const a = await signIn(relay.url);
    const b = await signIn(relay.url);
    const first = await send(a, envelopeTo(b));
    expect(first.status).toBe(200);
    expect(first.body.routed).toBe('request');
    expect(first.body.envelope).toMatchObject({
      senderAddress: a.address,
      recipientAddress: b.address,
      recipientDeviceKey: b.deviceKey,
      routed: 'request',
      delivered: false,
      groupId: null,
      via: null,
    });
    expect((await call(relay.url, 'PUT', `/api/v1/contacts/${a.address}`, { auth: b.apiKey })).status).toBe(200);
    expect((await send(a, envelopeTo(b))).body.routed).toBe('inbox');
  });

  it('a reply to someone who wrote to you goes to their inbox (has sent before)', async () => {
    const a = await signIn(relay.url);
    const b = await signIn(relay.url);
    expect((await send(a, envelopeTo(b))).body.routed).toBe('request');
    expect((await send(b, envelopeTo(a))).body.routed).toBe('inbox');
  });

  it('asRequest is a request even between contacts', async () => {
    const a = await signIn(relay.url);
    const b = await signIn(relay.url);
    await call(relay.url, 'PUT', `/api/v1/contacts/${a.address}`, { auth: b.apiKey });
    expect((await send(a, envelopeTo(b, { asRequest: true }))).body.routed).toBe('request');
  });

  it('a block always wins, queues nothing and returns no envelope', async () => {
    const a = await signIn(relay.url);
    const b = await signIn(relay.url);
    await call(relay.url, 'PUT', `/api/v1/contacts/${a.address}`, { auth: b.apiKey });
    await call(relay.url, 'PUT', `/api/v1/blocks/${a.address}`, { auth: b.apiKey });
    const r = await send(a, envelopeTo(b));
    expect(r.body).toEqual({ routed: 'blocked' });
    expect((await pull(b)).body.envelopes).toHaveLength(0);
    await call(relay.url, 'DELETE', `/api/v1/blocks/${a.address}`, { auth: b.apiKey });
    expect((await send(a, envelopeTo(b))).body.routed).toBe('inbox');
  });

  it('stake-gate reports the stake and currency and queues nothing; intros are gated too', async () => {
    const a = await signIn(relay.url);
    const b = await signIn(relay.url);
    const set = await call(relay.url, 'PUT', '/api/v1/me/policy', {
      auth: b.apiKey,
      body: { unknownSenders: 'stake-gate', stake: '0.05' },
    });
    expect(set.body).toEqual({ unknownSenders: 'stake-gate', stake: '0.05' });
    expect((await send(a, envelopeTo(b))).body).toEqual({
      routed: 'stake-gate',
      stakeRequired: '0.05',
      stakeCurrency: 'ETH',
      stakeQuote: expect.objectContaining({ amountWei: '50000000000000000', recipient: b.address, chainId: 31337 }),
    });
    expect((await send(a, envelopeTo(b, { asRequest: true }))).body.routed).toBe('stake-gate');
    expect((await pull(b)).body.envelopes).toHaveLength(0);
    // a gated send does not count as "has sent before"
    expect((await send(b, envelopeTo(a))).body.routed).toBe('request');
  });

  it('the default stake is 0.01; policy block refuses unknown senders', async () => {
    const a = await signIn(relay.url);
    const b = await signIn(relay.url);
    await call(relay.url, 'PUT', '/api/v1/me/policy', { auth: b.apiKey, body: { unknownSenders: 'stake-gate' } });
    expect((await send(a, envelopeTo(b))).body.stakeRequired).toBe('0.01');
    await call(relay.url, 'PUT', '/api/v1/me/policy', { auth: b.apiKey, body: { unknownSenders: 'block' } });
    expect((await send(a, envelopeTo(b))).body.routed).toBe('blocked');
    await call(relay.url, 'PUT', `/api/v1/contacts/${a.address}`, { auth: b.apiKey });
    expect((await send(a, envelopeTo(b))).body.routed).toBe('inbox');
  });
});

describe('send bodies', () => {
  it('accepts a single object, an array and { envelopes }, answering results in input order', async () => {
    const a = await signIn(relay.url);
    const b = await signIn(relay.url);
    const c = await signIn(relay.url);
    const arr = await send(a, [envelopeTo(b), envelopeTo(c)]);
    expect(arr.status).toBe(200);
    expect(arr.body.results.map((r: SendResult) => r.envelope?.recipientAddress)).toEqual([b.address, c.address]);
    const obj = await send(a, { envelopes: [envelopeTo(c), envelopeTo(b)] });
    expect(obj.body.results.map((r: SendResult) => r.envelope?.recipientAddress)).toEqual([c.address, b.address]);
    const ids = (await pull(b)).body.envelopes.map((e: Envelope) => e.id);
    expect(ids).toEqual([arr.body.results[0].envelope.id, obj.body.results[1].envelope.id]);
  });

  it('normalises case and base64 padding', async () => {
    const a = await signIn(relay.url);
    const b = await signIn(relay.url);
    const fields = sealedLooking(20); // 20 bytes: base64 has one '=' of padding
    const r = await send(a, {
      toAddress: b.address.toUpperCase().replace('0X', '0x'),
      recipientDeviceKey: b.deviceKey.toUpperCase(),
      ...fields,
      ciphertext: fields.ciphertext.replace(/=+$/, ''),
      ephemeralPublicKey: fields.ephemeralPublicKey.toUpperCase(),
    });
    expect(r.status).toBe(200);
    expect(r.body.envelope.recipientAddress).toBe(b.address);
    expect(r.body.envelope.recipientDeviceKey).toBe(b.deviceKey);
    expect(r.body.envelope.ciphertext).toBe(fields.ciphertext);
    expect(r.body.envelope.ephemeralPublicKey).toBe(fields.ephemeralPublicKey);
  });

  it.each([
    [
      'missing toAddress',
      (b: TestUser) => {
        const { toAddress: _dropped, ...e } = envelopeTo(b);
        return e;
      },
    ],
    ['bad address', (b: TestUser) => envelopeTo(b, { toAddress: '0x1234' })],
    ['short ephemeral key', (b: TestUser) => envelopeTo(b, { ephemeralPublicKey: 'ab'.repeat(31) })],
    ['low-order ephemeral key', (b: TestUser) => envelopeTo(b, { ephemeralPublicKey: '00'.repeat(32) })],
    ['nonce of 11 bytes', (b: TestUser) => envelopeTo(b, { nonce: randomBytes(11).toString('base64') })],
    ['ciphertext not base64', (b: TestUser) => envelopeTo(b, { ciphertext: '***' })],
    ['ciphertext under 17 bytes', (b: TestUser) => envelopeTo(b, { ciphertext: randomBytes(16).toString('base64') })],
    [
      'base64-wrapped plaintext',
      (b: TestUser) =>
        envelopeTo(b, { ciphertext: Buffer.from('hello bob, this is plaintext pretending').toString('base64') }),
    ],
    [
      'base64 of base64',
      (b: TestUser) =>
        envelopeTo(b, { ciphertext: Buffer.from(randomBytes(30).toString('base64')).toString('base64') }),
    ],
    [
      'base64 of JSON',
      (b: TestUser) => envelopeTo(b, { ciphertext: Buffer.from('{"text":"hi bob"}').toString('base64') }),
    ],
    [
      'UTF-8 text',
      (b: TestUser) =>
        envelopeTo(b, { ciphertext: Buffer.from('Grüße aus München, schöne Grüße an alle!').toString('base64') }),
    ],
    ['unknown field', (b: TestUser) => envelopeTo(b, { extra: 1 })],
    ['device key of someone else', (b: TestUser) => envelopeTo(b, { recipientDeviceKey: newDeviceKey() })],
  ])('refuses %s with 400 and queues nothing', async (_name, make) => {
    const a = await signIn(relay.url);
    const b = await signIn(relay.url);
    const r = await send(a, [envelopeTo(b), make(b)]);
    expect(r.status).toBe(400);
    expect(typeof r.body.error).toBe('string');
    expect(r.body.error).toMatch(/envelopes\[1\]/);
    expect((await pull(b)).body.envelopes).toHaveLength(0);
  });

  it('refuses an empty batch (400), 101 envelopes (413) and 64 KiB + 1 of ciphertext (413)', async () => {
    const a = await signIn(relay.url);
    const b = await signIn(relay.url);
    // b knows a, so 100 envelopes are inbox mail, not 100 pending contact requests (capped at 20)
    await call(relay.url, 'PUT', `/api/v1/contacts/${a.address}`, { auth: b.apiKey });
    expect((await send(a, [])).status).toBe(400);
    expect((await send(a, { envelopes: [] })).status).toBe(400);
    const many = Array.from({ length: 101 }, () => envelopeTo(b, { ciphertext: randomBytes(17).toString('base64') }));
    expect((await send(a, many)).status).toBe(413);
    expect((await send(a, envelopeTo(b, { ciphertext: randomBytes(64 * 1024 + 1).toString('base64') }))).status).toBe(
      413,
    );
    expect((await send(a, envelopeTo(b, { ciphertext: randomBytes(64 * 1024).toString('base64') }))).status).toBe(200);
    expect((await send(a, many.slice(0, 100))).status).toBe(200);
  });

  it('refuses bodies over 1 MiB with 413', async () => {
    const a = await signIn(relay.url);
    const b = await signIn(relay.url);
    const big = Array.from({ length: 20 }, () =>
      envelopeTo(b, { ciphertext: randomBytes(60 * 1024).toString('base64') }),
    );
    const r = await send(a, big);
    expect(r.status).toBe(413);
    expect(r.body.error).toMatch(/1 MiB/);
  });

  it('needs a credential: 401 without one and with a wrong one', async () => {
    const b = await signIn(relay.url);
    expect((await call(relay.url, 'POST', '/api/v1/envelopes', { body: envelopeTo(b) })).status).toBe(401);
    expect(
      (await call(relay.url, 'POST', '/api/v1/envelopes', { auth: 'sk_live_nope', body: envelopeTo(b) })).status,
    ).toBe(401);
  });
});

describe('pull and ack', () => {
  it("pull is non-consuming, oldest first, limited; ack removes only the caller's", async () => {
    const a = await signIn(relay.url);
    const b = await signIn(relay.url);
    const sent = await send(
      a,
      Array.from({ length: 5 }, () => envelopeTo(b)),
    );
    const ids = sent.body.results.map((r: SendResult) => r.envelope?.id);
    expect((await pull(b)).body.envelopes.map((e: Envelope) => e.id)).toEqual(ids);
    expect((await pull(b)).body.envelopes).toHaveLength(5);
    expect((await pull(b, '?limit=2')).body.envelopes.map((e: Envelope) => e.id)).toEqual(ids.slice(0, 2));
    // a's ack of b's envelopes does nothing
    expect((await ack(a, ids)).body).toEqual({ ok: true, acked: 0 });
    const r = await ack(b, [ids[0], ids[1], ids[1], 'not-a-uuid', '00000000-0000-4000-8000-000000000000']);
    expect(r.body).toEqual({ ok: true, acked: 2 });
    expect((await ack(b, [ids[0]])).body.acked).toBe(0);
    expect((await pull(b)).body.envelopes.map((e: Envelope) => e.id)).toEqual(ids.slice(2));
  });

  it('a pulled envelope is the one the send answered with, and the page is a valid PullResult', async () => {
    const a = await signIn(relay.url);
    const b = await signIn(relay.url);
    const sent = await send(a, [envelopeTo(b), envelopeTo(b, { recipientDeviceKey: null })]);
    const page = await pull(b);
    expect(page.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Value.Errors(PullResult, page.body)).toEqual([]);
    expect(page.body.envelopes).toEqual(sent.body.results.map((r: SendResult) => r.envelope));
    expect((await pull(a)).body).toEqual({ envelopes: [] });
  });

  it('pull limit outside 1-500 or not an integer is 400; ack without ids is 400', async () => {
    const b = await signIn(relay.url);
    for (const q of ['?limit=0', '?limit=501', '?limit=abc', '?limit=1.5']) expect((await pull(b, q)).status).toBe(400);
    expect((await pull(b, '?limit=500')).status).toBe(200);
    expect((await ack(b, [])).status).toBe(400);
    expect((await call(relay.url, 'POST', '/api/v1/envelopes/ack', { auth: b.apiKey, body: {} })).status).toBe(400);
  });

  it("a device-bound key sees only its device's envelopes and unbound ones; one device's ack never removes another's", async () => {
    const a = await signIn(relay.url);
    const b1 = await signIn(relay.url);
    const b2 = await signIn(relay.url, b1.account); // same wallet, second device
    const r = await send(a, [envelopeTo(b1), envelopeTo(b2), { ...envelopeTo({ address: b1.address }) }]);
    const [to1, to2, toNone] = r.body.results.map((x: SendResult) => x.envelope?.id);
    expect((await pull(b1)).body.envelopes.map((e: Envelope) => e.id)).toEqual([to1, toNone]);
    expect((await pull(b2)).body.envelopes.map((e: Envelope) => e.id)).toEqual([to2, toNone]);
    expect((await ack(b1, [to1, to2])).body.acked).toBe(1);
    expect((await pull(b2)).body.envelopes.map((e: Envelope) => e.id)).toEqual([to2, toNone]);
  });
});
