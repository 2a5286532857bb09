/**
 * Signatures are canonical (docs/wire-format.md, Signatures): the high-S twin of a valid
 * signature recovers the same signer, and the relay refuses it at sign-in (401 `bad-signin`)
 * and in a device certificate (400 `bad-certificate`), as the client and the escrow do.
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverMessageAddress, type Hex } from 'viem';
import { highSTwin } from '../../../test-support/high-s.js';
import { isLowS } from '../../auth/low-s.js';
import { call, certify, newDeviceKey, signIn, startRelay, type TestRelay } from '../harness.js';

describe('high-S signatures', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startRelay();
  });
  afterAll(async () => relay?.close());

  const challenge = async (address: string) =>
    (await call(relay.url, 'POST', '/api/v1/auth/challenge', { body: { address } })).body.message as string;

  it('the twin recovers the same signer, and only the low half is canonical', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signature = await account.signMessage({ message: 'x' });
    const twin = highSTwin(signature);
    expect(await recoverMessageAddress({ message: 'x', signature: twin as Hex })).toBe(account.address);
    expect([isLowS(signature), isLowS(twin)]).toEqual([true, false]);
  });

  it('a sign-in signed high-S is 401 bad-signin, mints nothing and uses the nonce up', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = await challenge(account.address.toLowerCase());
    const signature = highSTwin(await account.signMessage({ message }));
    const r = await call(relay.url, 'POST', '/api/v1/auth/keys', { body: { message, signature } });
    expect([r.status, r.body.code]).toEqual([401, 'bad-signin']);
    expect(JSON.stringify(r.body)).not.toContain('sk_live_');
    const again = await call(relay.url, 'POST', '/api/v1/auth/keys', {
      body: { message, signature: await account.signMessage({ message }) },
    });
    expect([again.status, again.body.code]).toEqual([401, 'nonce-invalid']);
  });

  it('a device certificate signed high-S is 400 bad-certificate, at sign-in and when added later', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = await challenge(account.address.toLowerCase());
    const deviceKey = newDeviceKey();
    const r = await call(relay.url, 'POST', '/api/v1/auth/keys', {
      body: {
        message,
        signature: await account.signMessage({ message }),
        device: { publicKey: deviceKey, certificate: highSTwin(await certify(account, deviceKey)) },
      },
    });
    expect([r.status, r.body.code]).toEqual([400, 'bad-certificate']);

    const user = await signIn(relay.url, account);
    const second = newDeviceKey();
    const added = await call(relay.url, 'POST', '/api/v1/devices', {
      auth: user.apiKey,
      body: { publicKey: second, certificate: highSTwin(await certify(account, second)) },
    });
    expect([added.status, added.body.code]).toEqual([400, 'bad-certificate']);
    const keys = await call(relay.url, 'GET', `/api/v1/keys/${user.address}`, { auth: user.apiKey });
    expect(keys.body.deviceKeys).toEqual([user.deviceKey]);
    const good = await call(relay.url, 'POST', '/api/v1/devices', {
      auth: user.apiKey,
      body: { publicKey: second, certificate: await certify(account, second) },
    });
    expect(good.status).toBe(201);
  });
});
