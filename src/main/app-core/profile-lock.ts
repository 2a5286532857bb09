/**
 * One running app per data folder: two processes on one vault and one client database would
 * race each other's sync and outbox. The lock file names the owner's pid; a lock whose owner
 * is gone is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class ProfileInUseError extends Error {
  readonly code = 'profile-in-use';
  constructor(readonly pid: number) {
    super(`This profile is already open in another window of the app (process ${pid}).`);
    this.name = 'ProfileInUseError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockProfile(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, 'app.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw new ProfileInUseError(pid);
      rmSync(path, { force: true });
    }
  }
  throw new Error('could not take the profile lock');
}
