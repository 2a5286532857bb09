import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The folder boundaries of docs/architecture.md, read from the import statements of every source file:
 * what each runtime zone may import, where SQL may live, and that nothing a test loads reaches
 * `electron`.
 */
const SRC = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(SRC, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

const files = sourceFiles(SRC);
const rel = (f: string) => relative(ROOT, f).split('\\').join('/');
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[^\w.])import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);
}

function resolveLocal(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const candidate of [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    base,
    base + '.ts',
    base + '.tsx',
    join(base, 'index.ts'),
  ]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      /* try the next */
    }
  }
  return null;
}

const zone = (f: string) =>
  rel(f)
    .split('/')
    .slice(0, rel(f).startsWith('src/main/') ? 3 : 2)
    .join('/');

function violations(
  filter: (f: string) => boolean,
  forbidden: (spec: string, target: string | null, f: string) => string | null,
): string[] {
  const out: string[] = [];
  for (const f of files.filter(filter)) {
    for (const spec of importsOf(f)) {
      const why = forbidden(spec, resolveLocal(f, spec), f);
      if (why) out.push(`${rel(f)} imports ${spec}: ${why}`);
    }
  }
  return out;
}

const isNodeBuiltin = (spec: string) =>
  spec.startsWith('node:') ||
  ['fs', 'path', 'crypto', 'os', 'child_process', 'worker_threads', 'http', 'https', 'net', 'url'].includes(spec);

// ---- rules as pure functions, so that a test can show each one failing on a made-up tree ----

/** Source files over `max` lines; a generated file says so in its first 5 lines and is exempt. */
export function oversized(sources: ReadonlyArray<{ path: string; text: string }>, max = 500): string[] {
  return sources
    .filter(({ text }) => !/generated/i.test(text.split('\n').slice(0, 5).join('\n')))
    .map(({ path, text }) => ({ path, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) }))
    .filter(({ lines }) => lines > max)
    .map(({ path, lines }) => `${path}: ${lines} lines (at most ${max}; split it, or mark it generated)`);
}

/** Imports (from → resolved target, both repository paths) that break a room rule of the client and the bench. */
export function roomViolations(edges: ReadonlyArray<{ from: string; to: string }>): string[] {
  const out: string[] = [];
  for (const { from, to } of edges) {
    const test = from.includes('/test/') || from.endsWith('.test.ts');
    if (
      !test &&
      from.startsWith('src/main/client/') &&
      !from.startsWith('src/main/client/cli/') &&
      to.startsWith('src/main/client/cli/')
    ) {
      out.push(`${from} imports ${to}: the client's rooms are used by the CLI, never the other way round`);
    }
    if (from.startsWith('src/main/bench/') && (to.includes('/test/') || to.endsWith('.test.ts'))) {
      out.push(`${from} imports ${to}: the bench takes shared tooling from test-support, not from a test folder`);
    }
  }
  return out;
}

function importEdges(): Array<{ from: string; to: string }> {
  return files.flatMap((f) =>
    importsOf(f)
      .map((spec) => resolveLocal(f, spec))
      .filter((t): t is string => t !== null)
      .map((t) => ({ from: rel(f), to: rel(t) })),
  );
}

/** The outermost object literals an expression evaluates to (through parentheses and `a ? b : c`). */
function literalsOf(e: ts.Expression): ts.ObjectLiteralExpression[] {
  if (ts.isParenthesizedExpression(e)) return literalsOf(e.expression);
  if (ts.isConditionalExpression(e)) return [...literalsOf(e.whenTrue), ...literalsOf(e.whenFalse)];
  return ts.isObjectLiteralExpression(e) ? [e] : [];
}

