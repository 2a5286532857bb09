import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { getAddress, recoverMessageAddress, verifyMessage } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import {
  deviceCertificateText,
  signDeviceCertificate,
  verifyDeviceCertificate,
  verifyDeviceCertificates,
  warmCertificateChecks,
} from '../device-certificate.js';
import { checkSiweMessage } from '../siwe.js';
import { addressFromPrivateKeyViaOpenSsl } from '../openssl-address.js';
import { isVaultError } from '../../vault-error.js';
import {
  addressFromPrivateKey,
  hashPersonalMessage,
  isValidMnemonic,
  newMnemonic,
  recoverPersonalSigner,
  signPersonalMessage,
  toChecksumAddress,
  walletFromMnemonic,
  walletFromPrivateKey,
} from '../wallet.js';
import { LOWER_ADDRESS } from '../../../../shared/identity-patterns.js';

const HARDHAT_MNEMONIC = 'test test test test test test test test test test test junk';
const HARDHAT_ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const HARDHAT_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const N = secp256k1.Point.CURVE().n;

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return isVaultError(e) ? e.code : 'not-a-vault-error';
  }
  return undefined;
}

describe('wallet', () => {
  it("derives the well-known test mnemonic to its address at m/44'/60'/0'/0/0", () => {
    const w = walletFromMnemonic(HARDHAT_MNEMONIC);
    expect(w.address).toBe(HARDHAT_ADDRESS);
    expect('0x' + Buffer.from(w.privateKey).toString('hex')).toBe(HARDHAT_KEY);
    // and viem, an independent implementation, agrees
    expect(mnemonicToAccount(HARDHAT_MNEMONIC).address.toLowerCase()).toBe(HARDHAT_ADDRESS);
  });

  it('normalises spacing and case of a typed mnemonic', () => {
    expect(walletFromMnemonic(`  Test test\ttest test test test test test test test test   JUNK \n`).address).toBe(
      HARDHAT_ADDRESS,
    );
  });

  it('imports a private key with or without 0x', () => {
    expect(walletFromPrivateKey(HARDHAT_KEY).address).toBe(HARDHAT_ADDRESS);
    expect(walletFromPrivateKey(HARDHAT_KEY.toUpperCase().replace('0X', '0x')).address).toBe(HARDHAT_ADDRESS);
    // keys exported from common wallets come without the prefix
    expect(walletFromPrivateKey(HARDHAT_KEY.slice(2)).address).toBe(HARDHAT_ADDRESS);
    expect(walletFromPrivateKey(HARDHAT_KEY.toUpperCase()).address).toBe(HARDHAT_ADDRESS);
  });

  it('refuses bad mnemonics and keys', () => {
    expect(codeOf(() => walletFromMnemonic('test test test test test test test test test test test test'))).toBe(
      'bad-mnemonic',
    ); // bad checksum
    expect(codeOf(() => walletFromMnemonic('hello world'))).toBe('bad-mnemonic');
    expect(codeOf(() => walletFromPrivateKey(HARDHAT_KEY.slice(3)))).toBe('bad-private-key');
    expect(codeOf(() => walletFromPrivateKey('0x0x' + HARDHAT_KEY.slice(4)))).toBe('bad-private-key');
    expect(codeOf(() => walletFromPrivateKey('0x' + '00'.repeat(32)))).toBe('bad-private-key');
    expect(codeOf(() => walletFromPrivateKey('0x' + N.toString(16)))).toBe('bad-private-key');
  });

  it('creates fresh 12-word English mnemonics', () => {
    const a = newMnemonic();
    const b = newMnemonic();
    expect(a.split(' ')).toHaveLength(12);
    expect(isValidMnemonic(a)).toBe(true);
    expect(a).not.toBe(b);
    expect(walletFromMnemonic(a).address).toMatch(LOWER_ADDRESS);
  });

  it('derives the address of any private key as viem does, through @noble and through OpenSSL', () => {
    for (const key of [hexToBytes((N - 1n).toString(16).padStart(64, '0')), hexToBytes('01'.padStart(64, '0'))]) {
      const hex = `0x${Buffer.from(key).toString('hex')}` as const;
      expect(addressFromPrivateKey(key)).toBe(privateKeyToAccount(hex).address.toLowerCase());
      expect(addressFromPrivateKeyViaOpenSsl(key)).toBe(privateKeyToAccount(hex).address.toLowerCase());
    }
    for (let i = 0; i < 20; i++) {
      const key = secp256k1.utils.randomSecretKey();
      const viemAddress = privateKeyToAccount(`0x${Buffer.from(key).toString('hex')}`).address.toLowerCase();
      expect(addressFromPrivateKey(key)).toBe(viemAddress);
      expect(addressFromPrivateKeyViaOpenSsl(key)).toBe(viemAddress);
    }
  });

  it('spells EIP-55 checksums like viem', () => {
    expect(toChecksumAddress(HARDHAT_ADDRESS)).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    for (let i = 0; i < 20; i++) {
      const addr = walletFromMnemonic(newMnemonic()).address;
      expect(toChecksumAddress(addr)).toBe(getAddress(addr));
    }
  });
});

