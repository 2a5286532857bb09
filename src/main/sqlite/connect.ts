/**
 * A bare connection to one of our SQLite files, with the binding the shell names: under
 * Electron, RELAY_SQLITE_BINDING points at one built for Electron's ABI (sqlite-binding.ts).
 */
import Database from 'better-sqlite3';

export const BUSY_TIMEOUT_MS = 5000;

export function connect(file: string): Database.Database {
  const nativeBinding = process.env.RELAY_SQLITE_BINDING || undefined;
  return new Database(file, { timeout: BUSY_TIMEOUT_MS, nativeBinding });
}
