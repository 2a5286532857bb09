/**
 * The relay's config file (`--config FILE`): TOML, or JSON when the name ends in `.json`, one
 * top-level key per serve flag, named as the flag without its dashes (`rate-limit = 60`). A key
 * that names no setting is refused, naming it, so a typo never silently leaves a default in force.
 */
import { basename, dirname } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { UsageError } from './arg-values.js';
import { FILE_SETTINGS, SERVE_SETTINGS, type Setting, type SettingName } from './serve-flags.js';

/** Reads the file's text; injectable so the parsing is tested without files. */
export type ReadText = (path: string) => string;

/** Parses `text` (read from the absolute `path`) into settings, or throws UsageError. */
export function parseConfigFile(path: string, text: string): Map<SettingName, Setting> {
  const name = basename(path);
  let doc: unknown;
  try {
    doc = path.toLowerCase().endsWith('.json') ? JSON.parse(text) : parseToml(text);
  } catch (err) {
    // smol-toml's message names the line and column; JSON.parse's the position
    throw new UsageError(
      `${path}: not valid ${path.toLowerCase().endsWith('.json') ? 'JSON' : 'TOML'}: ${(err as Error).message}`,
    );
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new UsageError(`${path}: expected a table of settings at the top level`);
  const settings = new Map<SettingName, Setting>();
  const allowed = new Set<string>(FILE_SETTINGS);
  for (const [key, raw] of Object.entries(doc)) {
    if (!allowed.has(key)) {
      const dashed = key.replace(/_/g, '-');
      const hint = dashed !== key && allowed.has(dashed) ? ` (did you mean ${dashed}?)` : '';
      throw new UsageError(`${path}: unknown setting ${JSON.stringify(key)}${hint}`);
    }
    const setting = key as SettingName;
    const from = `${key} in ${name}`;
    settings.set(setting, { value: fileValue(from, SERVE_SETTINGS[setting], raw), from, base: dirname(path) });
  }
  return settings;
}

function fileValue(from: string, kind: 'string' | 'boolean' | 'list', raw: unknown): Setting['value'] {
  switch (kind) {
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      throw new UsageError(`${from}: expected true or false, got ${describe(raw)}`);
    case 'list':
      if (typeof raw === 'string') return [raw];
      if (Array.isArray(raw) && raw.every((x) => typeof x === 'string')) return raw as string[];
      throw new UsageError(`${from}: expected a list of strings, got ${describe(raw)}`);
    case 'string':
      // numbers as the flag would take them, so that `port = 8787` and `port = "8787"` agree
      if (typeof raw === 'string') return raw;
      if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
      if (typeof raw === 'bigint') return raw.toString();
      throw new UsageError(`${from}: expected a string or a number, got ${describe(raw)}`);
  }
}

function describe(raw: unknown): string {
  if (Array.isArray(raw)) return 'a list';
  if (raw === null) return 'null';
  if (typeof raw === 'object') return 'a table';
  return `${typeof raw} ${JSON.stringify(raw)}`;
}
