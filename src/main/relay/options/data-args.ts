/**
 * The arguments of `relay backup` and `relay restore`. The data folder comes from the same
 * sources as serving (`--data`, RELAY_DATA, `data` in `--config`), so one config file names it
 * for all three; `--out` and `--in` are relative to where the command was run, like `--data`.
 */
import { parseArgs } from 'node:util';
import { UsageError, nonEmptyPath } from './arg-values.js';
import { parsed } from './admin-args.js';
import type { ReadText } from './config-file.js';
import { gatherSettings } from './setting-sources.js';
import { absolutePath, type Env } from './user-directory.js';

export type DataCommand =
  | { kind: 'backup'; dataDir: string; blobDir: string | null; out: string }
  | { kind: 'restore'; dataDir: string; in: string };

/** null: `--help` was asked for. */
export function parseDataCommand(
  kind: DataCommand['kind'],
  argv: readonly string[],
  env: Env,
  io: { userDir: string; readText: ReadText },
): DataCommand | null {
  const { values } = parsed(() =>
    parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        data: { type: 'string' },
        config: { type: 'string' },
        'blob-dir': { type: 'string' },
        database: { type: 'string' },
        ...(kind === 'backup' ? { out: { type: 'string' } } : { in: { type: 'string' } }),
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.help) return null;
  const { settings } = gatherSettings({
    flags: { data: values.data, config: values.config, 'blob-dir': values['blob-dir'], database: values.database },
    env,
    userDir: io.userDir,
    readText: io.readText,
    only: ['data', 'blob-dir', 'database'],
  });
  if (settings.has('database'))
    throw new UsageError(
      `${settings.get('database')!.from}: a relay on PostgreSQL is backed up with pg_dump and its blob folder ` +
        '(docs/operations.md, Backup and restore); relay backup and restore are for SQLite',
    );
  const data = settings.get('data');
  // no default folder: restoring or backing up the wrong one by omission helps nobody
  if (!data) throw new UsageError(`${kind} needs --data <dir> (or RELAY_DATA, or data in --config)`);
  const dataDir = absolutePath(data.base, nonEmptyPath(data.from, data.value as string));
  const file = (flag: 'out' | 'in'): string => {
    const v = (values as Record<string, string | undefined>)[flag];
    if (v === undefined) throw new UsageError(`${kind} needs --${flag} <file>`);
    return absolutePath(io.userDir, nonEmptyPath(`--${flag}`, v));
  };
  if (kind === 'restore') return { kind, dataDir, in: file('in') };
  const blob = settings.get('blob-dir');
  return {
    kind,
    dataDir,
    blobDir: blob ? absolutePath(blob.base, nonEmptyPath(blob.from, blob.value as string)) : null,
    out: file('out'),
  };
}
