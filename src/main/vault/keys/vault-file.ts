import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { VaultCodec } from './secret-codec.js';
import { VaultError } from '../vault-error.js';

/**
 * vault.json: public facts in clear (so `status()` works while locked), secrets under a random
 * data key (AES-256-GCM, the clear header as associated data), the data key wrapped by the
 * codec (passphrase/scrypt or the OS keychain).
 */

export const VAULT_FILE = 'vault.json';
export const VAULT_FORMAT = 'relay-vault';
export const VAULT_VERSION = 1;

export type Protection = 'passphrase' | 'codec';

export interface VaultSecrets {
  /** 0x-less hex of the secp256k1 key */
  walletPrivateKey: string;
  /** present only for wallets created or imported from a mnemonic */
  mnemonic: string | null;
  /** hex of the X25519 device key */
  devicePrivateKey: string;
}

export interface VaultHeader {
  format: typeof VAULT_FORMAT;
  version: typeof VAULT_VERSION;
  protection: Protection;
  address: string;
  deviceKey: string;
  createdAt: string;
}

interface VaultFileBody extends VaultHeader {
  wrappedKey: string;
  nonce: string;
  secrets: string;
}

function aad(h: VaultHeader): Buffer {
  return Buffer.from(JSON.stringify([h.format, h.version, h.protection, h.address, h.deviceKey, h.createdAt]));
}

export function vaultPath(profileDir: string): string {
  return join(profileDir, VAULT_FILE);
}

/** The header, or null when there is no vault yet. Throws `corrupt-vault` for an unreadable file. */
export async function readVaultHeader(profileDir: string): Promise<VaultHeader | null> {
  const body = await readBody(profileDir);
  if (!body) return null;
  const { format, version, protection, address, deviceKey, createdAt } = body;
  return { format, version, protection, address, deviceKey, createdAt };
}

async function readBody(profileDir: string): Promise<VaultFileBody | null> {
  let text: string;
  try {
    text = await readFile(vaultPath(profileDir), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new VaultError('corrupt-vault', `cannot read the vault file: ${(e as Error).message}`);
  }
  let body: VaultFileBody;
  try {
    body = JSON.parse(text) as VaultFileBody;
  } catch {
    throw new VaultError('corrupt-vault', 'the vault file is not JSON');
  }
  if (body?.format !== VAULT_FORMAT) throw new VaultError('corrupt-vault', 'not a vault file');
  if (body.version !== VAULT_VERSION)
    throw new VaultError('corrupt-vault', `vault file version ${String(body.version)} is not supported by this build`);
  const strings = [
    body.protection,
    body.address,
    body.deviceKey,
    body.createdAt,
    body.wrappedKey,
    body.nonce,
    body.secrets,
  ];
  if (strings.some((s) => typeof s !== 'string') || (body.protection !== 'passphrase' && body.protection !== 'codec')) {
    throw new VaultError('corrupt-vault', 'the vault file is missing fields');
  }
  return body;
}

export async function readVaultSecrets(
  profileDir: string,
  codec: VaultCodec,
): Promise<{ header: VaultHeader; secrets: VaultSecrets }> {
  const body = await readBody(profileDir);
  if (!body) throw new VaultError('no-wallet', 'there is no wallet in this profile');
  const { wrappedKey, nonce, secrets, ...header } = body;
  let dataKey: Buffer;
  try {
    dataKey = await codec.decrypt(Buffer.from(wrappedKey, 'base64'));
  } catch (e) {
    if (e instanceof VaultError) throw e;
    throw new VaultError('codec-failed', `the key store could not unwrap the vault key: ${(e as Error).message}`);
  }
  if (dataKey.length !== 32) throw new VaultError('corrupt-vault', 'the unwrapped vault key has the wrong size');
  const ct = Buffer.from(secrets, 'base64');
  const iv = Buffer.from(nonce, 'base64');
  let plain: Buffer;
  try {
    if (iv.length !== 12 || ct.length < 16) throw new Error('truncated');
    const decipher = createDecipheriv('aes-256-gcm', dataKey, iv);
    decipher.setAAD(aad(header));
    decipher.setAuthTag(ct.subarray(ct.length - 16));
    plain = Buffer.concat([decipher.update(ct.subarray(0, ct.length - 16)), decipher.final()]);
  } catch {
    throw new VaultError('corrupt-vault', 'the vault secrets failed authentication');
  } finally {
    dataKey.fill(0);
  }
  try {
    const parsed = JSON.parse(plain.toString('utf8')) as VaultSecrets;
    if (typeof parsed.walletPrivateKey !== 'string' || typeof parsed.devicePrivateKey !== 'string')
      throw new Error('fields');
    return { header, secrets: parsed };
  } catch {
    throw new VaultError('corrupt-vault', 'the vault secrets are unreadable');
  } finally {
    plain.fill(0);
  }
}

/** Encrypts and writes atomically (temp file, fsync, rename; mode 0600). */
export async function writeVault(
  profileDir: string,
  header: VaultHeader,
  secrets: VaultSecrets,
  codec: VaultCodec,
): Promise<void> {
  const dataKey = randomBytes(32);
  const nonce = randomBytes(12);
  const plain = Buffer.from(JSON.stringify(secrets));
  let wrapped: Buffer;
  let ct: Buffer;
  try {
    const cipher = createCipheriv('aes-256-gcm', dataKey, nonce);
    cipher.setAAD(aad(header));
    ct = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    try {
      wrapped = await codec.encrypt(dataKey);
    } catch (e) {
      if (e instanceof VaultError) throw e;
      throw new VaultError('codec-failed', `the key store could not wrap the vault key: ${(e as Error).message}`);
    }
  } finally {
    plain.fill(0);
    dataKey.fill(0);
  }
  const body: VaultFileBody = {
    ...header,
    wrappedKey: wrapped.toString('base64'),
    nonce: nonce.toString('base64'),
    secrets: ct.toString('base64'),
  };
  await writeFileAtomic(vaultPath(profileDir), JSON.stringify(body, null, 2) + '\n');
}

async function writeFileAtomic(path: string, text: string): Promise<void> {
  const dir = join(path, '..');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(tmp, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } catch (e) {
    await handle.close();
    await rm(tmp, { force: true });
    throw e;
  }
  await handle.close();
  try {
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  // make the rename itself durable
  try {
    const d = await open(dir, 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch {
    // some platforms (Windows) cannot fsync a directory; the rename is still atomic
  }
}
