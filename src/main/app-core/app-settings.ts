/**
 * The app's own few choices (which relay, whether to run the local one, its port), kept as
 * a small JSON file in the data folder. Messages and keys live elsewhere (client DB, vault).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface AppSettings {
  version: 1;
  relay: { mode: 'local' | 'lan' | 'url'; url: string | null; fingerprint: string | null } | null;
  localRelay: { enabled: boolean; port: number | null; lan: boolean };
}

const FILE = 'app-settings.json';

export const DEFAULT_SETTINGS: AppSettings = { version: 1, relay: null, localRelay: { enabled: true, port: null, lan: false } };

export function readSettings(dataDir: string): AppSettings {
  const path = join(dataDir, FILE);
  if (!existsSync(path)) return structuredClone(DEFAULT_SETTINGS);
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<AppSettings>;
    return {
      version: 1,
      relay: raw.relay && typeof raw.relay.mode === 'string' ? { mode: raw.relay.mode, url: raw.relay.url ?? null, fingerprint: raw.relay.fingerprint ?? null } : null,
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
