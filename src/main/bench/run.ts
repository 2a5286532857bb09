/**
 * `npm run bench [-- --only relay,crypto] [--quick] [--json out.json]`: runs the bench
 * sections in turn and prints their figures as JSON and as a table, with targets and
 * pass/fail. A section is a name and a function returning figures; sections written by
 * others are loaded only when their module exists, so the harness runs at every stage.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { benchRelay } from './relay/relay-bench.js';
import { figure, table, type Figure, type Target } from './report.js';

export interface BenchContext {
  quick: boolean;
  log: (line: string) => void;
}

export interface BenchSection {
  name: string;
  /** null when the section's module is not there yet */
  load(): Promise<((ctx: BenchContext) => Promise<Figure[]>) | null>;
}

export const SECTIONS: BenchSection[] = [
  { name: 'relay', load: async () => (ctx) => benchRelay({ quick: ctx.quick, log: ctx.log }) },
  {
    name: 'live',
    load: () =>
      optionalSection('live', './live/live-bench.ts', 'benchLive', {
        options: (ctx) => ({ quick: ctx.quick, log: ctx.log }),
      }),
  },
  {
    name: 'live-scale',
    load: async () => {
      const { benchLiveScale } = await import('./live/live-scale-bench.js');
      return (ctx) => benchLiveScale({ quick: ctx.quick, log: ctx.log });
    },
  },
  {
    name: 'cluster',
    // needs PostgreSQL's server programs (it makes a throw-away cluster); skipped without them
    load: async () => {
      const { pgMissing } = await import('../test-support/pg-cluster.js');
      if (pgMissing()) return null;
      const { benchCluster } = await import('./relay/cluster-bench.js');
      return (ctx) => benchCluster({ quick: ctx.quick, log: ctx.log });
    },
  },
  {
    name: 'cluster-live',
    // the live-scale figures on two relay nodes of one PostgreSQL; skipped without its server programs
    load: async () => {
      const { pgMissing } = await import('../test-support/pg-cluster.js');
      if (pgMissing()) return null;
      const { benchLiveScale } = await import('./live/live-scale-bench.js');
      return (ctx) => benchLiveScale({ quick: ctx.quick, log: ctx.log, nodes: 2 });
    },
  },
  {
    name: 'blobs',
    load: () =>
      optionalSection('blobs', './relay/blob-bench.ts', 'benchBlobs', {
        options: (ctx) => ({ quick: ctx.quick, log: ctx.log }),
      }),
  },
  {
    name: 'crypto',
    load: () =>
      optionalSection('crypto', './client/crypto-bench.ts', 'benchCrypto', {
        options: (ctx) => (ctx.quick ? { durationMs: 100, rounds: 1 } : {}),
        targets: { seal_fast_vs_native: { op: '>=', value: 0.8 } },
        // pass/fail is derived from the target above
        drop: ['seal_fast_meets_target'],
      }),
  },
  {
    name: 'client',
    load: () =>
      optionalSection('client', './client/client-bench.ts', 'benchClient', {
        options: (ctx) => ({ quick: ctx.quick, log: ctx.log }),
        targets: { group_send_200_copies_ms: { op: '<=', value: 150 }, group_send_cold_ms: { op: '<=', value: 150 } },
      }),
  },
  {
    name: 'search',
    load: () =>
      optionalSection('search', './client/search-bench.ts', 'benchSearch', {
        options: (ctx) => ({ quick: ctx.quick, log: ctx.log }),
        targets: { search_p95_ms: { op: '<=', value: 30 }, search_loop_max_ms: { op: '<=', value: 50 } },
      }),
  },
  {
    name: 'dbcrypt',
    // needs the SQLite with encryption (better-sqlite3-multiple-ciphers); without it the section fails saying so
    load: () =>
      optionalSection('dbcrypt', './client/dbcrypt-bench.ts', 'benchDbcrypt', {
        options: (ctx) => ({ quick: ctx.quick, log: ctx.log }),
      }),
  },
  {
    name: 'ui',
    load: () =>
      optionalSection('ui', './ui/ui-bench.ts', 'benchUi', {
        targets: { ui_cold_start_ms: { op: '<=', value: 1500 }, ui_open_10k_ms: { op: '<=', value: 200 } },
      }),
  },
  {
    name: 'delivery',
    load: () =>
      optionalSection('delivery', './ui/ui-delivery-bench.ts', 'benchUiDelivery', {
        options: (ctx) => ({ quick: ctx.quick, log: ctx.log }),
        targets: { ui_delivery_p50_ms: { op: '<=', value: 100 } },
      }),
  },
  {
    name: 'backup',
    // BACKUP_BENCH_MESSAGES=2000 tries it quickly; the figure is for 100,000
    load: () =>
      optionalSection('backup', './client/backup-bench.ts', 'benchBackup', {
        options: (ctx) => ({ quick: ctx.quick, log: ctx.log }),
        // no main-process stall over 50 ms; the `old` figures are the same run's baseline
        targets: Object.fromEntries(
          ['backup', 'restore', 'import'].map((op) => [`${op}_worker_loop_max_ms`, { op: '<=' as const, value: 50 }]),
        ),
      }),
  },
  {
    name: 'cli',
    load: () =>
      optionalSection('cli', './client/cli-bench.ts', 'benchCli', {
        options: (ctx) => ({ quick: ctx.quick, log: ctx.log }),
        targets: {
          cli_whoami_ms: { op: '<=', value: 500 },
          cli_send_ms: { op: '<=', value: 500 },
          cli_init_ms: { op: '<=', value: 2000 },
        },
      }),
  },
];

