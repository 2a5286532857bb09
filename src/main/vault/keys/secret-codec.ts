import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { VaultError } from '../vault-error.js';

/**
 * What protects the vault file's data key at rest. The Electron app passes a codec backed by
 * `safeStorage` (OS keychain); without one the vault uses `passphraseCodec`.
 * Codecs see only a random 32-byte data key, never the wallet or device secrets.
 */
export interface VaultCodec {
  encrypt(plain: Buffer): Buffer | Promise<Buffer>;
  decrypt(sealed: Buffer): Buffer | Promise<Buffer>;
}

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** OWASP Password Storage Cheat Sheet minimum for scrypt: N=2^17, r=8, p=1 (~0.5 s here). */
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };

/**
 * A profile created without a passphrase is sealed under this well-known text instead (the
 * file format stays uniform and can be re-keyed later); client/profile-passphrase.ts maps ''
 * to it.
 */
export const EMPTY_PASSPHRASE_STANDIN = 'relay-messenger/no-passphrase';

/**
 * scrypt's least accepted cost, for the stand-in only: anyone can derive its key, so a slow
 * derivation protects nothing and only delays every start (two of them per unlock: the vault's
 * key and the API key's, ~0.5 s each at DEFAULT_SCRYPT on a quiet 2-core machine).
 */
export const STANDIN_SCRYPT: ScryptParams = { N: 2 ** 14, r: 8, p: 1 };

/** Within the range a vault file may name (below): neither weak nor a memory bomb. */
export function acceptedScrypt({ N, r, p }: ScryptParams): boolean {
  const powerOfTwo = Number.isSafeInteger(N) && N > 1 && (N & (N - 1)) === 0;
  return (
    powerOfTwo &&
    N >= 2 ** 14 &&
    N <= 2 ** 20 &&
    Number.isSafeInteger(r) &&
    r >= 8 &&
    r <= 32 &&
    Number.isSafeInteger(p) &&
    p >= 1 &&
    p <= 4
  );
}

// A file can name its own parameters; keep them in the accepted range for whoever opens it.
function checkParams(params: ScryptParams): void {
  if (!acceptedScrypt(params)) throw new VaultError('corrupt-vault', 'scrypt parameters outside the accepted range');
}

/**
 * The cost a new wrap under `passphrase` is made with: `chosen` (the vault's `scrypt` option,
 * default DEFAULT_SCRYPT), except the stand-in's, which is always the least. Opening reads the
 * cost from the wrap itself, so a vault made at any accepted cost opens at that cost.
 */
export function scryptFor(passphrase: string, chosen: ScryptParams = DEFAULT_SCRYPT): ScryptParams {
  return passphrase === EMPTY_PASSPHRASE_STANDIN ? STANDIN_SCRYPT : chosen;
}

function deriveKey(passphrase: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  checkParams(params);
  return new Promise((resolve, reject) => {
    // 128 * N * r bytes is scrypt's working set; allow it plus headroom
    scrypt(passphrase.normalize('NFC'), salt, 32, { ...params, maxmem: 256 * params.N * params.r }, (err, key) =>
      err ? reject(new VaultError('internal', `scrypt failed: ${err.message}`)) : resolve(key),
    );
  });
}

interface PassphraseBlob {
  v: 1;
  kdf: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: string;
  nonce: string;
  ct: string;
}

const AAD = Buffer.from('relay-vault-passphrase-v1');

/**
 * scrypt(passphrase, random salt) -> AES-256-GCM. The output is a small versioned JSON text
 * that records salt and parameters, so they can be raised later without breaking old files.
 * A wrong passphrase fails GCM authentication and surfaces as `bad-passphrase`.
 */
export function passphraseCodec(
  passphrase: string,
  params: ScryptParams = scryptFor(passphrase),
  opts: { deriveAhead?: boolean } = {},
): VaultCodec {
  if (typeof passphrase !== 'string' || passphrase.length === 0)
    throw new VaultError('no-passphrase', 'a passphrase is required');
  const fresh = () => {
    const salt = randomBytes(16);
    return { salt, key: deriveKey(passphrase, salt, params) };
  };
  // `deriveAhead`: the first wrap's key (a salt of its own, used once) is derived from now on,
  // beside whatever the caller does meanwhile (a new wallet's own scrypt in the vault worker)
  let ahead = opts.deriveAhead ? fresh() : null;
  ahead?.key.catch(() => undefined);
  return {
    async encrypt(plain) {
      const { salt, key: derived } = ahead ?? fresh();
      ahead = null;
      const nonce = randomBytes(12);
      const key = await derived;
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(AAD);
      const ct = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      key.fill(0);
      const blob: PassphraseBlob = {
        v: 1,
        kdf: 'scrypt',
        ...params,
        salt: salt.toString('base64'),
        nonce: nonce.toString('base64'),
        ct: ct.toString('base64'),
      };
      return Buffer.from(JSON.stringify(blob));
    },
    async decrypt(sealed) {
      let blob: PassphraseBlob;
      try {
        blob = JSON.parse(sealed.toString('utf8')) as PassphraseBlob;
      } catch {
        throw new VaultError('corrupt-vault', 'the wrapped key is not readable');
      }
      if (
        blob?.v !== 1 ||
        blob.kdf !== 'scrypt' ||
        typeof blob.salt !== 'string' ||
        typeof blob.nonce !== 'string' ||
        typeof blob.ct !== 'string'
      ) {
        throw new VaultError('corrupt-vault', 'unknown wrapped-key format');
      }
      const ct = Buffer.from(blob.ct, 'base64');
      const nonce = Buffer.from(blob.nonce, 'base64');
      if (nonce.length !== 12 || ct.length < 16) throw new VaultError('corrupt-vault', 'the wrapped key is truncated');
      const key = await deriveKey(passphrase, Buffer.from(blob.salt, 'base64'), { N: blob.N, r: blob.r, p: blob.p });
      const decipher = createDecipheriv('aes-256-gcm', key, nonce);
      decipher.setAAD(AAD);
      decipher.setAuthTag(ct.subarray(ct.length - 16));
      try {
        return Buffer.concat([decipher.update(ct.subarray(0, ct.length - 16)), decipher.final()]);
      } catch {
        throw new VaultError('bad-passphrase', 'wrong passphrase');
      } finally {
        key.fill(0);
      }
    },
  };
}
