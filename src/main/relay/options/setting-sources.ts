/**
 * Gathers the serve settings from their four sources, highest first: flags, environment
 * variables, the config file, the defaults (the last applied in serve-options.ts). A setting
 * comes whole from the highest source that has it: a list flag given once replaces the file's
 * list, it does not add to it.
 */
import { UsageError, nonEmptyPath } from './arg-values.js';
import { parseConfigFile, type ReadText } from './config-file.js';
import { SERVE_SETTINGS, envName, type Setting, type SettingKind, type SettingName } from './serve-flags.js';
import { absolutePath, type Env } from './user-directory.js';

export type FlagValues = Readonly<Record<string, string | boolean | string[] | undefined>>;

export interface Sources {
  flags: FlagValues;
  env: Env;
  /** where relative paths of flags and variables start (user-directory.ts) */
  userDir: string;
  readText: ReadText;
  /** only these settings (an admin command reads where the data is, nothing else) */
  only?: readonly SettingName[];
}

export interface Gathered {
  settings: Map<SettingName, Setting>;
  /** the config file read, absolute; null without one */
  configFile: string | null;
}

export function gatherSettings(src: Sources): Gathered {
  const configFile = configPath(src);
  const fromFile = configFile ? parseConfigFile(configFile, readConfig(src.readText, configFile)) : new Map();
  const settings = new Map<SettingName, Setting>();
  for (const [name, kind] of Object.entries(SERVE_SETTINGS) as Array<[SettingName, SettingKind]>) {
    if (src.only && !src.only.includes(name)) continue;
    const flag = src.flags[name];
    if (flag !== undefined) {
      settings.set(name, { value: flag, from: `--${name}`, base: src.userDir });
      continue;
    }
    const variable = envName(name);
    const raw = src.env[variable];
    // an empty variable is an unset one (`RELAY_PORT= npm run relay`)
    if (raw !== undefined && raw.trim() !== '') {
      settings.set(name, { value: envValue(variable, kind, raw), from: variable, base: src.userDir });
      continue;
    }
    const filed = fromFile.get(name);
    if (filed) settings.set(name, filed);
  }
  return { settings, configFile };
}

function configPath(src: Sources): string | null {
  const flag = src.flags.config;
  if (typeof flag === 'string') return absolutePath(src.userDir, nonEmptyPath('--config', flag));
  const variable = src.env[envName('config')];
  if (variable !== undefined && variable.trim() !== '') return absolutePath(src.userDir, variable);
  return null;
}

function readConfig(readText: ReadText, path: string): string {
  try {
    return readText(path);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new UsageError(`--config: cannot read ${path}${e.code ? ` (${e.code})` : ''}`);
  }
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

function envValue(variable: string, kind: SettingKind, raw: string): Setting['value'] {
  if (kind === 'string') return raw;
  if (kind === 'list')
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  const word = raw.trim().toLowerCase();
  if (TRUE.has(word)) return true;
  if (FALSE.has(word)) return false;
  throw new UsageError(`${variable}: expected 1, true, yes or on (or 0, false, no, off), got ${JSON.stringify(raw)}`);
}