/** The state keys one `set(...)` writes: its object, or what its updater returns. */
function keysSet(arg: ts.Expression | undefined): string[] {
  if (!arg) return [];
  const objects: ts.ObjectLiteralExpression[] = [];
  if (ts.isArrowFunction(arg) || ts.isFunctionExpression(arg)) {
    if (!ts.isBlock(arg.body)) objects.push(...literalsOf(arg.body));
    else {
      const returns = (n: ts.Node): void => {
        if (ts.isReturnStatement(n) && n.expression) objects.push(...literalsOf(n.expression));
        else if (!ts.isFunctionLike(n)) ts.forEachChild(n, returns);
      };
      ts.forEachChild(arg.body, returns);
    }
  } else objects.push(...literalsOf(arg));
  return objects.flatMap((o) =>
    o.properties.flatMap((p) =>
      p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? [p.name.text] : [],
    ),
  );
}

/**
 * Store slices whose `set(...)` writes a key their own `…Slice` interface does not declare: a
 * slice changes another's state only through that slice's actions.
 */
export function foreignSliceWrites(sources: ReadonlyArray<{ path: string; text: string }>): string[] {
  const out: string[] = [];
  for (const { path, text } of sources) {
    const own = new Set<string>();
    const sets: ts.CallExpression[] = [];
    const visit = (n: ts.Node): void => {
      if (ts.isInterfaceDeclaration(n) && n.name.text.endsWith('Slice')) {
        for (const m of n.members) if (m.name && ts.isIdentifier(m.name)) own.add(m.name.text);
      }
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'set') sets.push(n);
      ts.forEachChild(n, visit);
    };
    visit(ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true));
    for (const call of sets) {
      for (const key of keysSet(call.arguments[0])) {
        if (!own.has(key))
          out.push(
            `${path}: set(...) writes \`${key}\`, which its slice does not declare; call the owning slice's action`,
          );
      }
    }
  }
  return out;
}

