/**
 * Where the CLI's unlock tickets may live: only a folder of ours that no one else can enter
 * (0700, not a link, our own), an expired ticket is deleted, whoever's it was, and without
 * such a folder no ticket is kept at all (each command runs the full key derivation).
 */
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { VaultCodec } from '../secret-codec.js';
import { ticketFolder } from '../ticket-folder.js';
import { ticketingCodec, ticketPath } from '../unlock-ticket.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ticket-folder-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const key = randomBytes(32);
const sealed = Buffer.from('sealed-for-right');

/** Stands in for the scrypt codec: counts the slow unwraps; `passphrase` must match. */
function slowCodec(passphrase: string): VaultCodec & { decrypts: number } {
  const c = {
    decrypts: 0,
    encrypt: async () => Buffer.from(`sealed-for-${passphrase}`),
    decrypt: async (s: Buffer) => {
      c.decrypts++;
      if (s.toString() !== `sealed-for-${passphrase}`) throw new Error('bad-passphrase');
      return Buffer.from(key);
    },
  };
  return c;
}

/** Two unlocks in a row with the right passphrase; how many ran the slow way. */
async function twoUnlocks(path: string): Promise<number> {
  const inner = slowCodec('right');
  for (let i = 0; i < 2; i++)
    expect(await ticketingCodec(inner, { passphrase: 'right', path, ttlMs: 60_000 }).decrypt(sealed)).toEqual(key);
  return inner.decrypts;
}

describe('the unlock tickets folder', () => {
  it('without XDG_RUNTIME_DIR is a 0700 folder of ours in the temporary folder, and the profile folder gets no ticket', async () => {
    const tmp = tempDir();
    const profile = tempDir();
    const folder = ticketFolder({}, tmp);
    expect(folder).toBe(join(tmp, `relay-messenger-${process.getuid!()}`));
    const path = join(folder, 'unlock-vault-0123456789abcdef01234567.json');
    expect(await twoUnlocks(path)).toBe(1);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(profile)).toEqual([]);
    // the path the vault and the client ask for, for any profile, is never inside it
    for (const kind of ['vault', 'api-key'] as const) {
      const p = ticketPath(profile, kind, {});
      expect(p.startsWith(profile)).toBe(false);
      expect(p.startsWith(join(tmpdir(), `relay-messenger-${process.getuid!()}`))).toBe(true);
    }
  });

  it('an expired ticket is deleted when read, and so are other profiles’ expired tickets when one is written', async () => {
    const folder = join(tempDir(), 'relay-messenger');
    const path = join(folder, 'unlock-vault-aaaaaaaaaaaaaaaaaaaaaaaa.json');
    let now = 1_000_000;
    await ticketingCodec(slowCodec('right'), { passphrase: 'right', path, ttlMs: 1000, now: () => now }).decrypt(
      sealed,
    );
    expect(existsSync(path)).toBe(true);
    now += 1001;
    // a wrong passphrase after the expiry: the slow way refuses it, and the stale ticket is gone
    await expect(
      ticketingCodec(slowCodec('wrong'), { passphrase: 'wrong', path, ttlMs: 1000, now: () => now }).decrypt(sealed),
    ).rejects.toThrow('bad-passphrase');
    expect(existsSync(path)).toBe(false);

    const stale = join(folder, 'unlock-api-key-bbbbbbbbbbbbbbbbbbbbbbbb.json');
    const live = join(folder, 'unlock-vault-cccccccccccccccccccccccc.json');
    writeFileSync(stale, JSON.stringify({ v: 1, expiresAt: now - 1 }), { mode: 0o600 });
    writeFileSync(live, JSON.stringify({ v: 1, expiresAt: now + 60_000 }), { mode: 0o600 });
    await ticketingCodec(slowCodec('right'), { passphrase: 'right', path, ttlMs: 1000, now: () => now }).decrypt(
      sealed,
    );
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(path)).toBe(true);
  });

  it('keeps no ticket in a folder that is a link, open to others, or someone else’s', async () => {
    const base = tempDir();
    const elsewhere = tempDir();
    const linked = join(base, 'linked');
    symlinkSync(elsewhere, linked);
    expect(await twoUnlocks(join(linked, 'unlock-vault-x.json'))).toBe(2);
    expect(readdirSync(elsewhere)).toEqual([]);

    const open = join(base, 'open');
    mkdirSync(open);
    chmodSync(open, 0o755);
    expect(await twoUnlocks(join(open, 'unlock-vault-x.json'))).toBe(2);
    expect(readdirSync(open)).toEqual([]);

    // only root can give a folder away; elsewhere the two cases above stand for it
    if (process.getuid!() === 0) {
      const theirs = join(base, 'theirs');
      mkdirSync(theirs, { mode: 0o700 });
      chownSync(theirs, 65534, 65534);
      expect(await twoUnlocks(join(theirs, 'unlock-vault-x.json'))).toBe(2);
      expect(readdirSync(theirs)).toEqual([]);
    }
  });
});
