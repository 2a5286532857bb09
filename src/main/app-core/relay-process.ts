/**
 * How the built-in relay's process is started: one small interface over two kinds of child.
 *
 * - Under plain Node (web mode, tests, the bench): `child_process.fork`, the ready message over
 *   its IPC channel (`process.send` in the relay).
 * - In the Electron shell: Electron's `utilityProcess.fork`. A packaged app has the `runAsNode`
 *   fuse off (electron-builder.json), and `child_process.fork` from Electron's main process runs
 *   the Electron binary with ELECTRON_RUN_AS_NODE, which that fuse ignores: it would start a
 *   second app, not the relay. A utility process is Chromium's own child with Node in it; the
 *   relay posts its ready message through `process.parentPort`.
 *
 * Only index.ts may import electron, so it hands `utilityProcess.fork` in (UtilityFork is the
 * part of it used here, typed structurally).
 */
import { fork } from 'node:child_process';

export interface RelayProcess {
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  onMessage(fn: (message: unknown) => void): void;
  /** once, when the process has ended */
  onExit(fn: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  /** once, when it could not be started */
  onError(fn: (error: Error) => void): void;
  /** SIGTERM: the relay finishes the requests in flight and checkpoints its database */
  stop(): void;
  /** ends it now (a utility process has no harder stop than its SIGTERM) */
  kill(): void;
}

export type RelaySpawner = (
  modulePath: string,
  args: string[],
  opts: { execArgv: string[]; env: NodeJS.ProcessEnv },
) => RelayProcess;

/** `child_process.fork`, for plain Node. */
export const forkRelay: RelaySpawner = (modulePath, args, { execArgv, env }) => {
  const child = fork(modulePath, args, {
    execArgv,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'json',
  });
  return {
    stdout: child.stdout,
    stderr: child.stderr,
    onMessage: (fn) => child.on('message', (m) => fn(m)),
    onExit: (fn) => child.once('exit', fn),
    onError: (fn) => child.once('error', fn),
    stop: () => child.kill('SIGTERM'),
    kill: () => child.kill('SIGKILL'),
  };
};

/** What this module uses of an Electron UtilityProcess. */
export interface UtilityProcessLike {
  stdout: NodeJS.ReadableStream | null;
  stderr: NodeJS.ReadableStream | null;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  once(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
}

/** `utilityProcess.fork`'s shape, as far as it is used here. */
export type UtilityFork = (
  modulePath: string,
  args: string[],
  options: { env: Record<string, string>; execArgv: string[]; stdio: 'pipe'; serviceName: string },
) => UtilityProcessLike;

/** Electron's `utilityProcess.fork`, for the Electron shell (stdout and stderr piped). */
export function utilityProcessSpawner(utilityFork: UtilityFork): RelaySpawner {
  return (modulePath, args, { execArgv, env }) => {
    const plainEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries(env)) if (v !== undefined) plainEnv[k] = v;
    let child: UtilityProcessLike;
    try {
      child = utilityFork(modulePath, args, { env: plainEnv, execArgv, stdio: 'pipe', serviceName: 'Relay' });
    } catch (e) {
      return failedToStart(e instanceof Error ? e : new Error(String(e)));
    }
    return {
      stdout: child.stdout,
      stderr: child.stderr,
      onMessage: (fn) => void child.on('message', fn),
      onExit: (fn) => void child.once('exit', (code) => fn(code, null)),
      onError: () => undefined,
      stop: () => void child.kill(),
      kill: () => void child.kill(),
    };
  };
}

/** A process that never started: reports `error` once asked, and nothing else. */
function failedToStart(error: Error): RelayProcess {
  return {
    stdout: null,
    stderr: null,
    onMessage: () => undefined,
    onExit: () => undefined,
    onError: (fn) => queueMicrotask(() => fn(error)),
    stop: () => undefined,
    kill: () => undefined,
  };
}
