/**
 * A passphrase codec that derives its first wrap's key ahead (a new wallet's API key, sealed
 * once the relay answers): each wrap still has a salt of its own and opens with a codec that
 * never derived ahead; a wrong passphrase still fails.
 */
import { describe, expect, it } from 'vitest';
import { passphraseCodec, type ScryptParams } from '../secret-codec.js';
import { isVaultError } from '../../vault-error.js';

const CHEAP: ScryptParams = { N: 2 ** 14, r: 8, p: 1 };
const saltOf = (sealed: Buffer) => (JSON.parse(sealed.toString('utf8')) as { salt: string }).salt;

describe('passphrase codec deriving ahead', () => {
  it('seals what a plain codec opens, with a fresh salt every wrap', async () => {
    const ahead = passphraseCodec('correct horse', CHEAP, { deriveAhead: true });
    const plain = passphraseCodec('correct horse', CHEAP);
    const secrets = [Buffer.from('first secret'), Buffer.from('second secret'), Buffer.from('third')];
    const sealed = [];
    for (const s of secrets) sealed.push(await ahead.encrypt(s));
    for (let i = 0; i < secrets.length; i++)
      expect((await plain.decrypt(sealed[i])).toString()).toBe(secrets[i].toString());
    expect(new Set(sealed.map(saltOf)).size).toBe(secrets.length);
  });

  it('two wraps started at once do not share the key derived ahead', async () => {
    const ahead = passphraseCodec('correct horse', CHEAP, { deriveAhead: true });
    const [a, b] = await Promise.all([ahead.encrypt(Buffer.from('a')), ahead.encrypt(Buffer.from('b'))]);
    expect(saltOf(a)).not.toBe(saltOf(b));
    expect((await ahead.decrypt(b)).toString()).toBe('b');
  });

  it('a wrong passphrase does not open its wrap', async () => {
    const sealed = await passphraseCodec('correct horse', CHEAP, { deriveAhead: true }).encrypt(Buffer.from('x'));
    const err = await Promise.resolve(passphraseCodec('wrong horse', CHEAP).decrypt(sealed)).catch((e: unknown) => e);
    expect(isVaultError(err) && err.code).toBe('bad-passphrase');
  });
});
