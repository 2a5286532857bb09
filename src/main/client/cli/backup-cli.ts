/**
 * The headless client's `backup` and `restore` (cli.ts): the file and its passphrase's
 * environment variable from the command line (--backup-passphrase-env; --passphrase-env
 * stays the profile's, as in every other command), the summary as one JSON line on stdout, and
 * progress as JSON lines on stderr (at most one per 5 %).
 */
import { UsageError, printJson } from './cli-support.js';
import type { Messenger } from '../core/messenger.js';

export async function runBackupCommand(
  m: Messenger,
  command: 'backup' | 'restore',
  args: string[],
  values: { out?: string; in?: string; 'backup-passphrase-env'?: string },
): Promise<void> {
  if (args.length > 0) throw new UsageError(`${command} takes no positional arguments (got "${args[0]}")`);
  const file = command === 'backup' ? values.out : values.in;
  if (!file) throw new UsageError(command === 'backup' ? 'backup needs --out FILE' : 'restore needs --in FILE');
  const env = values['backup-passphrase-env'];
  if (!env)
    throw new UsageError(
      `${command} needs --backup-passphrase-env VAR (the variable holding the backup file's passphrase; --passphrase-env names the profile's)`,
    );
  const passphrase = process.env[env];
  if (!passphrase) throw new UsageError(`${env} is not set: it holds the backup's passphrase`);
  let shown = -1;
  const progress = ({ done, total }: { done: number; total: number }) => {
    const pct = total > 0 ? Math.floor((100 * Math.min(done, total)) / total) : 100;
    if (pct < shown + 5 && pct !== 100) return;
    shown = pct;
    process.stderr.write(`${JSON.stringify({ progress: pct, done, total })}\n`);
  };
  if (command === 'backup') {
    printJson(await m.backups.export(file, passphrase, progress));
  } else {
    const { conversations, messages, files } = await m.backups.restore(file, passphrase, progress);
    printJson({ conversations, messages, files });
  }
}
