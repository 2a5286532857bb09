/** Reading EXPLAIN QUERY PLAN, for the relay's and the client's query-plan tests. */
import type Database from 'better-sqlite3';

/** EXPLAIN QUERY PLAN details of one statement; every parameter is bound to a dummy value. */
export function explain(db: Database.Database, sql: string): string[] {
  const stmt = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const names = [...new Set([...sql.matchAll(/[:@$]([A-Za-z_]+)/g)].map((m) => m[1]))];
  const positional = (sql.match(/\?/g) ?? []).length;
  const rows = (
    names.length > 0
      ? stmt.all(Object.fromEntries(names.map((n) => [n, 'x'])))
      : stmt.all(...Array.from({ length: positional }, () => 'x'))
  ) as Array<{ detail: string }>;
  return rows.map((r) => r.detail);
}

/** Plan lines that read a whole table: `SCAN messages` (not `SCAN CONSTANT ROW`). */
export const fullScans = (plan: string[]): string[] => plan.filter((line) => /^SCAN (?!CONSTANT)/.test(line));
