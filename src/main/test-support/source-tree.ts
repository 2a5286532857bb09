/**
 * The repository's sources as the architecture test reads them: every TypeScript file under a
 * folder, and the relative imports of each, resolved to files.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const SRC = join(ROOT, 'src');

/** Every .ts, .tsx and .mts file under `dir` (declaration files and node_modules left out). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** A file's path from the repository's root, with forward slashes. */
export const rel = (f: string): string => relative(ROOT, f).split('\\').join('/');

export const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[^\w.])import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

export function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/**
 * The imports that load a module when this one is evaluated. Type-only imports (`import type`,
 * or braces of `type` names only) are erased by the compiler. A dynamic `import()` loads when it
 * runs, after both modules were evaluated, so it takes no part in the order of evaluation.
 */
export function runtimeImports(text: string): string[] {
  return [...text.matchAll(IMPORT)]
    .filter((m) => m[2] === undefined)
    .filter((m) => !/^\s*(?:import|export)\s+type\s/.test(m[0]))
    .filter((m) => {
      const braces = /^\s*(?:import|export)\s*\{([^}]*)\}\s*from/.exec(m[0]);
      const names =
        braces?.[1]
          .split(',')
          .map((n) => n.trim())
          .filter(Boolean) ?? [];
      return names.length === 0 || !names.every((n) => n.startsWith('type '));
    })
    .map((m) => m[1] ?? m[3]);
}

export const runtimeImportsOf = (file: string): string[] => runtimeImports(readFileSync(file, 'utf8'));

export function resolveLocal(from: string, spec: string): string | null {
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
