import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, openSync, readFileSync, renameSync, rmSync, writeSync, closeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { VaultCodec } from './secret-codec.js';
import { checkPrivateFolder, ensurePrivateFolder, sweepExpiredTickets, ticketFolder } from './ticket-folder.js';

/**
 * A remembered unlock for the command-line client, like sudo's timestamp: each command is a new
 * process, and scrypt (the point of the passphrase) costs ~0.5 s per unlock. After a full unlock
 * the vault's data key (and, beside it, the client's sealed API key) is written to a ticket, AES-256-GCM under a key derived with HKDF from the
 * same passphrase, bound to the wrapped key in vault.json and to an expiry. Within the expiry an
 * unlock with the same passphrase reads the ticket instead of running scrypt (and pushes the
 * expiry on); a wrong passphrase, an expired ticket or a re-keyed vault fall back to scrypt.
 *
 * The ticket lives only in a private runtime folder (ticket-folder.ts: $XDG_RUNTIME_DIR, else a
 * 0700 folder of ours in the temporary folder), never in the profile folder, whose copies reach
 * backups; the file is 0600. An expired ticket is deleted when it is read, and expired tickets
 * of any profile whenever a ticket is written. It never leaves the vault worker's process: the
 * codec runs where the data key is used. What it gives away to someone who can read it within
 * its life: a fast (HKDF, not scrypt) check of passphrase guesses. `lock` and `--unlock-ttl 0`
 * delete it.
 */

interface Ticket {
  v: 1;
  /** sha256 of the wrapped key it unlocks: a new vault or passphrase makes old tickets useless */
  binding: string;
  expiresAt: number;
  salt: string;
  nonce: string;
  ct: string;
}

const INFO = 'relay-unlock-ticket-v1';

/** What a ticket unwraps: the vault's data key, or the relay API key the client keeps sealed beside it. */
export type TicketKind = 'vault' | 'api-key';

export function ticketPath(profileDir: string, kind: TicketKind, env: NodeJS.ProcessEnv = process.env): string {
  const profile = createHash('sha256').update(resolve(profileDir)).digest('hex').slice(0, 24);
  return join(ticketFolder(env), `unlock-${kind}-${profile}.json`);
}

export function forgetTicket(path: string): void {
  rmSync(path, { force: true });
}

/** Deletes the tickets that earlier versions kept in the profile folder itself. */
export function forgetProfileFolderTickets(profileDir: string): void {
  for (const kind of ['vault', 'api-key'] satisfies TicketKind[]) forgetTicket(join(profileDir, `unlock-${kind}.json`));
}

function ticketKey(passphrase: string, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(passphrase.normalize('NFC'), 'utf8'), salt, INFO, 32));
}

function aad(t: Pick<Ticket, 'binding' | 'expiresAt'>): Buffer {
  return Buffer.from(`${INFO}|${t.binding}|${t.expiresAt}`);
}

function bindingOf(sealed: Buffer): string {
  return createHash('sha256').update(sealed).digest('hex');
}

function readTicket(path: string, sealed: Buffer, passphrase: string, now: number): Buffer | null {
  let t: Ticket;
  try {
    checkPrivateFolder(dirname(path));
    t = JSON.parse(readFileSync(path, 'utf8')) as Ticket;
  } catch {
    return null;
  }
  if (
    t?.v !== 1 ||
    typeof t.binding !== 'string' ||
    typeof t.expiresAt !== 'number' ||
    typeof t.salt !== 'string' ||
    typeof t.nonce !== 'string' ||
    typeof t.ct !== 'string'
  )
    return null;
  if (t.expiresAt <= now) {
    forgetTicket(path);
    return null;
  }
  if (t.binding !== bindingOf(sealed)) return null;
  const ct = Buffer.from(t.ct, 'base64');
  if (ct.length < 16) return null;
  const key = ticketKey(passphrase, Buffer.from(t.salt, 'base64'));
  try {
    const d = createDecipheriv('aes-256-gcm', key, Buffer.from(t.nonce, 'base64'));
    d.setAAD(aad(t));
    d.setAuthTag(ct.subarray(ct.length - 16));
    return Buffer.concat([d.update(ct.subarray(0, ct.length - 16)), d.final()]);
  } catch {
    return null; // another passphrase: the full unlock decides
  } finally {
    key.fill(0);
  }
}

function writeTicket(
  path: string,
  sealed: Buffer,
  dataKey: Buffer,
  passphrase: string,
  expiresAt: number,
  now: number,
): void {
  const dir = dirname(path);
  ensurePrivateFolder(dir);
  sweepExpiredTickets(dir, now);
  const salt = randomBytes(16);
  const nonce = randomBytes(12);
  const key = ticketKey(passphrase, salt);
  const binding = bindingOf(sealed);
  const c = createCipheriv('aes-256-gcm', key, nonce);
  c.setAAD(aad({ binding, expiresAt }));
  const ct = Buffer.concat([c.update(dataKey), c.final(), c.getAuthTag()]);
  key.fill(0);
  const ticket: Ticket = {
    v: 1,
    binding,
    expiresAt,
    salt: salt.toString('base64'),
    nonce: nonce.toString('base64'),
    ct: ct.toString('base64'),
  };
  const tmp = `${path}.${process.pid}.tmp`;
  // created anew (never through a link left under that name) and 0600 from the start, so the
  // key is never readable by others, even briefly
  rmSync(tmp, { force: true });
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, JSON.stringify(ticket));
  } finally {
    closeSync(fd);
  }
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/** Wraps a passphrase codec: unwraps from a live ticket when it can, and leaves one behind. */
export function ticketingCodec(
  inner: VaultCodec,
  opts: { passphrase: string; path: string; ttlMs: number; now?: () => number },
): VaultCodec {
  const now = opts.now ?? Date.now;
  const remember = (sealed: Buffer, dataKey: Buffer) => {
    try {
      const at = now();
      writeTicket(opts.path, sealed, dataKey, opts.passphrase, at + opts.ttlMs, at);
    } catch {
      // no ticket only means the next command runs scrypt again
    }
  };
  return {
    async encrypt(plain) {
      const sealed = await inner.encrypt(plain);
      remember(sealed, plain);
      return sealed;
    },
    async decrypt(sealed) {
      const remembered = readTicket(opts.path, sealed, opts.passphrase, now());
      const dataKey = remembered ?? (await inner.decrypt(sealed));
      remember(sealed, dataKey);
      return dataKey;
    },
  };
}
