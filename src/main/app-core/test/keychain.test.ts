/**
 * The keychain through the real services (plain Node, a stand-in for Electron's safeStorage):
 * when Linux's safeStorage would use `basic_text`, a new wallet is protected by the passphrase
 * and the keychain codec is never used; the status tells the interface why. A wallet the
 * keychain already protected still opens, and the status says how weakly it is protected.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KeychainRefusal } from '../../shell-guards.js';
import type { VaultCodec } from '../../vault/keys/secret-codec.js';
import { AppServices } from '../app-services.js';
import { DEFAULT_SETTINGS, writeSettings } from '../app-settings.js';
import { sourceRelayLauncher } from '../relay-launcher.js';

const dirs: string[] = [];
const open: AppServices[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A keychain that records its use; its "encryption" is a marker, as weak as basic_text. */
function fakeKeychain(): VaultCodec & { uses: number } {
  const k = {
    uses: 0,
    encrypt: (plain: Buffer) => {
      k.uses++;
      return Buffer.concat([Buffer.from('kc:'), plain]);
    },
    decrypt: (sealed: Buffer) => {
      k.uses++;
      return sealed.subarray(3);
    },
  };
  return k;
}

function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'keychain-test-'));
  dirs.push(d);
  // no embedded relay: this test is about the vault
  writeSettings(d, { ...DEFAULT_SETTINGS, localRelay: { ...DEFAULT_SETTINGS.localRelay, enabled: false } });
  return d;
}

async function start(dir: string, codec: VaultCodec, refusal: KeychainRefusal): Promise<AppServices> {
  const s = await AppServices.start({
    dataDir: dir,
    shell: 'electron',
    relayLauncher: sourceRelayLauncher(),
    openExternal: async () => undefined,
    keychain: { codec, refusal },
  });
  open.push(s);
  return s;
}

const protection = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, 'profile', 'vault.json'), 'utf8')) as { protection: string }).protection;

describe('the vault and the OS keychain', () => {
  it('under basic_text a new wallet is protected by the passphrase, and the status says why', async () => {
    const dir = dataDir();
    const keychain = fakeKeychain();
    const s = await start(dir, keychain, 'basic_text');
    expect(await s.handlers['app.status']({})).toMatchObject({ keychain: false, keychainRefused: 'basic_text' });
    await s.handlers['wallet.create']({ passphrase: 'a long passphrase' });
    expect(protection(dir)).toBe('passphrase');
    expect(keychain.uses).toBe(0);
  });

  it('with a real secret store the keychain protects a new wallet and no passphrase is asked for', async () => {
    const dir = dataDir();
    const keychain = fakeKeychain();
    const s = await start(dir, keychain, null);
    expect(await s.handlers['app.status']({})).toMatchObject({ keychain: true, keychainRefused: null });
    await s.handlers['wallet.create']({ passphrase: '' });
    expect(protection(dir)).toBe('codec');
    expect(keychain.uses).toBeGreaterThan(0);
  });

  it('a wallet the keychain protected before still opens under basic_text, marked as weakly protected', async () => {
    const dir = dataDir();
    const keychain = fakeKeychain();
    const first = await start(dir, keychain, null);
    const { address } = await first.handlers['wallet.create']({ passphrase: '' });
    await first.close();
    open.splice(0);
    const again = await start(dir, keychain, 'basic_text');
    expect(await again.handlers['app.status']({})).toMatchObject({
      address,
      unlocked: true,
      keychain: true,
      keychainRefused: 'basic_text',
    });
  });
});
