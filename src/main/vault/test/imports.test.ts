import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const vaultDir = fileURLToPath(new URL('..', import.meta.url));
const benchFile = fileURLToPath(new URL('../../bench/client/crypto-bench.ts', import.meta.url));

// Modules the relay (and any non-Node consumer) may import: they must stay free of node: built-ins.
const PURE = [
  'sealing/base64.ts',
  'signing/device-certificate.ts',
  'sealing/frames.ts',
  'sealing/payload.ts',
  'sealing/sealer.ts',
  'signing/siwe.ts',
  'vault-error.ts',
  'signing/wallet.ts',
];

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g)) specs.push(m[1]);
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]);
  for (const m of text.matchAll(/require\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]);
  return specs;
}

/** Every .ts and .mjs file under `dir`, its rooms' and their tests' included. */
function sourcesIn(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourcesIn(full);
    return /\.(ts|mjs)$/.test(name) ? [full] : [];
  });
}

const sources = [...sourcesIn(vaultDir), benchFile];

describe('vault imports', () => {
  it('finds the files it guards', () => {
    expect(sources.length).toBeGreaterThan(25);
    for (const f of PURE)
      expect(
        sources.some((s) => s.endsWith(f)),
        f,
      ).toBe(true);
  });

  it('nothing in the vault or its bench imports electron', () => {
    for (const file of sources)
      for (const spec of importsOf(file))
        expect(spec === 'electron' || spec.startsWith('electron/'), `${file}: ${spec}`).toBe(false);
  });

  it('pure modules import no node: built-ins', () => {
    for (const name of PURE) {
      for (const spec of importsOf(join(vaultDir, name))) {
        expect(
          spec.startsWith('node:') || ['crypto', 'fs', 'path', 'os', 'worker_threads', 'buffer'].includes(spec),
          `${name}: ${spec}`,
        ).toBe(false);
      }
    }
  });

  it('relative imports use .js specifiers (NodeNext)', () => {
    for (const file of sources) {
      for (const spec of importsOf(file).filter((s) => s.startsWith('.')))
        expect(spec, `${file}: ${spec}`).toMatch(/\.(js|json|mjs)$/);
    }
  });
});
