/**
 * Envelopes crafted by a malicious sender (a real account on the relay, posting raw
 * envelopes) are never shown as from the sender they claim: a forged signature, a replay of
 * someone else's signed message, a tampered ciphertext, a device key without a certificate,
 * a group frame in a direct envelope. They are acked and dropped; an honest message from the
 * same account still arrives (the checks are not simply rejecting everything).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { signIn, type SignedIn } from '../../../test-support/sign-in.js';
import { buildDirectFrame, buildGroupFrame } from '../../../vault/sealing/frames.js';
import { buildPayload } from '../../../vault/sealing/payload.js';
import { nodeSealer } from '../../../vault/sealing/sealer-node.js';
import type { RejectedMessage } from '../../../../shared/domain.js';
import { RelayApi } from '../../network/relay-api.js';
import { cleanup, newProfile, startRelay, type Relay } from '../../test/harness.js';

let relay: Relay;
let alice: Awaited<ReturnType<typeof newProfile>>;
let bob: Awaited<ReturnType<typeof newProfile>>;
let mallory: SignedIn;
let malloryApi: RelayApi;

beforeAll(async () => {
  relay = await startRelay();
  [alice, bob] = await Promise.all([newProfile(relay.url), newProfile(relay.url)]);
  mallory = await signIn(relay.url, 'mallory');
  malloryApi = new RelayApi({ baseUrl: relay.url, credential: mallory.apiKey });
}, 60_000);
afterAll(async () => {
  malloryApi?.close();
  await cleanup();
});

function m(fields: Record<string, unknown>): string {
  return JSON.stringify({
    id: globalThis.crypto.randomUUID(),
    kind: 'text',
    sentAt: new Date().toISOString(),
    to: bob.address,
    ...fields,
  });
}

/** Seals a frame to bob's device and posts it as mallory. */
async function post(frame: Uint8Array, tamper = false): Promise<void> {
  const sealed = nodeSealer.seal(bob.deviceKey, frame);
  let ciphertext = sealed.ciphertext;
  if (tamper) {
    const bytes = Buffer.from(ciphertext, 'base64');
    bytes[5] ^= 0x01;
    ciphertext = bytes.toString('base64');
  }
  const [res] = await malloryApi.send([
    {
      toAddress: bob.address,
      recipientDeviceKey: bob.deviceKey,
      ciphertext,
      ephemeralPublicKey: sealed.ephemeralPublicKey,
      nonce: sealed.nonce,
    },
  ]);
  expect(res.routed).toBe('request');
}

const sign = (text: string) => mallory.account.signMessage({ message: text });

/** One sync pass of bob's, with the rejections it reported as events. */
async function bobSyncs(): Promise<{ pulled: number; stored: number; rejected: number; reasons: string[] }> {
  const seen: RejectedMessage[] = [];
  const off = bob.m.on('message.rejected', (r) => seen.push(r));
  try {
    const pass = await bob.m.syncPass();
    expect(seen.every((r) => r.claimedSender === mallory.address)).toBe(true);
    return { ...pass, reasons: seen.map((r) => r.reason) };
  } finally {
    off();
  }
}

describe('forged and tampered envelopes', () => {
  it('are not shown as from the claimed sender', async () => {
    // 1. m claims alice, signed by mallory
    const forged = m({ from: alice.address, text: 'forged signature', device: alice.deviceKey });
    await post(buildDirectFrame(buildPayload(forged, await sign(forged))));

    // 2. alice's genuinely signed message, replayed by mallory to bob
    const genuine = await alice.m.vault.sealMessage({
      frame: 'direct',
      message: { kind: 'text', text: 'replayed', to: bob.address, device: alice.deviceKey },
      recipients: [{ deviceKey: mallory.deviceKey }],
    });
    await post(buildDirectFrame(buildPayload(genuine.m, genuine.sig)));

    // 3. an honest message from mallory, then the same bytes with one ciphertext bit flipped
    const honestTampered = m({ from: mallory.address, text: 'tampered in transit', device: mallory.deviceKey });
    await post(buildDirectFrame(buildPayload(honestTampered, await sign(honestTampered))), true);

    // 4. a device key that mallory never certified
    const rogueDevice = m({ from: mallory.address, text: 'from a rogue device', device: '11'.repeat(32) });
    await post(buildDirectFrame(buildPayload(rogueDevice, await sign(rogueDevice))));

    // 5. a group frame inside a direct envelope
    const groupFramed = m({
      from: mallory.address,
      text: 'group frame',
      device: mallory.deviceKey,
      groupId: '0f8fad5b-d9cb-469f-a165-70867728950e',
    });
    await post(
      buildGroupFrame('0f8fad5b-d9cb-469f-a165-70867728950e', buildPayload(groupFramed, await sign(groupFramed))),
    );

    // 6. not JSON at all inside a valid frame
    await post(buildDirectFrame(utf8ToBytes('{"m": 42}')));

    // control: an honest, certified message from mallory
    const honest = m({ from: mallory.address, text: 'hello, honestly', device: mallory.deviceKey });
    await post(buildDirectFrame(buildPayload(honest, await sign(honest))));

    const pass = await bobSyncs();
    expect(pass.pulled).toBe(7);
    expect(pass.stored).toBe(1);
    expect(pass.rejected).toBe(6);
    expect(pass.reasons).toHaveLength(6);
    const reasons = pass.reasons.join('\n');
    expect(reasons).toMatch(/bad-signature/);
    expect(reasons).toMatch(/sender-mismatch/);
    expect(reasons).toMatch(/auth-failed/);
    expect(reasons).toMatch(/not a certified device/);
    expect(reasons).toMatch(/bad-frame/);
    expect(reasons).toMatch(/bad-payload/);

    expect(bob.m.messages.listMessages({ conversationId: `direct:${alice.address}` })).toEqual([]);
    const fromMallory = bob.m.messages.listMessages({ conversationId: `direct:${mallory.address}` });
    expect(fromMallory.map((x) => [x.from, x.text])).toEqual([[mallory.address, 'hello, honestly']]);
    expect(bob.m.contacts.listRequests().map((r) => r.address)).toEqual([mallory.address]);

    // rejected envelopes were acked: nothing comes back
    expect((await bob.m.syncPass()).pulled).toBe(0);
  });

  it('a message addressed to someone else is refused even with a valid signature', async () => {
    const other = m({ from: mallory.address, text: 'meant for alice', device: mallory.deviceKey, to: alice.address });
    await post(buildDirectFrame(buildPayload(other, await sign(other))));
    const pass = await bobSyncs();
    expect(pass.stored).toBe(0);
    expect(pass.reasons).toEqual([expect.stringMatching(/addressed to/)]);
  });

  it('a direct message that names no recipient is dropped like one addressed to someone else', async () => {
    // Signed by mallory for nobody in particular: without `to`, bob cannot tell it was meant for him.
    const unaddressed = m({
      from: mallory.address,
      text: 'to whom it may concern',
      device: mallory.deviceKey,
      to: undefined,
    });
    expect(JSON.parse(unaddressed)).not.toHaveProperty('to');
    await post(buildDirectFrame(buildPayload(unaddressed, await sign(unaddressed))));
    const pass = await bobSyncs();
    expect(pass.stored).toBe(0);
    expect(pass.reasons).toEqual([expect.stringMatching(/names no recipient/)]);
    expect(
      bob.m.messages.listMessages({ conversationId: `direct:${mallory.address}` }).map((x) => x.text),
    ).not.toContain('to whom it may concern');
    // acked: it does not come back
    expect((await bob.m.syncPass()).pulled).toBe(0);
  });
});