interface Adapter {
  /** the options object handed to the section's function */
  options?: (ctx: BenchContext) => unknown;
  targets?: Record<string, Target>;
  drop?: string[];
}

/** Imports `exportName` from a module of the bench if it exists; its result is adapted to figures. */
async function optionalSection(
  name: string,
  file: string,
  exportName: string,
  adapter: Adapter = {},
): Promise<((ctx: BenchContext) => Promise<Figure[]>) | null> {
  const path = fileURLToPath(new URL(file, import.meta.url));
  if (!existsSync(path)) return null;
  const mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  const fn = mod[exportName];
  if (typeof fn !== 'function') throw new Error(`${file} does not export ${exportName}()`);
  return async (ctx) => {
    const result = await (fn as (o: unknown) => Promise<unknown>)(adapter.options?.(ctx) ?? {});
    return asFigures(name, result, adapter);
  };
}

/** Units read from a flat key's suffix, as the sections name them (`seal_fast_ops_s`, `seal_fast_vs_native`). */
function unitOf(key: string): string {
  if (/_ops_s$/.test(key)) return 'ops/s';
  if (/_vs_/.test(key)) return '×';
  if (/_ms$/.test(key)) return 'ms';
  if (/_bytes$/.test(key)) return 'B';
  if (/_mb$/.test(key)) return 'MiB';
  return '';
}

/** Accepts Figure[] as is, or any object of numbers (nested objects give dotted keys). */
export function asFigures(section: string, result: unknown, adapter: Adapter = {}): Figure[] {
  if (Array.isArray(result) && result.every((r) => r && typeof r === 'object' && 'value' in r)) {
    return result.map((r: Partial<Figure> & { value: number; name?: string }) => ({
      ...r,
      section: r.section ?? section,
      key: r.key ?? `${section}.${r.name ?? r.label ?? 'value'}`,
      label: r.label ?? r.name ?? r.key ?? 'value',
      unit: r.unit ?? '',
      value: r.value,
    }));
  }
  const out: Figure[] = [];
  const walk = (v: unknown, path: string[]) => {
    const key = path.join('.');
    if (adapter.drop?.includes(key)) return;
    if (typeof v === 'number')
      out.push(figure(section, key, path.join(' '), v, unitOf(key), { target: adapter.targets?.[key] }));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(result, []);
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      quick: { type: 'boolean' },
      json: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(
      `Usage: npm run bench -- [--only ${SECTIONS.map((s) => s.name).join(',')}] [--quick] [--json <file>]\n` +
        '  --only   comma-separated sections to run (default: all that exist)\n' +
        '  --quick  short smoke run of the harness; its figures are not comparable\n' +
        '  --json   also write the figures to a file\n',
    );
    return;
  }
  const wanted = values.only
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = wanted?.filter((w) => !SECTIONS.some((s) => s.name === w)) ?? [];
  if (unknown.length > 0) {
    process.stderr.write(
      `bench: unknown section(s) ${unknown.join(', ')}; known: ${SECTIONS.map((s) => s.name).join(', ')}\n`,
    );
    process.exit(2);
  }
  const ctx: BenchContext = { quick: values.quick ?? false, log: (l) => process.stderr.write(`  ${l}\n`) };
  // the built code the sections run (`npm run relay`, `web`, `client`), rebuilt first if stale, so no figure includes a build
  const build = spawnSync(
    process.execPath,
    [fileURLToPath(new URL('../../../.config/build-node.mjs', import.meta.url))],
    { stdio: 'inherit' },
  );
  if (build.status !== 0) throw new Error('bench: the build failed');
  const figures: Figure[] = [];
  const skipped: string[] = [];
  const failed: { section: string; error: string }[] = [];
  for (const section of SECTIONS) {
    if (wanted && !wanted.includes(section.name)) continue;
    const run = await section.load();
    if (!run) {
      skipped.push(section.name);
      if (wanted) process.stderr.write(`bench: section ${section.name} is not available yet\n`);
      continue;
    }
    process.stderr.write(`bench: ${section.name}\n`);
    try {
      figures.push(...(await run(ctx)));
    } catch (err) {
      failed.push({ section: section.name, error: (err as Error).stack ?? String(err) });
      process.stderr.write(`bench: section ${section.name} failed: ${(err as Error).stack ?? String(err)}\n`);
    }
  }
  const report = {
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      platform: process.platform,
    },
    at: new Date().toISOString(),
    quick: ctx.quick,
    figures,
    skipped,
    failed,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n\n${table(figures)}\n`);
  const misses = figures.filter((f) => f.pass === false);
  process.stdout.write(
    `\n${figures.filter((f) => f.pass).length} targets met, ${misses.length} missed${skipped.length ? `; not available: ${skipped.join(', ')}` : ''}\n`,
  );
  if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  if (failed.length > 0) process.exitCode = 1;
}

// only as the entry point: importing SECTIONS (e.g. to extend them) must not start a run
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) await main();
