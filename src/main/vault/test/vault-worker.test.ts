/**
 * One wallet's vault behind a passphrase, through VaultClient and its worker thread, case after
 * case on the same profile: creating, the file at rest, certificates, sealing and opening,
 * signing, unlocking, and that no answer ever carried a key.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import {
  getAddress,
  keccak256,
  parseTransaction,
  recoverTransactionAddress,
  recoverTypedDataAddress,
  type Hex,
  type TransactionSerialized,
} from 'viem';
import { createSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import { verifyDeviceCertificate } from '../signing/device-certificate.js';
import { EMPTY_PASSPHRASE_STANDIN, passphraseCodec } from '../keys/secret-codec.js';
import { readVaultSecrets, vaultPath } from '../keys/vault-file.js';
import type { VaultResponse } from '../worker/vault-protocol.js';
import { recoverPersonalSigner } from '../signing/wallet.js';
import { LOWER_ADDRESS } from '../../../shared/identity-patterns.js';
import { codeOf, envelopeFrom, GROUP, HARDHAT_ADDRESS, HARDHAT_MNEMONIC, useVaultClients } from './vault-clients.js';

const { profile, client } = useVaultClients();

function fileHash(dir: string): string {
  return createHash('sha256')
    .update(readFileSync(vaultPath(dir)))
    .digest('hex');
}

describe('vault worker with a passphrase', () => {
  const dir = profile();
  const responses: Array<{ seq: number; text: string }> = [];
  const vault = client({
    profileDir: dir,
    onResponse: (r: VaultResponse) => responses.push({ seq: r.seq, text: JSON.stringify(r) }),
  });
  let address = '';
  let deviceKey = '';
  let mnemonic = '';

  it('starts empty, creates a wallet, and reports it', async () => {
    expect(await vault.status()).toEqual({
      hasWallet: false,
      unlocked: false,
      address: null,
      deviceKey: null,
      protection: null,
      hasRecoveryPhrase: null,
    });
    expect(await codeOf(vault.createWallet({}))).toBe('no-passphrase');
    expect(await codeOf(vault.unlock({ passphrase: 'x' }))).toBe('no-wallet');
    const created = await vault.createWallet({ passphrase: 'correct horse' });
    ({ address, deviceKey, mnemonic } = created);
    expect(address).toMatch(LOWER_ADDRESS);
    expect(deviceKey).toMatch(/^[0-9a-f]{64}$/);
    expect(mnemonic.split(' ')).toHaveLength(12);
    expect(await vault.status()).toEqual({
      hasWallet: true,
      unlocked: true,
      address,
      deviceKey,
      protection: 'passphrase',
      hasRecoveryPhrase: true,
    });
  });

  // Windows has no POSIX modes; its profile folder's ACL is what guards the file there
  it.skipIf(process.platform === 'win32')('writes vault.json readable by its owner only (mode 0600)', () => {
    expect(statSync(vaultPath(dir)).mode & 0o777).toBe(0o600);
  });

  it('writes vault.json atomically, with no secret in clear', async () => {
    const path = vaultPath(dir);
    expect(readdirSync(dir)).toEqual(['vault.json']);
    const text = readFileSync(path, 'utf8');
    const body = JSON.parse(text);
    expect(body).toMatchObject({ format: 'relay-vault', version: 1, protection: 'passphrase', address, deviceKey });
    const wrapped = JSON.parse(Buffer.from(body.wrappedKey, 'base64').toString('utf8'));
    expect(wrapped).toMatchObject({ v: 1, kdf: 'scrypt', N: 2 ** 17, r: 8, p: 1 });
    const { secrets } = await readVaultSecrets(dir, passphraseCodec('correct horse'));
    expect(secrets.mnemonic).toBe(mnemonic);
    expect(text).not.toContain(secrets.walletPrivateKey);
    expect(text).not.toContain(secrets.devicePrivateKey);
    expect(text).not.toContain(mnemonic.split(' ')[0] + ' ');
  });

  it("derives the well-known no-passphrase stand-in's key at scrypt's least cost, a real passphrase's at the full one", async () => {
    const wrap = async (passphrase: string) =>
      JSON.parse((await passphraseCodec(passphrase).encrypt(Buffer.alloc(32, 7))).toString('utf8'));
    expect(await wrap(EMPTY_PASSPHRASE_STANDIN)).toMatchObject({ kdf: 'scrypt', N: 2 ** 14, r: 8, p: 1 });
    expect(await wrap('relay-messenger/no-passphrase ')).toMatchObject({ kdf: 'scrypt', N: 2 ** 17 });
    const blob = await passphraseCodec(EMPTY_PASSPHRASE_STANDIN).encrypt(Buffer.alloc(32, 7));
    expect(await passphraseCodec(EMPTY_PASSPHRASE_STANDIN).decrypt(blob)).toEqual(Buffer.alloc(32, 7));
  });

  it('issues a device certificate that verifies for the address', async () => {
    const cert = await vault.deviceCertificate();
    expect(cert.publicKey).toBe(deviceKey);
    expect(cert.address).toBe(address);
    expect(verifyDeviceCertificate(deviceKey, address, cert.certificate)).toBe(true);
  });

  it('seals a direct message to itself and opens it', async () => {
    const cert = await vault.deviceCertificate();
    const sealed = await vault.sealMessage({
      frame: 'direct',
      message: { kind: 'text', text: 'note to self' },
      recipients: [{ deviceKey, address, certificate: cert.certificate }],
    });
    expect(sealed.sealed).toHaveLength(1);
    expect(JSON.parse(sealed.m)).toMatchObject({ id: sealed.id, kind: 'text', from: address, text: 'note to self' });
    expect(recoverPersonalSigner(sealed.m, sealed.sig)).toBe(address);
    const opened = await vault.openEnvelope({ envelope: envelopeFrom(sealed.sealed[0], address) });
    expect(opened).toMatchObject({
      kind: 'direct',
      groupId: null,
      mRaw: sealed.m,
      sig: sealed.sig,
      signer: address,
      author: address,
    });
    expect(opened.m.text).toBe('note to self');
  });

  it('seals a group message and opens it only with the matching group id', async () => {
    const sealed = await vault.sealMessage({
      frame: 'group',
      groupId: GROUP,
      message: { kind: 'text', text: 'hi group' },
      recipients: [{ deviceKey }],
    });
    const env = envelopeFrom(sealed.sealed[0], address, { groupId: GROUP, via: 'api-key' });
    const opened = await vault.openEnvelope({ envelope: env });
    expect(opened).toMatchObject({ kind: 'group', groupId: GROUP, author: address });
    expect(opened.m.groupId).toBe(GROUP);
    expect(
      await codeOf(vault.openEnvelope({ envelope: { ...env, groupId: '7c9e6679-7425-40de-944b-e07fc1f90ae7' } })),
    ).toBe('bad-frame');
    expect(await codeOf(vault.openEnvelope({ envelope: { ...env, groupId: null } }))).toBe('bad-frame');
  });

  it('openMany answers each envelope on its own, in order', async () => {
    const a = await vault.sealMessage({
      frame: 'direct',
      message: { kind: 'text', text: 'one' },
      recipients: [{ deviceKey }],
    });
    const b = await vault.sealMessage({
      frame: 'direct',
      message: { kind: 'request', note: 'two' },
      recipients: [{ deviceKey }],
    });
    const good1 = envelopeFrom(a.sealed[0], address);
    const good2 = envelopeFrom(b.sealed[0], address);
    const tampered = {
      ...good1,
      id: 'tampered',
      ciphertext: good1.ciphertext.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
    };
    const lowOrder = { ...good1, id: 'low', ephemeralPublicKey: '00'.repeat(32) };
    const otherDevice = { ...good1, id: 'other', recipientDeviceKey: 'ab'.repeat(32) };
    const forwarded = { ...good2, id: 'fwd', senderAddress: HARDHAT_ADDRESS };
    const groupMismatch = { ...good1, id: 'grp', groupId: GROUP };
    const garbage = { ...good1, id: 'garbage', nonce: 'not base64!' };
    const results = await vault.openMany({
      envelopes: [good1, tampered, lowOrder, otherDevice, good2, forwarded, groupMismatch, garbage],
    });
    expect(results.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual([
      'ok',
      'auth-failed',
      'low-order',
      'wrong-device',
      'ok',
      'sender-mismatch',
      'bad-frame',
      'bad-envelope',
    ]);
    expect(results[4].ok && results[4].value.m.note).toBe('two');
    expect(results.map((r) => (r.ok ? r.value.envelopeId : r.envelopeId))).toEqual([
      good1.id,
      'tampered',
      'low',
      'other',
      good2.id,
      'fwd',
      'grp',
      'garbage',
    ]);
  });

  it('refuses bad seal requests', async () => {
    expect(
      await codeOf(
        vault.sealMessage({ frame: 'group', message: { kind: 'text', text: 'x' }, recipients: [{ deviceKey }] }),
      ),
    ).toBe('bad-request');
    expect(
      await codeOf(vault.sealMessage({ frame: 'direct', message: { kind: 'text', text: 'x' }, recipients: [] })),
    ).toBe('bad-request');
    expect(
      await codeOf(
        vault.sealMessage({ frame: 'direct', message: { kind: 'text', text: 'x' }, recipients: [{ deviceKey: 'zz' }] }),
      ),
    ).toBe('bad-key');
    expect(
      await codeOf(
        vault.sealMessage({
          frame: 'direct',
          message: { kind: 'text', text: 'x' },
          recipients: [{ deviceKey: '00'.repeat(32) }],
        }),
      ),
    ).toBe('low-order');
    expect(
      await codeOf(
        vault.sealMessage({
          frame: 'direct',
          message: { kind: 'text', text: 'x', from: HARDHAT_ADDRESS },
          recipients: [{ deviceKey }],
        }),
      ),
    ).toBe('bad-request');
    expect(
      await codeOf(
        vault.sealMessage({
          frame: 'direct',
          message: { kind: 'text', text: 'x'.repeat(70_000) },
          recipients: [{ deviceKey }],
        }),
      ),
    ).toBe('bad-request');
    const cert = await vault.deviceCertificate();
    expect(
      await codeOf(
        vault.sealMessage({
          frame: 'direct',
          message: { kind: 'text', text: 'x' },
          recipients: [{ deviceKey, address: HARDHAT_ADDRESS, certificate: cert.certificate }],
        }),
      ),
    ).toBe('bad-certificate');
    expect(
      await codeOf(
        vault.sealMessage({
          frame: 'direct',
          message: { kind: 'text', text: 'x' },
          recipients: [{ deviceKey: 'cd'.repeat(32), address, certificate: cert.certificate }],
        }),
      ),
    ).toBe('bad-certificate');
  });

  it('signs a SIWE message for our address and relay only', async () => {
    const uri = 'http://127.0.0.1:4321';
    const now = new Date();
    const fields = {
      address: getAddress(address),
      chainId: 1,
      domain: '127.0.0.1:4321',
      nonce: 'n0nce1234567',
      uri,
      version: '1' as const,
      issuedAt: now,
      expirationTime: new Date(now.getTime() + 300_000),
    };
    const message = createSiweMessage(fields);
    const signed = await vault.signSiwe({ message, expectedUri: uri });
    expect(recoverPersonalSigner(message, signed.signature)).toBe(address);
    expect(await codeOf(vault.signSiwe({ message, expectedUri: 'http://127.0.0.1:9999' }))).toBe('siwe-rejected');
    expect(
      await codeOf(
        vault.signSiwe({
          message: createSiweMessage({ ...fields, address: getAddress(HARDHAT_ADDRESS) }),
          expectedUri: uri,
        }),
      ),
    ).toBe('siwe-rejected');
  });

  it('signs EIP-1559 transactions and EIP-712 typed data that recover to the wallet', async () => {
    const tx = {
      chainId: 31337,
      nonce: 3,
      to: HARDHAT_ADDRESS,
      value: '1000',
      data: '0xabcd',
      gas: '50000',
      maxFeePerGas: '2000000000',
      maxPriorityFeePerGas: '1000000000',
    };
    const signed = await vault.signTransaction({ transaction: tx });
    expect(signed.serialized.startsWith('0x02')).toBe(true);
    expect(signed.hash).toBe(keccak256(signed.serialized as Hex));
    const parsed = parseTransaction(signed.serialized as Hex);
    expect(parsed).toMatchObject({
      chainId: 31337,
      nonce: 3,
      to: HARDHAT_ADDRESS,
      value: 1000n,
      data: '0xabcd',
      gas: 50000n,
    });
    expect(
      (
        await recoverTransactionAddress({ serializedTransaction: signed.serialized as TransactionSerialized })
      ).toLowerCase(),
    ).toBe(address);
    expect(await codeOf(vault.signTransaction({ transaction: { ...tx, value: '-1' } }))).toBe('bad-request');
    expect(await codeOf(vault.signTransaction({ transaction: { ...tx, to: '0x1234' } }))).toBe('bad-request');

    const typedData = {
      domain: { name: 'RelayStakeEscrow', version: '1', chainId: 31337, verifyingContract: HARDHAT_ADDRESS },
      types: { Release: [{ name: 'id', type: 'bytes32' }] },
      primaryType: 'Release',
      message: { id: `0x${'ab'.repeat(32)}` },
    };
    const typed = await vault.signTypedData({ typedData });
    expect(typed.address).toBe(address);
    expect(
      (
        await recoverTypedDataAddress({ ...typedData, signature: typed.signature as Hex } as Parameters<
          typeof recoverTypedDataAddress
        >[0])
      ).toLowerCase(),
    ).toBe(address);
    expect(await codeOf(vault.signTypedData({ typedData: { ...typedData, primaryType: 'Forfeit' } }))).toBe(
      'bad-request',
    );
  });

  it('a wrong passphrase is refused and changes nothing; the right one unlocks', async () => {
    const before = fileHash(dir);
    await vault.lock();
    expect((await vault.status()).unlocked).toBe(false);
    expect(await codeOf(vault.deviceCertificate())).toBe('locked');
    expect(
      await codeOf(
        vault.sealMessage({ frame: 'direct', message: { kind: 'text', text: 'x' }, recipients: [{ deviceKey }] }),
      ),
    ).toBe('locked');
    expect(await codeOf(vault.unlock({ passphrase: 'wrong horse' }))).toBe('bad-passphrase');
    expect(await codeOf(vault.unlock({}))).toBe('no-passphrase');
    expect(fileHash(dir)).toBe(before);
    expect(await vault.unlock({ passphrase: 'correct horse' })).toMatchObject({ unlocked: true, address, deviceKey });
    expect(await codeOf(vault.createWallet({ passphrase: 'another' }))).toBe('wallet-exists');
    expect(await codeOf(vault.importMnemonic({ mnemonic: HARDHAT_MNEMONIC, passphrase: 'another' }))).toBe(
      'wallet-exists',
    );
    expect(fileHash(dir)).toBe(before);
  });

  it("no answer ever carried a private key or the seed, except createWallet's one mnemonic", async () => {
    const { secrets } = await readVaultSecrets(dir, passphraseCodec('correct horse'));
    const device = Buffer.from(secrets.devicePrivateKey, 'hex');
    const wallet = Buffer.from(secrets.walletPrivateKey, 'hex');
    const forbidden = [
      secrets.walletPrivateKey,
      secrets.devicePrivateKey,
      wallet.toString('base64'),
      device.toString('base64'),
      device.toString('base64url'),
      ...mnemonic
        .split(' ')
        .map((_, i, words) => words.slice(i, i + 3).join(' '))
        .slice(0, 10),
    ];
    expect(responses.length).toBeGreaterThan(20);
    for (const r of responses) {
      const lower = r.text.toLowerCase();
      for (const secret of forbidden.slice(0, 5))
        expect(lower.includes(secret.toLowerCase()), `response ${r.seq} leaks a key`).toBe(false);
    }
    const [created, ...others] = responses.filter((r) => r.text.includes(mnemonic));
    expect(created, 'createWallet answered with the mnemonic').toBeDefined();
    expect(
      others.map((r) => r.seq),
      "answers besides createWallet's that carry the mnemonic",
    ).toEqual([]);
    for (const r of responses.filter((x) => x !== created)) {
      for (const words of forbidden.slice(5))
        expect(r.text.includes(words), `response ${r.seq} leaks seed words`).toBe(false);
    }
  });
});