describe('EIP-191 personal_sign', () => {
  const messages = [
    'hello',
    '',
    'Relay device key ' + 'ab'.repeat(32) + ' for ' + HARDHAT_ADDRESS,
    'ünïcødé ✓ 🚀',
    'x'.repeat(5000),
  ];

  it('signs exactly like viem (deterministic RFC 6979, low-S, v = 27/28)', async () => {
    const account = privateKeyToAccount(HARDHAT_KEY);
    const key = hexToBytes(HARDHAT_KEY.slice(2));
    for (const message of messages) {
      const ours = signPersonalMessage(key, message);
      expect(ours).toMatch(/^0x[0-9a-f]{130}$/);
      expect(ours).toBe(await account.signMessage({ message }));
      expect(['1b', '1c']).toContain(ours.slice(-2));
      const s = BigInt('0x' + ours.slice(66, 130));
      expect(s <= N / 2n).toBe(true);
    }
  });

  it('signs byte for byte as @noble (an independent implementation) does, for any key and message, and recovers the same address', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 48, maxLength: 48 }),
        fc.uint8Array({ maxLength: 300 }),
        (seed, message) => {
          const key = secp256k1.utils.randomSecretKey(seed);
          const rec = secp256k1.sign(hashPersonalMessage(message), key, {
            prehash: false,
            lowS: true,
            format: 'recovered',
          });
          const noble = '0x' + Buffer.from(rec.subarray(1)).toString('hex') + (27 + rec[0]).toString(16);
          expect(signPersonalMessage(key, message)).toBe(noble);
          expect(addressFromPrivateKey(key)).toBe(addressFromPrivateKeyViaOpenSsl(key));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('recovers the signer, as viem does', async () => {
    const key = hexToBytes(HARDHAT_KEY.slice(2));
    for (const message of messages) {
      const sig = signPersonalMessage(key, message);
      expect(recoverPersonalSigner(message, sig)).toBe(HARDHAT_ADDRESS);
      expect((await recoverMessageAddress({ message, signature: sig as `0x${string}` })).toLowerCase()).toBe(
        HARDHAT_ADDRESS,
      );
      expect(await verifyMessage({ address: HARDHAT_ADDRESS, message, signature: sig as `0x${string}` })).toBe(true);
    }
  });

  it('a changed message or signature recovers someone else or nothing', () => {
    const key = hexToBytes(HARDHAT_KEY.slice(2));
    const sig = signPersonalMessage(key, 'hello');
    expect(recoverPersonalSigner('hellp', sig)).not.toBe(HARDHAT_ADDRESS);
    const flipped = sig.slice(0, 10) + (sig[10] === 'a' ? 'b' : 'a') + sig.slice(11);
    expect(recoverPersonalSigner('hello', flipped)).not.toBe(HARDHAT_ADDRESS);
    expect(recoverPersonalSigner('hello', sig.slice(0, -2) + '1d')).toBeNull(); // v = 29
    expect(recoverPersonalSigner('hello', sig.slice(0, -2))).toBeNull();
    expect(recoverPersonalSigner('hello', 'nonsense')).toBeNull();
    // v = 0/1 spelling is accepted
    const v = parseInt(sig.slice(-2), 16) - 27;
    expect(recoverPersonalSigner('hello', sig.slice(0, -2) + '0' + v)).toBe(HARDHAT_ADDRESS);
  });

  it('refuses the high-S twin of a valid signature (malleability)', () => {
    const key = hexToBytes(HARDHAT_KEY.slice(2));
    const sig = signPersonalMessage(key, 'hello');
    const s = BigInt('0x' + sig.slice(66, 130));
    const v = parseInt(sig.slice(-2), 16);
    const twin = sig.slice(0, 66) + (N - s).toString(16).padStart(64, '0') + (v === 27 ? '1c' : '1b');
    // the twin is mathematically valid for the same key...
    const compact = hexToBytes(twin.slice(2, 130));
    expect(
      secp256k1.verify(compact, hashPersonalMessage('hello'), secp256k1.getPublicKey(key), {
        prehash: false,
        lowS: false,
      }),
    ).toBe(true);
    // ...but wallets never produce it, so it does not count
    expect(recoverPersonalSigner('hello', twin)).toBeNull();
  });
});

