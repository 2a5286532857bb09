/**
 * better-sqlite3 is a native module: the build in node_modules matches Node's ABI (what tests
 * and web mode use), while Electron needs one built for Electron's ABI. Such a binding is
 * found at $RELAY_SQLITE_BINDING or in resources/ (packaged: process.resourcesPath), and its
 * path is handed to open-database.ts, which opens every SQLite file of the relay and the client,
 * through the same variable, which it passes to better-sqlite3's `nativeBinding` option. Without one, better-sqlite3 loads its default.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const SQLITE_BINDING_ENV = 'RELAY_SQLITE_BINDING';
const FILE = 'better_sqlite3.node';

export function findSqliteBinding(resourcesPath: string | undefined, builtDir: string): string | null {
  const candidates = [
    process.env[SQLITE_BINDING_ENV],
    resourcesPath && join(resourcesPath, FILE),
    join(builtDir, '../../resources', FILE),
  ];
  for (const c of candidates) if (c && existsSync(c)) return c;
  return null;
}

/** Sets the variable for this process and returns the env a child (the relay) should get. */
export function configureSqliteBinding(resourcesPath: string | undefined, builtDir: string): NodeJS.ProcessEnv {
  const found = findSqliteBinding(resourcesPath, builtDir);
  if (!found) return {};
  process.env[SQLITE_BINDING_ENV] = found;
  return { [SQLITE_BINDING_ENV]: found };
}