describe('architecture', () => {
  it('finds the source tree', () => {
    expect(files.some((f) => rel(f) === 'src/main/relay/app.ts')).toBe(true);
    expect(files.length).toBeGreaterThan(30);
  });

  it('no source file is over 500 lines (generated files say so in their first 5 lines)', () => {
    expect(oversized(files.map((f) => ({ path: rel(f), text: readFileSync(f, 'utf8') })))).toEqual([]);
  });

  it('the size rule fails on a long file and lets a marked generated one pass', () => {
    const long = Array.from({ length: 501 }, (_, i) => `const a${i} = ${i};`).join('\n') + '\n';
    expect(oversized([{ path: 'src/x.ts', text: long }])).toEqual([
      'src/x.ts: 501 lines (at most 500; split it, or mark it generated)',
    ]);
    expect(oversized([{ path: 'src/x.ts', text: `// generated by npm run contracts: do not edit\n${long}` }])).toEqual(
      [],
    );
    expect(oversized([{ path: 'src/x.ts', text: long.split('\n').slice(1).join('\n') }])).toEqual([]);
  });

  it("the client's core never imports the CLI, and the bench imports no test folder", () => {
    expect(roomViolations(importEdges())).toEqual([]);
  });

  it('the room rules fail on a core module importing the CLI and on the bench importing a test folder', () => {
    expect(
      roomViolations([{ from: 'src/main/client/core/messenger.ts', to: 'src/main/client/cli/cli-support.ts' }]),
    ).toHaveLength(1);
    expect(
      roomViolations([{ from: 'src/main/bench/relay/cluster-bench.ts', to: 'src/main/relay/store/test/backends.ts' }]),
    ).toHaveLength(1);
    // the CLI may use the core, tests may use the CLI, and the bench may use test-support
    expect(
      roomViolations([
        { from: 'src/main/client/cli/cli.ts', to: 'src/main/client/core/messenger.ts' },
        { from: 'src/main/client/cli/test/cli.test.ts', to: 'src/main/client/cli/cli-support.ts' },
        { from: 'src/main/client/backup/test/backup-cli.test.ts', to: 'src/main/client/cli/backup-cli.ts' },
        { from: 'src/main/bench/relay/cluster-bench.ts', to: 'src/main/test-support/pg-cluster.ts' },
      ]),
    ).toEqual([]);
  });

  it('src/shared is pure: no node:, electron, DOM or main-side imports', () => {
    expect(
      violations(
        (f) => rel(f).startsWith('src/shared/'),
        (spec, target) => {
          if (isNodeBuiltin(spec) || spec === 'electron') return 'shared code runs everywhere';
          if (target && !rel(target).startsWith('src/shared/')) return 'shared may only import shared';
          if (!spec.startsWith('.') && !['typebox'].includes(spec.split('/')[0])) return 'only typebox outside shared';
          return null;
        },
      ),
    ).toEqual([]);
  });

  it('relay, vault and client never import electron, and keep to their own layers', () => {
    const allowed: Record<string, string[]> = {
      // the escrow contract's generated artifact (npm run contracts) is for the relay and the client, not the renderer
      'src/main/relay': ['src/main/relay', 'src/main/sqlite', 'src/main/contracts', 'src/shared'],
      'src/main/vault': ['src/main/vault', 'src/main/threads', 'src/shared'],
      'src/main/client': [
        'src/main/client',
        'src/main/vault',
        'src/main/sqlite',
        'src/main/contracts',
        'src/main/threads',
        'src/shared',
      ],
      'src/main/contracts': ['src/main/contracts'],
      // one way to open and migrate a SQLite file, for relay and client alike
      'src/main/sqlite': ['src/main/sqlite'],
      // one way to start a worker thread, from source or built, for the vault and the client's store
      'src/main/threads': ['src/main/threads'],
    };
    expect(
      violations(
        (f) => Object.keys(allowed).includes(zone(f)),
        (spec, target, f) => {
          if (spec === 'electron' || spec.startsWith('electron/')) return 'no electron outside the shell';
          if (target) {
            const z = zone(f);
            if (!allowed[z].some((ok) => rel(target).startsWith(ok + '/'))) {
              // tests may start a real relay (and a local chain) to talk to, with the shared test tooling
              if (rel(f).includes('/test/') && /^src\/main\/(relay|test-support|devchain)\//.test(rel(target)))
                return null;
              return `${z} may import only ${allowed[z].join(', ')}`;
            }
          }
          return null;
        },
      ),
    ).toEqual([]);
  });

  it('the command layer is shared by the Electron doorway and web mode: it imports only shared code', () => {
    expect(
      violations(
        (f) => zone(f) === 'src/main/commands' && !rel(f).includes('/test/'),
        (spec, target) => {
          if (spec === 'electron' || spec.startsWith('electron/'))
            return 'web mode and the CLI use it without Electron';
          if (target && !/^src\/(main\/commands|shared)\//.test(rel(target)))
            return 'commands may import only commands and shared';
          return null;
        },
      ),
    ).toEqual([]);
  });

  it('ipc/ holds only the Electron doorway', () => {
    expect(files.filter((f) => zone(f) === 'src/main/ipc').map(rel)).toEqual(['src/main/ipc/doorway.ts']);
  });

  it('test tooling lives in test-support, which only tests and the bench import', () => {
    const importers = violations(
      (f) =>
        !rel(f).includes('/test/') &&
        !f.endsWith('.test.ts') &&
        !['src/main/bench', 'src/main/test-support'].includes(zone(f)),
      (_spec, target) =>
        target && rel(target).startsWith('src/main/test-support/') ? 'test tooling is not product code' : null,
    );
    expect(importers).toEqual([]);
    // the rule is about something: tests and the bench do use the tooling
    const users = importEdges().filter(({ to }) => to.startsWith('src/main/test-support/'));
    expect(users.some(({ from }) => from.includes('/test/'))).toBe(true);
    expect(users.some(({ from }) => from.startsWith('src/main/bench/'))).toBe(true);
    expect(
      violations(
        (f) => zone(f) === 'src/main/test-support',
        (spec) => (spec === 'electron' ? 'runs under plain Node' : null),
      ),
    ).toEqual([]);
  });

  it('the bench is a runner: nothing imports from it, tests included (shared tooling is in test-support)', () => {
    expect(
      violations(
        (f) => zone(f) !== 'src/main/bench',
        (_spec, target) => (target && zone(target) === 'src/main/bench' ? 'bench code is not a library' : null),
      ),
    ).toEqual([]);
  });

  it('relay routes register routes: the wire shapes they answer with are presented in http/present.ts', () => {
    expect(files.map(rel)).toContain('src/main/relay/http/present.ts');
    const presenters = files
      .filter(
        (f) =>
          rel(f).startsWith('src/main/relay/') &&
          rel(f) !== 'src/main/relay/http/present.ts' &&
          !rel(f).includes('/test/'),
      )
      .filter((f) => /^(export )?function present[A-Z]/m.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(presenters).toEqual([]);
  });

  it('the relay keeps caches of what it stores beside the store, in store/', () => {
    const caches = files
      .filter((f) => rel(f).startsWith('src/main/relay/') && !rel(f).includes('/test/'))
      .filter((f) => /cache[^/]*\.ts$/.test(f) || /^export class \w*Cache\b/m.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(caches).toContain('src/main/relay/store/credential-cache.ts');
    expect(caches.filter((f) => !f.startsWith('src/main/relay/store/'))).toEqual([]);
  });

  it('each renderer screen and component file exports the one component it is named for', () => {
    // badges.tsx holds the three one-line badges together
    const SEVERAL = ['src/renderer/components/badges.tsx'];
    const pascal = (file: string) =>
      file
        .replace(/\.tsx$/, '')
        .split('-')
        .map((w) => w[0].toUpperCase() + w.slice(1))
        .join('');
    const wrong = files
      .filter((f) => /^src\/renderer\/(screens|components)\/[^/]+\.tsx$/.test(rel(f)) && !SEVERAL.includes(rel(f)))
      .map((f) => ({
        file: rel(f),
        components: [...readFileSync(f, 'utf8').matchAll(/^export (?:function|const) ([A-Z]\w*)/gm)].map((m) => m[1]),
      }))
      .filter(({ file, components }) => components.join() !== pascal(file.split('/').pop()!));
    expect(wrong).toEqual([]);
  });

  it('each renderer store slice sets only the state its own interface declares', () => {
    const slices = files.filter((f) => /^src\/renderer\/store\/[^/]+-slice\.ts$/.test(rel(f)));
    expect(slices.length).toBeGreaterThan(10);
    expect(foreignSliceWrites(slices.map((f) => ({ path: rel(f), text: readFileSync(f, 'utf8') })))).toEqual([]);
  });

  it("the slice rule fails on a slice setting another slice's key, directly or in an updater's return", () => {
    const text = `
      export interface StakesSlice { stakes: number[]; markSpam: (a: string) => void }
      export const create = (set) => ({
        stakes: [],
        markSpam: (a) => {
          set({ stakes: [] });
          set((s) => ({ requests: s.requests.filter((r) => r !== a) }));
          set((s) => { if (!s.stakes) return {}; return { view: 'chats' }; });
        },
      });`;
    expect(foreignSliceWrites([{ path: 'src/renderer/store/stakes-slice.ts', text }])).toEqual([
      "src/renderer/store/stakes-slice.ts: set(...) writes `requests`, which its slice does not declare; call the owning slice's action",
      "src/renderer/store/stakes-slice.ts: set(...) writes `view`, which its slice does not declare; call the owning slice's action",
    ]);
  });

  it('the app core, web mode and the bench run under plain Node: no electron', () => {
    expect(
      violations(
        (f) => ['src/main/app-core', 'src/main/web', 'src/main/bench', 'src/main/commands'].includes(zone(f)),
        (spec) =>
          spec === 'electron' || spec.startsWith('electron/')
            ? 'these run without Electron (web mode, tests, bench)'
            : null,
      ),
    ).toEqual([]);
  });

  it('the renderer does no crypto, touches no Node or main-side code, and only bridge.ts touches the bridge', () => {
    expect(
      violations(
        (f) => rel(f).startsWith('src/renderer/'),
        (spec, target) => {
          if (isNodeBuiltin(spec) || spec === 'electron') return 'the renderer is a web page';
          if (/^(@noble|@scure|viem|better-sqlite3)/.test(spec)) return 'no keys or crypto in the renderer';
          if (target && !rel(target).startsWith('src/renderer/') && !rel(target).startsWith('src/shared/'))
            return 'renderer imports renderer and shared only';
          return null;
        },
      ),
    ).toEqual([]);
    const touching = files.filter(
      (f) => rel(f).startsWith('src/renderer/') && /window\.messenger|ipcRenderer/.test(readFileSync(f, 'utf8')),
    );
    expect(touching.map(rel).filter((f) => !f.endsWith('/bridge.ts'))).toEqual([]);
  });

  it('the page carries no typebox: what the renderer imports builds no API schemas (all of typebox would come with them)', () => {
    const seen = new Set<string>();
    const bad: string[] = [];
    const visit = (f: string, trail: string[]) => {
      if (seen.has(f)) return;
      seen.add(f);
      // type-only imports are erased: they bring nothing into the page
      for (const m of readFileSync(f, 'utf8').matchAll(IMPORT)) {
        if (/^\s*(?:import|export)\s+type\s/.test(m[0])) continue;
        const spec = m[1] ?? m[2] ?? m[3];
        if (spec === 'typebox' || spec.startsWith('typebox/')) bad.push([...trail, rel(f)].join(' → '));
        const target = resolveLocal(f, spec);
        if (target) visit(target, [...trail, rel(f)]);
      }
    };
    visit(join(SRC, 'renderer/main.tsx'), []);
    expect(seen.size).toBeGreaterThan(20);
    expect(bad).toEqual([]);
  });

  it('SQL lives only in store modules', () => {
    const sqlish = /\.prepare\(|\.exec\(\s*[`'"]|\.pragma\(/;
    const storeModule = (f: string) =>
      /(^|\/)store\/|store[^/]*\.ts$|-store\.ts$|migrations[^/]*\.ts$|^src\/main\/sqlite\//.test(f);
    const withSql = files
      .filter((f) => !rel(f).includes('/test/') && !f.endsWith('.test.ts'))
      .filter((f) => sqlish.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(withSql.filter((f) => !storeModule(f))).toEqual([]);
    // the store modules the rule lets through are where the SQL is: both stores and the opener
    for (const room of ['src/main/relay/store/sqlite/', 'src/main/client/store/', 'src/main/sqlite/'])
      expect(
        withSql.some((f) => f.startsWith(room)),
        room,
      ).toBe(true);
  });

  it('SQLite files are opened in one place: src/main/sqlite (pragmas, binding, migrations)', () => {
    const opening = files
      .filter((f) => !rel(f).includes('/test/') && !f.endsWith('.test.ts'))
      .filter((f) =>
        /new Database\(|\.transaction\([^)]*\)\.immediate\(|user_version\s*=/.test(readFileSync(f, 'utf8')),
      )
      .map(rel);
    expect(opening).toEqual(['src/main/sqlite/migrations.ts', 'src/main/sqlite/open-database.ts']);
  });

  it('nothing that a test imports reaches electron', () => {
    const tests = files.filter((f) => f.endsWith('.test.ts'));
    const seen = new Set<string>();
    const bad: string[] = [];
    const visit = (f: string, trail: string[]) => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const spec of importsOf(f)) {
        if (spec === 'electron' || spec.startsWith('electron/')) bad.push([...trail, rel(f)].join(' → '));
        const target = resolveLocal(f, spec);
        if (target) visit(target, [...trail, rel(f)]);
      }
    };
    for (const t of tests) visit(t, []);
    expect(seen.size).toBeGreaterThan(tests.length);
    expect(bad).toEqual([]);
  });
});
