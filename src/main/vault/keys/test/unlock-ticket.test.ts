import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { VaultCodec } from '../secret-codec.js';
import { VaultCore } from '../../vault-core.js';
import { ticketingCodec, ticketPath } from '../unlock-ticket.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ticket-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Stands in for the scrypt codec: counts how often the slow path runs; `passphrase` must match. */
function countingCodec(passphrase: string, dataKey: Buffer): VaultCodec & { decrypts: number } {
  const c = {
    decrypts: 0,
    encrypt: async () => Buffer.from(`sealed-for-${passphrase}`),
    decrypt: async (sealed: Buffer) => {
      c.decrypts++;
      if (sealed.toString() !== `sealed-for-${passphrase}`) throw new Error('bad-passphrase');
      return Buffer.from(dataKey);
    },
  };
  return c;
}

describe('unlock tickets', () => {
  const key = randomBytes(32);
  const sealed = Buffer.from('sealed-for-right');

  it('a second unlock with the same passphrase reads the ticket instead of the slow codec', async () => {
    const path = join(tempDir(), 'unlock-vault.json');
    const inner = countingCodec('right', key);
    expect(await ticketingCodec(inner, { passphrase: 'right', path, ttlMs: 60_000 }).decrypt(sealed)).toEqual(key);
    expect(await ticketingCodec(inner, { passphrase: 'right', path, ttlMs: 60_000 }).decrypt(sealed)).toEqual(key);
    expect(inner.decrypts).toBe(1);
    // only the user may read it, and it does not hold the key in clear
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).not.toContain(key.toString('base64'));
    expect(readFileSync(path, 'utf8')).not.toContain(key.toString('hex'));
  });

  it('another passphrase, an expired ticket or a re-keyed vault go the slow way', async () => {
    const path = join(tempDir(), 'unlock-vault.json');
    let now = 1_000_000;
    const right = countingCodec('right', key);
    await ticketingCodec(right, { passphrase: 'right', path, ttlMs: 1000, now: () => now }).decrypt(sealed);

    const wrong = countingCodec('wrong', key);
    await expect(
      ticketingCodec(wrong, { passphrase: 'wrong', path, ttlMs: 1000, now: () => now }).decrypt(sealed),
    ).rejects.toThrow('bad-passphrase');
    expect(wrong.decrypts).toBe(1);

    // a use pushes the expiry on (like sudo), so 900 ms later it still holds
    now += 900;
    await ticketingCodec(right, { passphrase: 'right', path, ttlMs: 1000, now: () => now }).decrypt(sealed);
    expect(right.decrypts).toBe(1);
    now += 1001;
    await ticketingCodec(right, { passphrase: 'right', path, ttlMs: 1000, now: () => now }).decrypt(sealed);
    expect(right.decrypts).toBe(2);

    const rekeyed = countingCodec('other', key);
    // the live ticket is for another wrapped key: not used
    await ticketingCodec(rekeyed, { passphrase: 'right', path, ttlMs: 1000, now: () => now }).decrypt(
      Buffer.from('sealed-for-other'),
    );
    expect(rekeyed.decrypts).toBe(1);
  });

  it('a tampered expiry fails authentication and the slow codec decides', async () => {
    const path = join(tempDir(), 'unlock-vault.json');
    const inner = countingCodec('right', key);
    await ticketingCodec(inner, { passphrase: 'right', path, ttlMs: 1000 }).decrypt(sealed);
    const t = JSON.parse(readFileSync(path, 'utf8')) as { expiresAt: number };
    writeFileSync(path, JSON.stringify({ ...t, expiresAt: t.expiresAt + 10 ** 9 }));
    await ticketingCodec(inner, { passphrase: 'right', path, ttlMs: 1000 }).decrypt(sealed);
    expect(inner.decrypts).toBe(2);
  });

  it('lives in $XDG_RUNTIME_DIR when there is one, else in a folder of ours in the temporary folder, never the profile', () => {
    const a = ticketPath('/p/alice', 'vault', { XDG_RUNTIME_DIR: '/run/user/1000' });
    const b = ticketPath('/p/bob', 'vault', { XDG_RUNTIME_DIR: '/run/user/1000' });
    expect(a).toMatch(/^\/run\/user\/1000\/relay-messenger\/unlock-vault-[0-9a-f]{24}\.json$/);
    expect(a).not.toBe(b);
    const fallback = ticketPath('/p/alice', 'vault', {});
    expect(dirname(fallback)).toBe(join(tmpdir(), `relay-messenger-${process.getuid!()}`));
    expect(fallback.startsWith('/p/alice')).toBe(false);
  });

  it('the vault remembers an unlock only when asked, never in the profile folder, and lock or 0 forget it', async () => {
    const dir = tempDir();
    const env = { XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR, TMPDIR: process.env.TMPDIR };
    // no runtime folder (root, cron, containers); a temporary folder of this test's own
    delete process.env.XDG_RUNTIME_DIR;
    process.env.TMPDIR = tempDir();
    try {
      const core = new VaultCore({ profileDir: dir });
      await core.createWallet({ passphrase: 'pass phrase' });
      const path = ticketPath(dir, 'vault');
      expect(existsSync(path)).toBe(false);
      // where earlier versions kept it: removed by the next remembered unlock
      writeFileSync(join(dir, 'unlock-vault.json'), '{}');
      await core.unlock({ passphrase: 'pass phrase', rememberMs: 60_000 });
      expect(existsSync(path)).toBe(true);
      expect(path.startsWith(process.env.TMPDIR!)).toBe(true);
      expect(readdirSync(dir).filter((f) => f.startsWith('unlock-'))).toEqual([]);
      // a wrong passphrase is still refused while the ticket lives
      await expect(
        new VaultCore({ profileDir: dir }).unlock({ passphrase: 'wrong', rememberMs: 60_000 }),
      ).rejects.toMatchObject({ code: 'bad-passphrase' });
      const fresh = new VaultCore({ profileDir: dir });
      expect((await fresh.unlock({ passphrase: 'pass phrase', rememberMs: 60_000 })).unlocked).toBe(true);
      await fresh.lock();
      expect(existsSync(path)).toBe(false);
      await core.unlock({ passphrase: 'pass phrase', rememberMs: 60_000 });
      await core.unlock({ passphrase: 'pass phrase', rememberMs: 0 });
      expect(existsSync(path)).toBe(false);
      await expect(core.unlock({ passphrase: 'pass phrase', rememberMs: -1 })).rejects.toMatchObject({
        code: 'bad-request',
      });
    } finally {
      for (const [name, value] of Object.entries(env))
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
    // six scrypt derivations at N=2^17
  }, 180_000);
});
