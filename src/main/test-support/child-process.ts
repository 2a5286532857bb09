/**
 * Starting the processes under test (the relay CLI, the echo server) as real children and
 * reading their memory from /proc, so the figures are those of a process a user would run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Child {
  proc: ChildProcess;
  /** the first capture group of the ready pattern */
  ready: string;
  /** all stdout lines so far */
  lines: string[];
  stderr(): string;
  /** settles when the process exits */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM unless it already exited, then the exit code (null when killed by a signal) */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The entries users start through bin/*.mjs, which run their built bundle (.config/build-node.mjs). */
const BUILT: Record<string, 'relay' | 'web' | 'client' | 'bot'> = {
  'src/main/relay/cli.ts': 'relay',
  'src/main/web/cli.ts': 'web',
  'src/main/client/cli/cli.ts': 'client',
  'src/main/client/cli/bot-cli.ts': 'bot',
};
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * How node runs a TypeScript entry: as users run it, through its bin/*.mjs (the built bundle,
 * rebuilt first when a source is newer; vitest's global set-up builds it once per run), else
 * with the tsx loader. A tsx start costs about a second and 60 MiB more, and the CLI tests
 * start well over a hundred processes.
 */
export function nodeArgsFor(entry: string): string[] {
  const bin = BUILT[relative(ROOT, entry).split(sep).join('/')];
  return bin ? [binPath(bin)] : ['--import', 'tsx', entry];
}

/**
 * Runs a TypeScript entry (see nodeArgsFor) in one process, so pid and signals are its own;
 * `spawnOpts` sets its folder and environment (default: this process's).
 */
export function startTs(
  entry: string,
  args: string[],
  ready: RegExp,
  timeoutMs = 60_000,
  spawnOpts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Child> {
  return startNode([...nodeArgsFor(entry), ...args], entry, ready, timeoutMs, spawnOpts);
}

/**
 * Runs built code as users run it, `node bin/<name>.mjs` (what `npm run relay` etc. run; see
 * .config/build-node.mjs), in one process; `nodeFlags` go to node before the entry (a bench's
 * `--cpu-prof`, which NODE_OPTIONS refuses).
 */
export function startBuilt(
  name: 'relay' | 'web' | 'client',
  args: string[],
  ready: RegExp,
  timeoutMs = 60_000,
  nodeFlags: string[] = [],
): Promise<Child> {
  return startNode([...nodeFlags, binPath(name), ...args], `bin/${name}.mjs`, ready, timeoutMs);
}

export function binPath(name: 'relay' | 'web' | 'client' | 'bot'): string {
  return fileURLToPath(new URL(`../../../bin/${name}.mjs`, import.meta.url));
}

function startNode(
  nodeArgs: string[],
  entry: string,
  ready: RegExp,
  timeoutMs: number,
  spawnOpts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Child> {
  const proc = spawn(process.execPath, nodeArgs, { ...spawnOpts, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    let isReady = false;
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${entry} was not ready within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`));
    }, timeoutMs);
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      lines.push(line);
      const m = ready.exec(line);
      if (m && !isReady) {
        isReady = true;
        clearTimeout(timer);
        resolve({
          proc,
          ready: m[1] ?? line,
          lines,
          stderr: () => stderr,
          exited,
          stop: () => {
            if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(
        new Error(
          `${entry} exited (code ${code}, signal ${signal}) before it was ready; stderr: ${stderr.slice(-2000)}`,
        ),
      );
    });
  });
}

/** Resident and peak resident memory of a process in MiB (Linux). */
export function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its exit and returns how it ended and all it printed. */
export function runToEnd(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Finished> {
  const proc = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Runs a TypeScript entry (see nodeArgsFor) to its exit. */
export function runTs(
  entry: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Finished> {
  return runToEnd(process.execPath, [...nodeArgsFor(entry), ...args], opts);
}