describe('device certificate', () => {
  const key = hexToBytes(HARDHAT_KEY.slice(2));
  const deviceKey = 'AB'.repeat(32);

  it('has the exact text of the contract, lower-cased', () => {
    expect(deviceCertificateText(deviceKey, toChecksumAddress(HARDHAT_ADDRESS))).toBe(
      `Relay device key ${'ab'.repeat(32)} for ${HARDHAT_ADDRESS}`,
    );
  });

  it('verifies for its address and key, and only those', async () => {
    const cert = signDeviceCertificate(key, deviceKey, HARDHAT_ADDRESS);
    expect(verifyDeviceCertificate(deviceKey, HARDHAT_ADDRESS, cert)).toBe(true);
    expect(verifyDeviceCertificate(deviceKey.toLowerCase(), toChecksumAddress(HARDHAT_ADDRESS), cert)).toBe(true);
    // equals a plain personal_sign of the text by any wallet
    expect(cert).toBe(
      await privateKeyToAccount(HARDHAT_KEY).signMessage({
        message: deviceCertificateText(deviceKey, HARDHAT_ADDRESS),
      }),
    );

    const other = walletFromMnemonic(newMnemonic());
    expect(verifyDeviceCertificate('cd'.repeat(32), HARDHAT_ADDRESS, cert)).toBe(false); // another device key
    expect(verifyDeviceCertificate(deviceKey, other.address, cert)).toBe(false); // another address
    expect(
      verifyDeviceCertificate(
        deviceKey,
        other.address,
        signDeviceCertificate(other.privateKey, deviceKey, HARDHAT_ADDRESS),
      ),
    ).toBe(false);
    expect(
      verifyDeviceCertificate(
        deviceKey,
        HARDHAT_ADDRESS,
        signDeviceCertificate(other.privateKey, deviceKey, HARDHAT_ADDRESS),
      ),
    ).toBe(false);
    expect(verifyDeviceCertificate(deviceKey, HARDHAT_ADDRESS, '0x')).toBe(false);
    expect(verifyDeviceCertificate('xyz', HARDHAT_ADDRESS, cert)).toBe(false);
    expect(verifyDeviceCertificate(deviceKey, 'not-an-address', cert)).toBe(false);
  });
});

describe('certificate checks in bulk', () => {
  it('answers each entry in order, a malformed one false; the warm-up certificate verifies (the warm-up throws otherwise)', async () => {
    const key = hexToBytes(HARDHAT_KEY.slice(2));
    const deviceKey = '22'.repeat(32);
    const cert = signDeviceCertificate(key, deviceKey, HARDHAT_ADDRESS);
    expect(
      verifyDeviceCertificates([
        { address: HARDHAT_ADDRESS, publicKey: deviceKey, certificate: cert },
        { address: HARDHAT_ADDRESS, publicKey: '33'.repeat(32), certificate: cert },
        null as never,
        { address: HARDHAT_ADDRESS, publicKey: deviceKey, certificate: 42 as never },
      ]),
    ).toEqual([true, false, false, false]);
    await expect(warmCertificateChecks()).resolves.toBeUndefined();
  });
});

