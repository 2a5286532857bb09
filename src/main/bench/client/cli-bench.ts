/**
 * The CLI section of `npm run bench`: the wall time of one command-line client command, from
 * spawning it to its exit, as a script running commands in a row meets it. Two profiles (alice,
 * bob, each with a passphrase) on a built relay; alice already knows bob. Timed, median of runs:
 * - cli_whoami_ms / cli_send_ms: `node bin/client.mjs … whoami` and `send @bob …` (built code,
 *   the unlock remembered by the previous command);
 * - cli_whoami_npm_ms: the same through `npm run client` (npm's own start-up on top);
 * - cli_init_ms: `init --relay … --handle …` on a new profile with a passphrase (a new wallet,
 *   its two scrypt wraps at the production cost, signing in, claiming the handle), median of three;
 * - cli_whoami_from_source_ms: the baseline, the source under tsx with --unlock-ttl 0, which
 *   is how every command ran before (tsx, and scrypt on every unlock).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binPath, runToEnd, startBuilt } from '../../test-support/child-process.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const PASSPHRASE = 'bench passphrase for the cli';

async function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ ms: number; stdout: string }> {
  const t0 = performance.now();
  const done = await runToEnd(cmd, args, {
    cwd: root,
    env: { ...process.env, RELAY_PASSPHRASE: PASSPHRASE, XDG_RUNTIME_DIR: undefined, ...env },
  });
  const ms = performance.now() - t0;
  if (done.code !== 0) throw new Error(`${args.join(' ')} exited ${done.code}: ${done.stderr.slice(-1000)}`);
  return { ms, stdout: done.stdout };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export async function benchCli(
  opts: { quick?: boolean; log?: (line: string) => void } = {},
): Promise<Record<string, number>> {
  const log = opts.log ?? (() => undefined);
  const runs = opts.quick ? 3 : 7;
  const dir = mkdtempSync(join(tmpdir(), 'cli-bench-'));
  const relay = await startBuilt(
    'relay',
    ['--host', '127.0.0.1', '--port', '0', '--data', join(dir, 'relay'), '--rate-limit', '0'],
    /relay listening on (\S+)/,
  );
  const client = binPath('client');
  const alice = join(dir, 'alice');
  const bob = join(dir, 'bob');
  const built = (profile: string, ...args: string[]) => run(process.execPath, [client, '--profile', profile, ...args]);
  try {
    const inits = [
      (await built(alice, 'init', '--relay', relay.ready, '--handle', 'bench_alice')).ms,
      (await built(bob, 'init', '--relay', relay.ready, '--handle', 'bench_bob')).ms,
      (await built(join(dir, 'carol'), 'init', '--relay', relay.ready, '--handle', 'bench_carol')).ms,
    ];
    log(`cli bench: init (built) ${inits.map((x) => x.toFixed(0)).join(', ')} ms`);
    // bob accepts alice, so her sends are plain inbox sends to a known contact
    const aliceAddress = (JSON.parse((await built(alice, 'whoami')).stdout) as { address: string }).address;
    await built(bob, 'allow', aliceAddress);
    await built(alice, 'send', '@bench_bob', 'first');

    const timed = async (label: string, fn: () => Promise<{ ms: number }>): Promise<number> => {
      const xs: number[] = [];
      for (let i = 0; i < runs; i++) xs.push((await fn()).ms);
      log(`cli bench: ${label} ${xs.map((x) => x.toFixed(0)).join(', ')} ms`);
      return Math.round(median(xs));
    };
    const whoami = await timed('whoami (built)', () => built(alice, 'whoami'));
    const send = await timed('send (built)', () => built(alice, 'send', '@bench_bob', 'hello from the bench'));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const whoamiNpm = await timed('whoami (npm run client)', () =>
      run(npm, ['run', '--silent', 'client', '--', '--profile', alice, 'whoami']),
    );
    const fromSource = await timed('whoami (source under tsx, no remembered unlock)', () =>
      run(process.execPath, [
        '--import',
        'tsx',
        'src/main/client/cli/cli.ts',
        '--profile',
        alice,
        '--unlock-ttl',
        '0',
        'whoami',
      ]),
    );
    return {
      cli_whoami_ms: whoami,
      cli_send_ms: send,
      cli_init_ms: Math.round(median(inits)),
      cli_whoami_npm_ms: whoamiNpm,
      cli_whoami_from_source_ms: fromSource,
    };
  } finally {
    await relay.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
