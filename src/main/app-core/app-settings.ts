/**
 * The app's own few choices about its built-in relay (whether it may run, its port, LAN
 * sharing), kept as a small JSON file in the data folder. Which relay the profile uses is the
 * profile's, kept in its database (RelaySession); messages and keys live there and in the vault.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A relay choice as files written before it moved into the profile's database held it. */
export interface LegacyRelayChoice {
  mode: 'local' | 'lan' | 'url';
  url: string | null;
  fingerprint: string | null;
}

export interface AppSettings {
  version: 1;
  localRelay: { enabled: boolean; port: number | null; lan: boolean };
}

const FILE = 'app-settings.json';

export const DEFAULT_SETTINGS: AppSettings = { version: 1, localRelay: { enabled: true, port: null, lan: false } };

/** The relay choice an older settings file still holds (null: none), for the profile to adopt once. */
export function readLegacyRelay(dataDir: string): LegacyRelayChoice | null {
  try {
    const raw = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')) as { relay?: Partial<LegacyRelayChoice> | null };
    const r = raw.relay;
    if (!r || (r.mode !== 'local' && r.mode !== 'lan' && r.mode !== 'url')) return null;
    return {
      mode: r.mode,
      url: typeof r.url === 'string' ? r.url : null,
      fingerprint: typeof r.fingerprint === 'string' ? r.fingerprint : null,
    };
  } catch {
    return null;
  }
}

export function readSettings(dataDir: string): AppSettings {
  const path = join(dataDir, FILE);
  if (!existsSync(path)) return structuredClone(DEFAULT_SETTINGS);
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<AppSettings>;
    return {
      version: 1,
      localRelay: {
        enabled: raw.localRelay?.enabled ?? true,
        port: Number.isInteger(raw.localRelay?.port) ? raw.localRelay!.port : null,
        lan: raw.localRelay?.lan === true,
      },
    };
  } catch {
    // A damaged settings file must not keep the app from starting: fall back to defaults.
    return structuredClone(DEFAULT_SETTINGS);
  }
}

export function writeSettings(dataDir: string, settings: AppSettings): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(settings, null, 2), { mode: 0o600 });
  renameSync(tmp, path);
}
