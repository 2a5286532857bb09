/** Two vaults that know only each other's certificates: sealing, opening and checking across them. */
import { describe, expect, it } from 'vitest';
import {
  codeOf,
  envelopeFrom,
  GROUP,
  HARDHAT_ADDRESS,
  HARDHAT_KEY,
  HARDHAT_MNEMONIC,
  useVaultClients,
} from './vault-clients.js';

const { profile, client } = useVaultClients();

describe('two parties', () => {
  const alice = client({ profileDir: profile() });
  const bob = client({ profileDir: profile() });

  it('imports known keys and exchanges a certified, sealed message', async () => {
    const a = await alice.importMnemonic({ mnemonic: HARDHAT_MNEMONIC, passphrase: 'alice pw' });
    expect(a.address).toBe(HARDHAT_ADDRESS);
    expect('mnemonic' in a).toBe(false);
    const b = await bob.createWallet({ passphrase: 'bob pw' });
    const bobCert = await bob.deviceCertificate();
    const sealed = await alice.sealMessage({
      frame: 'direct',
      message: { kind: 'request', note: 'Hi Bob, Alice here' },
      recipients: [{ deviceKey: bobCert.publicKey, address: b.address, certificate: bobCert.certificate }],
    });
    const env = envelopeFrom(sealed.sealed[0], HARDHAT_ADDRESS);
    const opened = await bob.openEnvelope({ envelope: env });
    expect(opened).toMatchObject({ kind: 'direct', signer: HARDHAT_ADDRESS, author: HARDHAT_ADDRESS });
    expect(opened.m).toMatchObject({ kind: 'request', note: 'Hi Bob, Alice here', from: HARDHAT_ADDRESS });
    // Alice cannot open what was sealed for Bob
    expect(await codeOf(alice.openEnvelope({ envelope: { ...env, recipientDeviceKey: null } }))).toBe('auth-failed');
    // Bob refuses it when the relay names someone else as sender
    expect(await codeOf(bob.openEnvelope({ envelope: { ...env, senderAddress: b.address } }))).toBe('sender-mismatch');
  });

  it('checks device certificates for anyone, one answer each, in order; refuses a list that is not one', async () => {
    const cert = await alice.deviceCertificate();
    const fakeKey = 'ab'.repeat(32);
    const answers = await bob.verifyCertificates({
      certificates: [
        { address: HARDHAT_ADDRESS, publicKey: cert.publicKey, certificate: cert.certificate },
        { address: HARDHAT_ADDRESS, publicKey: fakeKey, certificate: cert.certificate },
        { address: '0x' + '1'.repeat(40), publicKey: cert.publicKey, certificate: cert.certificate },
        { address: HARDHAT_ADDRESS, publicKey: cert.publicKey.toUpperCase(), certificate: cert.certificate },
        { address: 'nope', publicKey: cert.publicKey, certificate: 'garbage' },
      ],
    });
    expect(answers).toEqual([true, false, false, true, false]);
    expect(await codeOf(bob.verifyCertificates({ certificates: 'all of them' as never }))).toBe('bad-request');
  });

  it('a bot post in a group shows the bot as author while the relay names the creator', async () => {
    const bobStatus = await bob.status();
    const sealed = await alice.sealMessage({
      frame: 'group',
      groupId: GROUP,
      message: { kind: 'text', text: 'deploy done' },
      recipients: [{ deviceKey: bobStatus.deviceKey as string }],
    });
    const creator = '0x' + '11'.repeat(20);
    const opened = await bob.openEnvelope({
      envelope: envelopeFrom(sealed.sealed[0], creator, { groupId: GROUP, via: 'group-token' }),
    });
    expect(opened).toMatchObject({ kind: 'group', groupId: GROUP, author: HARDHAT_ADDRESS, signer: HARDHAT_ADDRESS });
    expect(
      await codeOf(
        bob.openEnvelope({ envelope: envelopeFrom(sealed.sealed[0], creator, { groupId: GROUP, via: 'api-key' }) }),
      ),
    ).toBe('sender-mismatch');
  });

  it('importing the same key as a private key gives the same address, a new device key', async () => {
    const c = client({ profileDir: profile() });
    const imported = await c.importPrivateKey({ privateKey: HARDHAT_KEY, passphrase: 'pw' });
    expect(imported.address).toBe(HARDHAT_ADDRESS);
    expect(imported.deviceKey).not.toBe((await alice.status()).deviceKey);
    expect(
      await codeOf(client({ profileDir: profile() }).importPrivateKey({ privateKey: '0x1234', passphrase: 'pw' })),
    ).toBe('bad-private-key');
    expect(
      await codeOf(client({ profileDir: profile() }).importMnemonic({ mnemonic: 'not a mnemonic', passphrase: 'pw' })),
    ).toBe('bad-mnemonic');
  });
});
