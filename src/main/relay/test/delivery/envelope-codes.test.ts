/**
 * Which refusal an envelope's content gets (docs/protocol.md §8): 400 `not-sealed` only for
 * content that looks like plaintext, 400 `invalid-envelope` for a malformed field (ciphertext
 * that is not base64 or too short, a nonce of the wrong length, a low-order key).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, envelopeTo, signIn, startRelay, type TestRelay, type TestUser } from '../harness.js';

describe('envelope refusal codes', () => {
  let relay: TestRelay;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    relay = await startRelay();
    [alice, bob] = [await signIn(relay.url), await signIn(relay.url)];
  });
  afterAll(async () => relay?.close());

  const send = (extra: Record<string, unknown>) =>
    call(relay.url, 'POST', '/api/v1/envelopes', { auth: alice.apiKey, body: envelopeTo(bob, extra) });
  const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

  it('plaintext-looking content is not-sealed', async () => {
    for (const ciphertext of [
      b64('Hello Bob, this is a message nobody sealed before sending it.'),
      b64('{"text":"hi there bob"}'),
    ]) {
      const r = await send({ ciphertext });
      expect([r.status, r.body.code], ciphertext).toEqual([400, 'not-sealed']);
    }
  });

  it('malformed fields are invalid-envelope, not not-sealed', async () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['ciphertext not base64', { ciphertext: '!!!not base64!!!' }],
      ['ciphertext shorter than a GCM tag', { ciphertext: b64(Buffer.alloc(16, 0x9c)) }],
      ['nonce of 11 bytes', { nonce: b64(Buffer.alloc(11, 7)) }],
      ['nonce not base64', { nonce: 'abc$' }],
      ['low-order ephemeral key', { ephemeralPublicKey: '00'.repeat(32) }],
    ];
    for (const [what, extra] of cases) {
      const r = await send(extra);
      expect([what, r.status, r.body.code]).toEqual([what, 400, 'invalid-envelope']);
    }
    // and the envelope as sealed passes
    expect((await send({})).status).toBe(200);
  });
});
