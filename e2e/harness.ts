/**
 * The pieces every story needs: a fresh relay (the real CLI, port 0, its own data folder) that
 * can be restarted on the same port, and app instances (the real `npm run web` entry, each
 * with its own fresh profile) opened in their own browser context. Processes start as users
 * start them, `node bin/<name>.mjs`: the built bundles (global-setup.ts brings them up to date
 * once; a start after a source changed rebuilds), not tsx, which costs each start a second.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';

export const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
const bin = (name: 'relay' | 'web' | 'client') => join(root, 'bin', `${name}.mjs`);

export function tempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `rm-e2e-${label}-`));
}

/** Spawns `node <args>` and resolves with the first stdout line matching `ready`. */
function spawnUntil(
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; match: RegExpMatchArray; output: () => string }> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for ${ready} from ${args.join(' ')}\n${out}\n${err}`)),
      60_000,
    );
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = out.match(ready);
      if (m) {
        clearTimeout(timer);
        resolve({ child, match: m, output: () => out + err });
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}\n${out}\n${err}`));
    });
  });
}

function stop(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export class TestRelay {
  url = '';
  private child: ChildProcess | null = null;
  private port = 0;
  readonly dataDir = tempDir('relay');

  /** `extraArgs`: more serve flags, e.g. the --stake-* flags of a relay that takes stakes. */
  constructor(private readonly extraArgs: string[] = []) {}

  async start(): Promise<void> {
    const r = await spawnUntil(
      [bin('relay'), '--host', '127.0.0.1', '--port', String(this.port), '--data', this.dataDir, ...this.extraArgs],
      /relay listening on (\S+)/,
    );
    this.child = r.child;
    this.url = r.match[1];
    this.port = Number(new URL(this.url).port);
  }

  /** Graceful stop, as an operator's restart would do. */
  stop(): Promise<void> {
    const c = this.child;
    this.child = null;
    return stop(c);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** An operator command against this relay's database (verify, grant, stats). */
  async admin(...args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const c = spawn(process.execPath, [bin('relay'), 'admin', '--data', this.dataDir, ...args], { cwd: root });
      let out = '';
      let err = '';
      c.stdout.on('data', (d) => (out += d));
      c.stderr.on('data', (d) => (err += d));
      c.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`admin ${args.join(' ')}: ${err}`))));
    });
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** The headless client CLI on its own profile, as a second person (or QA) drives it; JSON lines out. */
export async function clientCli(
  profile: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; json: unknown[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [bin('client'), '--profile', profile, ...args], {
      cwd: root,
      env: { ...process.env, RELAY_PASSPHRASE: 'e2e', ...env },
    });
    let out = '';
    let err = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (err += d));
    c.on('error', reject);
    c.on('exit', (code) =>
      resolve({
        code,
        json: out
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as unknown),
        stderr: err,
      }),
    );
  });
}

export class AppInstance {
  page!: Page;
  context!: BrowserContext;
  openUrl = '';
  /** everything the app process printed so far (stdout, then stderr) */
  output: () => string = () => '';
  private child: ChildProcess | null = null;
  readonly dataDir: string;

  constructor(
    readonly name: string,
    private readonly browser: Browser,
    dataDir?: string,
  ) {
    this.dataDir = dataDir ?? tempDir(`app-${name}`);
  }

  /** Starts `npm run web -- --port 0 --data <dir> --no-open` and opens the printed link. */
  async launch(colorScheme: 'light' | 'dark' = 'light', locale?: string): Promise<Page> {
    const r = await spawnUntil(
      [bin('web'), '--port', '0', '--data', this.dataDir, '--no-open'],
      /^open (http:\/\/127\.0\.0\.1:\d+\/#code=\S+)$/m,
    );
    this.child = r.child;
    this.output = r.output;
    this.openUrl = r.match[1];
    // locale: the project's (navigator.languages), so the app starts in that language
    this.context = await this.browser.newContext({
      viewport: { width: 1180, height: 780 },
      colorScheme,
      ...(locale ? { locale } : {}),
    });
    this.page = await this.context.newPage();
    await this.page.goto(this.openUrl);
    return this.page;
  }

  /** Sends `signal` to the app process, as Ctrl-C or a service manager would, and reports how it ended. */
  async quit(signal: NodeJS.Signals): Promise<{ code: number | null; output: string }> {
    const c = this.child!;
    const exited = new Promise<number | null>((resolve) => c.once('exit', (code) => resolve(code)));
    c.kill(signal);
    const code = await exited;
    this.child = null;
    return { code, output: this.output() };
  }

  /** Stops the app process and starts it again on the same port and profile; the open tab is left as it was. Returns the new link. */
  async restartProcess(): Promise<string> {
    const port = new URL(this.openUrl).port;
    await this.quit('SIGTERM');
    const r = await spawnUntil(
      [bin('web'), '--port', port, '--data', this.dataDir, '--no-open'],
      /^open (http:\/\/127\.0\.0\.1:\d+\/#\S+)$/m,
    );
    this.child = r.child;
    this.output = r.output;
    this.openUrl = r.match[1];
    return this.openUrl;
  }

  /** the app process has not exited */
  running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  async close(): Promise<void> {
    await this.context?.close().catch(() => undefined);
    await stop(this.child);
    this.child = null;
  }

  async dispose(): Promise<void> {
    await this.close();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** clientCli that must succeed; its JSON lines. */
export async function cliOk(profile: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<unknown[]> {
  const r = await clientCli(profile, args, env);
  expect(r.code, `client ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.json;
}

/** The headless client sends `count` numbered messages (`<prefix> 001`, …) from one process (see send-history.ts). */
export function sendHistory(
  profile: string,
  to: string,
  count: number,
  prefix: string,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [tsx, 'e2e/send-history.ts', profile, to, String(count), prefix], {
      cwd: root,
      env: { ...process.env, RELAY_PASSPHRASE: 'e2e' },
    });
    let err = '';
    c.stderr!.on('data', (d) => (err += d));
    c.on('error', reject);
    c.on('exit', (code) => resolve({ code, stderr: err }));
  });
}
