/**
 * Where unlock tickets (unlock-ticket.ts) live: a folder that only this user can enter, and
 * never the profile folder. A ticket is keyed by a fast derivation of the passphrase, so a copy
 * that reached a disk image or a backup of the profile would let its finder test guesses far
 * faster than against the vault's scrypt. The folder is `$XDG_RUNTIME_DIR/relay-messenger` (a
 * per-user tmpfs emptied at logout) when there is one, else `relay-messenger-<uid>` in the
 * system's temporary folder (root, cron jobs and containers seldom have a runtime folder).
 *
 * The temporary folder is shared by every user, so someone else may have made our folder's
 * name first, or put a symbolic link there: a folder is used only when it is a real folder
 * (not a link), owned by us and closed to everyone else (0700). Otherwise no ticket is kept
 * and each command runs the full key derivation again.
 */
import { lstatSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function ticketFolder(env: NodeJS.ProcessEnv = process.env, tmp: string = tmpdir()): string {
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'relay-messenger');
  const uid = process.getuid?.();
  return join(tmp, uid === undefined ? 'relay-messenger' : `relay-messenger-${uid}`);
}

export class UnsafeTicketFolder extends Error {
  constructor(dir: string, why: string) {
    super(`not keeping unlock tickets in ${dir}: ${why}`);
    this.name = 'UnsafeTicketFolder';
  }
}

/**
 * Throws UnsafeTicketFolder unless `dir` is a real folder of ours that no one else may enter.
 * Windows has neither the owner nor the mode bits here; its temporary folder is the user's own.
 */
export function checkPrivateFolder(dir: string): void {
  const st = lstatSync(dir);
  if (st.isSymbolicLink()) throw new UnsafeTicketFolder(dir, 'it is a symbolic link');
  if (!st.isDirectory()) throw new UnsafeTicketFolder(dir, 'it is not a folder');
  if (process.platform === 'win32') return;
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) throw new UnsafeTicketFolder(dir, `it belongs to user ${st.uid}`);
  if ((st.mode & 0o077) !== 0)
    throw new UnsafeTicketFolder(dir, `others may enter it (mode ${(st.mode & 0o777).toString(8)})`);
}

/** Makes `dir` (0700, its parent must exist) unless it is there, then checks it as above. */
export function ensurePrivateFolder(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  checkPrivateFolder(dir);
}

/**
 * Deletes the tickets in `dir` whose expiry has passed, whichever profile they were for: a
 * ticket is otherwise deleted only when its own profile next reads it, which may be never.
 */
export function sweepExpiredTickets(dir: string, now: number): void {
  for (const name of readdirSync(dir)) {
    if (!/^unlock-.+\.json$/.test(name)) continue;
    const path = join(dir, name);
    try {
      const { expiresAt } = JSON.parse(readFileSync(path, 'utf8')) as { expiresAt?: unknown };
      if (typeof expiresAt === 'number' && expiresAt > now) continue;
    } catch {
      // unreadable or half-written: not a ticket anyone can use
    }
    rmSync(path, { force: true });
  }
}
