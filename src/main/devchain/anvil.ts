import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * A local chain from the @foundry-rs/anvil npm package. Its binary ships inside the platform
 * package that npm picks (`@foundry-rs/anvil-linux-amd64`, …), so no download and no install
 * script is involved; we run that binary directly rather than the wrapper's `bin.mjs`.
 */
const require = createRequire(import.meta.url);

const ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64' };

/** The anvil binary of this platform, or null with no package for it. */
export function anvilBinary(): string | null {
  const arch = ARCH[process.arch];
  if (!arch) return null;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  try {
    const bin = join(
      dirname(require.resolve(`${pkg}/package.json`)),
      'bin',
      process.platform === 'win32' ? 'anvil.exe' : 'anvil',
    );
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

/** Why anvil tests cannot run here, or null when they can: for `describe.skipIf`. */
export const ANVIL_MISSING: string | null =
  anvilBinary() === null
    ? `no anvil binary for ${process.platform}-${process.arch} in node_modules/@foundry-rs (package.json lists only @foundry-rs/anvil-linux-amd64, so npm ci installs it on Linux x64 alone)`
    : null;

/** The well-known anvil development accounts of the default mnemonic "test test … junk": public test keys, never real funds. */
export const ANVIL_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
] as const;

export interface Anvil {
  rpcUrl: string;
  port: number;
  chainId: number;
  proc: ChildProcess;
  /** SIGTERM, resolves once it exited. Safe to call twice. */
  stop(): Promise<void>;
}

export interface AnvilOptions {
  chainId?: number;
  /** default 0: a free port */
  port?: number;
  /** seconds between blocks; default: a block per transaction */
  blockTime?: number;
  timeoutMs?: number;
}

/** Starts anvil on 127.0.0.1, by default on a free port (it picks one for --port 0 and says which). */
export function startAnvil(opts: AnvilOptions = {}): Promise<Anvil> {
  const bin = anvilBinary();
  if (!bin) return Promise.reject(new Error(ANVIL_MISSING ?? 'no anvil'));
  const chainId = opts.chainId ?? 31337;
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(opts.port ?? 0),
    '--chain-id',
    String(chainId),
    '--accounts',
    String(ANVIL_KEYS.length),
  ];
  if (opts.blockTime !== undefined) args.push('--block-time', String(opts.blockTime));
  const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`anvil was not listening within ${opts.timeoutMs ?? 10_000} ms: ${stderr.slice(-1000)}`));
    }, opts.timeoutMs ?? 10_000);
    proc.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`anvil exited before listening: ${stderr.slice(-1000)}`));
    });
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      const m = /^Listening on 127\.0\.0\.1:(\d+)/.exec(line);
      if (!m) return;
      clearTimeout(timer);
      // anvil prints its banner for every request otherwise; keep the pipe drained
      proc.stdout!.resume();
      const port = Number(m[1]);
      resolve({ rpcUrl: `http://127.0.0.1:${port}`, port, chainId, proc, stop });
    });
  });
}