describe('SIWE check before signing', () => {
  const uri = 'http://127.0.0.1:4000';
  const now = new Date('2030-01-01T00:00:00.000Z');
  const base = {
    address: getAddress(HARDHAT_ADDRESS),
    chainId: 1,
    domain: '127.0.0.1:4000',
    nonce: 'abcdefgh1234',
    uri,
    version: '1' as const,
    issuedAt: now,
    expirationTime: new Date(now.getTime() + 5 * 60_000),
    statement: 'Sign in to the relay.',
  };
  const check = (message: string, expectedUri = uri) =>
    checkSiweMessage(message, { address: HARDHAT_ADDRESS, expectedUri, now });
  const rejected = (message: string, expectedUri = uri) => codeOf(() => check(message, expectedUri));

  it('accepts a message for our address and relay', () => {
    const checked = check(createSiweMessage(base));
    expect(checked).toMatchObject({ domain: '127.0.0.1:4000', nonce: 'abcdefgh1234', chainId: 1 });
    expect(codeOf(() => check(createSiweMessage(base), `${uri}/`))).toBeUndefined();
  });

  it('accepts a relay reached at a bracketed IPv6 address, and only that one', () => {
    const v6 = createSiweMessage({ ...base, uri: 'http://[::1]:4000' }).replace(/^127\.0\.0\.1:4000 /, '[::1]:4000 ');
    expect(check(v6, 'http://[::1]:4000')).toMatchObject({
      domain: '[::1]:4000',
      uri: 'http://[::1]:4000',
      nonce: 'abcdefgh1234',
    });
    expect(rejected(v6)).toBe('siwe-rejected');
    expect(rejected(v6.replace('[::1]:4000 wants', '[::2]:4000 wants'), 'http://[::1]:4000')).toBe('siwe-rejected');
  });

  it('refuses another address, domain, URI, version or time', () => {
    const other = walletFromMnemonic(newMnemonic()).address;
    expect(rejected(createSiweMessage({ ...base, address: getAddress(other) }))).toBe('siwe-rejected');
    expect(rejected(createSiweMessage({ ...base, domain: 'evil.example' }))).toBe('siwe-rejected');
    // the whole authority, as the relay checks it: another port of the same host, no port, another scheme
    expect(rejected(createSiweMessage({ ...base, domain: '127.0.0.1:9999' }))).toBe('siwe-rejected');
    expect(rejected(createSiweMessage({ ...base, domain: '127.0.0.1' }))).toBe('siwe-rejected');
    expect(rejected(createSiweMessage(base), 'https://127.0.0.1:4000')).toBe('siwe-rejected');
    expect(rejected(createSiweMessage({ ...base, uri: 'http://127.0.0.1:4001' }))).toBe('siwe-rejected');
    expect(rejected(createSiweMessage(base), 'http://127.0.0.1:4001')).toBe('siwe-rejected');
    expect(rejected(createSiweMessage({ ...base, expirationTime: new Date(now.getTime() - 1000) }))).toBe(
      'siwe-rejected',
    );
    expect(rejected(createSiweMessage({ ...base, notBefore: new Date(now.getTime() + 60 * 60_000) }))).toBe(
      'siwe-rejected',
    );
    expect(rejected(createSiweMessage({ ...base, issuedAt: new Date(now.getTime() + 60 * 60_000) }))).toBe(
      'siwe-rejected',
    );
    expect(rejected(createSiweMessage(base).replace('Version: 1', 'Version: 2'))).toBe('siwe-rejected');
    expect(rejected(createSiweMessage(base).replace('Nonce: abcdefgh1234', 'Nonce: ab'))).toBe('siwe-rejected');
  });

  it('refuses messages dressed up to fool a parser', () => {
    const good = createSiweMessage(base);
    expect(rejected(`evil.example wants you to sign in with your Ethereum account:\n${good}`)).toBe('siwe-rejected');
    expect(
      rejected(good.replace('URI: http://127.0.0.1:4000', 'URI: http://127.0.0.1:4000\nURI: https://evil.example')),
    ).toBe('siwe-rejected');
    expect(rejected(good.replace(/\n/g, '\r\n'))).toBe('siwe-rejected');
    expect(rejected('')).toBe('siwe-rejected');
    expect(rejected('Sign this innocent text')).toBe('siwe-rejected');
  });
});
