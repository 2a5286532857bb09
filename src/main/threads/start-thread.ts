/**
 * Starts one of our worker threads (the vault, the client's store worker). Built, the thread's
 * `.js` sits beside the bundle and starts as it is. From
 * source (tsx, vitest) its `.ts` starts through a bootstrap that registers tsx in the new
 * thread: on Node 20 a thread does not inherit the parent's loader hooks.
 */
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

// a variable, not a literal inside `new URL(...)`, so bundlers do not inline it as an asset
const TSX_BOOTSTRAP = './tsx-thread-bootstrap.mjs';

/**
 * The entry `name` (without extension) beside `base` (the caller's import.meta.url), as source
 * or built; or `given` (a path or file URL: tests, and a shell that bundles the entry itself).
 */
export function threadEntry(base: string, name: string, given?: string | URL): URL {
  if (given instanceof URL) return given;
  if (given !== undefined) return /^file:/.test(given) ? new URL(given) : pathToFileURL(given);
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/** A thread running `entry`; a `.ts` entry runs through the tsx bootstrap, with `workerData.__entry` naming it. */
export function startThread(entry: URL, options: WorkerOptions = {}): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  const workerData = { ...(options.workerData as object | undefined), __entry: entry.href };
  return new Worker(new URL(TSX_BOOTSTRAP, import.meta.url), {
    ...options,
    workerData,
    execArgv: execArgvWithoutTsx(),
  });
}

/** The parent's execArgv minus tsx's own hooks (the bootstrap registers them exactly once). */
function execArgvWithoutTsx(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if ((a === '--require' || a === '--import' || a === '--loader' || a === '-r') && /tsx/.test(argv[i + 1] ?? '')) {
      i++;
      continue;
    }
    if (/^--(require|import|loader)=.*tsx/.test(a)) continue;
    out.push(a);
  }
  return out;
}
