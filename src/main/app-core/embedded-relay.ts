/**
 * The relay this app can run for its user: the headless relay CLI in a child process, so a
 * relay crash (or a slow SQLite commit) never stalls the UI, and so the same code path is
 * tested headless. It listens on 127.0.0.1, keeps its database in the app data folder, and
 * can be re-started in the CLI's `--lan` mode (HTTPS on all interfaces, self-signed
 * certificate) to share it with people nearby. The port is remembered so that clients'
 * stored relay URL stays valid across restarts.
 */
import { EventEmitter } from 'node:events';
import { SERVE_ENV_NAMES } from '../relay/options/serve-flags.js';
import { forkRelay, type RelayProcess, type RelaySpawner } from './relay-process.js';

export interface RelayLauncher {
  /** the relay CLI entry: src/main/relay/cli.ts under tsx, or the built relay-cli.js */
  modulePath: string;
  /** e.g. ['--import', <tsx>] when running from source */
  execArgv: string[];
  env?: NodeJS.ProcessEnv;
  /** how its process starts: child_process.fork unless given (relay-process.ts) */
  spawn?: RelaySpawner;
}

export interface EmbeddedRelayStatus {
  running: boolean;
  url: string | null;
  port: number | null;
  lan: { urls: string[]; fingerprint: string } | null;
  /** its data folder: the person who runs the app is its operator, and `relay admin --data` acts on it */
  dataDir?: string;
}

export interface EmbeddedRelayOptions {
  launcher: RelayLauncher;
  dataDir: string;
  /** give up on a start that has not reported ready by then */
  startTimeoutMs?: number;
}

/** `pin` (the public key's hash) is what teammates are given: it outlives the certificate's renewals */
type StartedMessage = { type: 'relay-started'; url: string; fingerprint256: string | null; pin?: string | null };

export class RelayStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RelayStartError';
  }
}

/** Events: 'status' (EmbeddedRelayStatus) after every change; 'exit' when it stopped unasked. */
export class EmbeddedRelay extends EventEmitter {
  private child: RelayProcess | null = null;
  private current: EmbeddedRelayStatus = { running: false, url: null, port: null, lan: null };
  private stopping: Promise<void> | null = null;

  constructor(private readonly opts: EmbeddedRelayOptions) {
    super();
  }

  status(): EmbeddedRelayStatus {
    return {
      ...this.current,
      lan: this.current.lan ? { ...this.current.lan, urls: [...this.current.lan.urls] } : null,
      dataDir: this.opts.dataDir,
    };
  }

  /** Starts (or restarts, when the mode differs) the relay; `port` 0 or null picks a free one. */
  async start(params: { port: number | null; lan: boolean }): Promise<EmbeddedRelayStatus> {
    if (this.child) {
      if ((this.current.lan !== null) === params.lan) return this.status();
      await this.stop();
    }
    try {
      return await this.spawn(params.port ?? 0, params.lan);
    } catch (e) {
      // The remembered port may have been taken by something else meanwhile: take any.
      if (params.port && e instanceof RelayStartError && /already in use/.test(e.message))
        return this.spawn(0, params.lan);
      throw e;
    }
  }

  private spawn(port: number, lan: boolean): Promise<EmbeddedRelayStatus> {
    const args = ['--port', String(port), '--data', this.opts.dataDir, ...(lan ? ['--lan'] : ['--host', '127.0.0.1'])];
    const { modulePath, execArgv, env, spawn = forkRelay } = this.opts.launcher;
    const child = spawn(modulePath, args, { execArgv, env: { ...withoutRelaySettings(process.env), ...env } });
    this.child = child;
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (stdout.length > 64_000) stdout = stdout.slice(-32_000);
    });
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      if (stderr.length > 64_000) stderr = stderr.slice(-32_000);
    });

    return new Promise<EmbeddedRelayStatus>((resolve, reject) => {
      let ready = false;
      const timer = setTimeout(() => {
        if (ready) return;
        child.kill();
        reject(new RelayStartError('The relay on this computer did not start in time.'));
      }, this.opts.startTimeoutMs ?? 30_000);

      child.onMessage((message) => {
        const msg = message as StartedMessage | null;
        if (ready || msg?.type !== 'relay-started') return;
        ready = true;
        clearTimeout(timer);
        const actualPort = Number(new URL(msg.url).port);
        // The LAN addresses are printed after the ready line; read them once they are there.
        setTimeout(
          () => {
            this.current = {
              running: true,
              url: msg.url,
              port: actualPort,
              lan: lan && msg.pin ? { urls: lanUrls(stdout, msg.url), fingerprint: msg.pin } : null,
            };
            this.emit('status', this.status());
            resolve(this.status());
          },
          lan ? 50 : 0,
        );
      });

      child.onExit((code, signal) => {
        clearTimeout(timer);
        const wasCurrent = this.child === child;
        if (wasCurrent) this.child = null;
        if (!ready) {
          reject(new RelayStartError(startFailure(stderr)));
          return;
        }
        if (!wasCurrent) return;
        this.current = { running: false, url: null, port: this.current.port, lan: null };
        this.emit('status', this.status());
        if (!this.stopping) this.emit('exit', { code, signal, stderr: lastLine(stderr) });
      });
      child.onError((e) => {
        clearTimeout(timer);
        if (!ready) reject(new RelayStartError(`The relay on this computer could not start: ${e.message}`));
      });
    });
  }

  /** Ends the relay now (SIGKILL), for a shutdown told twice: whoever asked again does not want to wait. */
  kill(): void {
    this.child?.kill();
  }

  /** Graceful stop (SIGTERM lets requests in flight finish and checkpoints the WAL). */
  stop(): Promise<void> {
    const child = this.child;
    if (!child) return Promise.resolve();
    if (this.stopping) return this.stopping;
    this.stopping = new Promise<void>((resolve) => {
      const kill = setTimeout(() => child.kill(), 20_000);
      child.onExit(() => {
        clearTimeout(kill);
        resolve();
      });
      child.stop();
    }).finally(() => {
      this.stopping = null;
    });
    return this.stopping;
  }
}

function lanUrls(stdout: string, localUrl: string): string[] {
  const lines = stdout.split('\n');
  const at = lines.findIndex((l) => l.startsWith('reach this relay at'));
  const urls =
    at < 0
      ? []
      : lines
          .slice(at + 1)
          .filter((l) => /^\s+https?:\/\//.test(l))
          .map((l) => l.trim());
  // Loopback is of no use to a neighbour: list the network addresses first.
  const remote = urls.filter((u) => !/\/\/(127\.|localhost|\[::1\])/.test(u));
  return remote.length ? remote : urls.length ? urls : [localUrl];
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop() ?? '';
}

function startFailure(stderr: string): string {
  const line = lastLine(stderr).replace(/^relay: (could not start: )?/, '');
  return line
    ? `The relay on this computer could not start: ${line}`
    : 'The relay on this computer stopped while starting.';
}

/**
 * The environment less the variables a headless relay reads (RELAY_PORT, RELAY_CONFIG, …): the
 * built-in relay is set up by the app's own switches alone, whatever an operator exported for
 * another relay on this machine.
 */
function withoutRelaySettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !SERVE_ENV_NAMES.includes(name)));
}
