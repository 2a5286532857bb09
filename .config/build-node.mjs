#!/usr/bin/env node
// Built JavaScript for the Node entries (`npm start`, `npm run web`, `relay`, `client`, `bot`):
// esbuild bundles our TypeScript into one file per entry under out/node/<build>/, so a start
// pays neither tsx's loader nor transpiling hundreds of modules (≈1 s and ≈60 MiB of the relay's
// idle memory under tsx). Packages from node_modules stay external: they load from there as
// they would under tsx (better-sqlite3 is native), and a lazy `import()` of one stays lazy.
//
// Build on demand: bin/*.mjs call runEntry(), which rebuilds only when a source file that went
// into the current build (esbuild's metafile lists them) is newer than that build, so a fresh
// clone, a `git pull` or an edit just work. Each build gets its own folder and the pointer
// (current.json) is replaced atomically, so two starts racing to build never see half a build,
// and a process still running an older build keeps its files (pruned after a day).
//
// `node .config/build-node.mjs` builds if anything changed (`--force`: builds anyway).
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(root, 'out/node');
const POINTER = join(OUT, 'current.json');
const PRUNE_AFTER_MS = 24 * 60 * 60 * 1000;

/** Output name → source. vault-worker and store-worker are worker threads, started from beside the bundle. */
export const ENTRIES = {
  start: 'src/main/web/start.ts',
  'web-cli': 'src/main/web/cli.ts',
  'relay-cli': 'src/main/relay/cli.ts',
  'client-cli': 'src/main/client/cli/cli.ts',
  'bot-cli': 'src/main/client/cli/bot-cli.ts',
  'vault-worker': 'src/main/vault/worker/vault-worker.ts',
  'store-worker': 'src/main/client/store/store-worker.ts',
};

const EXTERNAL = [
  'better-sqlite3',
  '@fastify/swagger-ui',
  'selfsigned',
  'vite',
  'electron',
  'tsx',
  'bufferutil',
  'utf-8-validate',
];

/** Files whose change also changes the output, besides the sources esbuild read. */
const CONFIG_INPUTS = ['.config/build-node.mjs', 'package.json', 'tsconfig.json'];

function readPointer() {
  try {
    return JSON.parse(readFileSync(POINTER, 'utf8'));
  } catch {
    return null;
  }
}

/** The current build's folder when every input is older than it, else null. */
export function currentBuild() {
  const build = readPointer();
  if (!build || typeof build.dir !== 'string' || !Array.isArray(build.inputs)) return null;
  const dir = join(OUT, build.dir);
  if (!Object.keys(ENTRIES).every((name) => existsSync(join(dir, `${name}.js`)))) return null;
  for (const file of [...build.inputs, ...CONFIG_INPUTS]) {
    try {
      if (statSync(join(root, file)).mtimeMs > build.startedMs) return null;
    } catch {
      return null; // a source that went into the build is gone
    }
  }
  return dir;
}

export async function buildNode({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const { build } = await import('esbuild');
  // the start time, not the end: a file saved during the build makes the next start rebuild
  const startedMs = Date.now();
  const name = `b-${startedMs.toString(36)}-${process.pid}`;
  const dir = join(OUT, name);
  const result = await build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir: dir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    // Dependencies are bundled too: tree-shaking keeps what the code uses (viem's SIWE helpers,
    // not all of viem), which is most of the relay's idle memory. Left external: the native
    // module, packages that read files beside themselves, tools loaded only on demand.
    external: EXTERNAL,
    // A lazy `import()` of our own code (stakes' viem, a command's module) becomes a chunk of its
    // own, loaded when used: without splitting it stayed in the entry's file and every start
    // parsed it (the client's ~1.2 MB, 40 % of it viem for stakes alone).
    splitting: true,
    // beside the entries: code that finds files beside itself (vault-worker.js, relay-cli.js) may be in a chunk
    chunkNames: '[name]-[hash]',
    // bundled CommonJS packages call require() for Node's built-ins
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    // V8 keeps every script's source in the heap: less text is less memory (names are kept,
    // for readable stack traces; minified names measured *more* resident memory, not less)
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.includes('node_modules/'));
  mkdirSync(OUT, { recursive: true });
  const tmp = `${POINTER}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ dir: name, startedMs, inputs }, null, 1)}\n`);
  renameSync(tmp, POINTER);
  prune(name);
  log(`built ${Object.keys(ENTRIES).length} entries into ${dir} in ${Date.now() - startedMs} ms`);
  return dir;
}

/** Removes builds older than a day, except the current one (a long-running process may still use a recent one). */
function prune(keep) {
  for (const entry of readdirSync(OUT)) {
    if (!entry.startsWith('b-') || entry === keep) continue;
    const path = join(OUT, entry);
    try {
      if (Date.now() - statSync(path).mtimeMs > PRUNE_AFTER_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // another process pruned it first
    }
  }
}

/** The build the pointer names, whatever its age, when all its entries are there; else null. */
function existingBuild() {
  const build = readPointer();
  if (!build || typeof build.dir !== 'string') return null;
  const dir = join(OUT, build.dir);
  return Object.keys(ENTRIES).every((name) => existsSync(join(dir, `${name}.js`))) ? dir : null;
}

/** Whether esbuild is installed here: a production install (`npm ci --omit=dev`) has none. */
async function canBuild() {
  try {
    await import('esbuild');
    return true;
  } catch {
    return false;
  }
}

/**
 * The build to run: the current one; else a new one; but where no new one can be made (no
 * esbuild, or no sources: a production copy; or a folder the process may not write, as under
 * a service's ProtectSystem=strict), the existing build as it is.
 */
export async function ensureNodeBuild() {
  const current = currentBuild();
  if (current) return current;
  const existing = existingBuild();
  if (existing && (!existsSync(join(root, 'src')) || !(await canBuild()) || !writable(OUT))) return existing;
  if (!(await canBuild()))
    throw new Error(
      'no built bundle in out/node and esbuild is not installed: run `npm run build` in a development install first',
    );
  return await buildNode({ log: (line) => process.stderr.write(`(${line})\n`) });
}

function writable(dir) {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Runs a built entry in this process, as if node had been started on it. */
export async function runEntry(name) {
  if (!(name in ENTRIES)) throw new Error(`unknown entry ${name}`);
  const dir = await ensureNodeBuild();
  const file = join(dir, `${name}.js`);
  process.argv[1] = file;
  await import(pathToFileURL(file).href);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv.includes('--force') ? null : currentBuild();
  if (dir) process.stderr.write(`up to date: ${dir}\n`);
  else await buildNode();
}
