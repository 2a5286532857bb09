/**
 * Argument parsing for the headless relay (`npm run relay -- ...`): which mode, and its options
 * from flags, environment variables and the config file (options/). No I/O but reading the
 * config file, so the forms other tools rely on are checked in one place and fail before
 * anything is opened.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseAdmin, parsed, type AdminOptions } from './options/admin-args.js';
import { parseDataCommand, type DataCommand } from './options/data-args.js';
import type { ReadText } from './options/config-file.js';
import { serveArgOptions } from './options/serve-flags.js';
import { serveOptions, type ServeOptions } from './options/serve-options.js';
import { gatherSettings, type FlagValues } from './options/setting-sources.js';
import { userDirectory, type Env } from './options/user-directory.js';

export {
  DEFAULT_DATA_DIR,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_STAKE_CONFIRMATIONS,
  LAN_HOST,
  UsageError,
  isAddress,
} from './options/arg-values.js';
export { USAGE } from './options/usage.js';
export type { AdminCommand, AdminOptions } from './options/admin-args.js';
export type { DataCommand } from './options/data-args.js';
export type { LogFormat, LogLevel, ServeOptions } from './options/serve-options.js';

export type Invocation =
  | { mode: 'help'; topic: 'serve' | 'admin' | 'backup' | 'restore' }
  | { mode: 'serve'; options: ServeOptions }
  | { mode: 'data'; command: DataCommand }
  | { mode: 'admin'; options: AdminOptions };

export interface ParseIo {
  /** the process's working folder (default process.cwd()) */
  cwd?: string;
  /** reads the config file (default: from disk) */
  readText?: ReadText;
}

const readFromDisk: ReadText = (path) => readFileSync(path, 'utf8');

/**
 * Splits off the `admin` subcommand; an optional leading `serve` is accepted for symmetry.
 * `env` supplies the RELAY_* variables (none by default) and, with INIT_CWD, where relative
 * paths start.
 */
export function parseInvocation(argv: readonly string[], env: Env = {}, io: ParseIo = {}): Invocation {
  const userDir = userDirectory(env, io.cwd ?? process.cwd());
  const readText = io.readText ?? readFromDisk;
  if (argv[0] === 'admin') {
    const options = parseAdmin(argv.slice(1), env, { userDir, readText });
    return options ? { mode: 'admin', options } : { mode: 'help', topic: 'admin' };
  }
  if (argv[0] === 'backup' || argv[0] === 'restore') {
    const command = parseDataCommand(argv[0], argv.slice(1), env, { userDir, readText });
    return command ? { mode: 'data', command } : { mode: 'help', topic: argv[0] };
  }
  const options = parseServe(argv[0] === 'serve' ? argv.slice(1) : argv, env, userDir, readText);
  return options ? { mode: 'serve', options } : { mode: 'help', topic: 'serve' };
}

/** The serve options from all their sources; null when `--help` was asked for. */
export function parseServe(
  argv: readonly string[],
  env: Env,
  userDir: string,
  readText: ReadText,
): ServeOptions | null {
  const { values } = parsed(() =>
    parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: serveArgOptions() }),
  );
  if (values.help) return null;
  const { settings, configFile } = gatherSettings({ flags: values as FlagValues, env, userDir, readText });
  return serveOptions(settings, userDir, configFile);
}
