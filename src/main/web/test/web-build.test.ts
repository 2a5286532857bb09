import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { webBuildState } from '../web-mode.js';

let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A project folder whose files were all last changed at `at` (seconds since the epoch). */
function project(files: string[], at: number): string {
  root = mkdtempSync(join(tmpdir(), 'web-build-'));
  for (const f of files) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), '');
    utimesSync(join(root, f), at, at);
  }
  // folders too: adding a file to one changes its time, which is how a new file is noticed
  for (const f of files) for (let d = dirname(join(root, f)); d !== root; d = dirname(d)) utimesSync(d, at, at);
  return root;
}

const SOURCES = [
  'src/renderer/main.tsx',
  'src/renderer/chats/chats.tsx',
  'src/shared/ipc.ts',
  '.config/vite.web.config.ts',
];

describe('npm run web serves the renderer as the sources are now', () => {
  it('builds on first run, keeps a build newer than every source, and builds again after any of them changed', () => {
    const r = project(SOURCES, 1_000);
    expect(webBuildState(r)).toBe('missing');
    mkdirSync(join(r, 'out/web'), { recursive: true });
    writeFileSync(join(r, 'out/web/index.html'), '');
    utimesSync(join(r, 'out/web/index.html'), 2_000, 2_000);
    expect(webBuildState(r)).toBe('current');
    for (const changed of ['src/renderer/chats/chats.tsx', 'src/shared/ipc.ts', '.config/vite.web.config.ts']) {
      utimesSync(join(r, changed), 3_000, 3_000);
      expect(webBuildState(r)).toBe('stale');
      utimesSync(join(r, changed), 1_000, 1_000);
    }
    // a new file in a folder (a pulled screen) counts as well
    writeFileSync(join(r, 'src/renderer/chats/search.tsx'), '');
    expect(webBuildState(r)).toBe('stale');
  });
});
