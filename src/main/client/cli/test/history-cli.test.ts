/**
 * History on a new device from the command line: `history send <deviceKey>` on the device that
 * has it, and the new device's `sync` importing it (progress on stderr, the outcome on stdout).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PASSPHRASE, ROOT, cleanup, cli, cliOk, startRelay, tempDir } from '../../test/harness.js';

afterAll(cleanup);

/** `sync --follow` on a profile: its stdout lines as they come, and a clean stop. */
function follow(profile: string) {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src/main/client/cli/cli.ts'), '--profile', profile, 'sync', '--follow'],
    {
      cwd: ROOT,
      env: { ...process.env, RELAY_PASSPHRASE: PASSPHRASE },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: unknown[] = [];
  let out = '';
  let err = '';
  proc.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
      lines.push(JSON.parse(out.slice(0, nl)));
      out = out.slice(nl + 1);
    }
  });
  const exited = new Promise<number | null>((resolve) => proc.once('close', resolve));
  const started = new Promise<void>((resolve, reject) => {
    proc.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      if (err.includes('"following":true')) resolve();
    });
    void exited.then((code) => reject(new Error(`sync --follow ended (${code}): ${err}`)));
  });
  return {
    lines,
    started,
    stop: () => {
      proc.kill('SIGTERM');
      return exited;
    },
  };
}

describe('history from the CLI', () => {
  it('history send to a new device of the wallet; its sync imports the conversations', async () => {
    const relay = await startRelay();
    const a = tempDir('cli-hist-a');
    const b = tempDir('cli-hist-bob');
    const c = tempDir('cli-hist-new');
    const alice = await cliOk<{ address: string; deviceKey: string; mnemonic: string }>(a, [
      'init',
      '--relay',
      relay.url,
      '--show-mnemonic',
    ]);
    const bob = await cliOk<{ address: string }>(b, ['init', '--relay', relay.url, '--handle', 'bob_cli_hist']);
    await cliOk(b, ['allow', alice.address]);
    await cliOk(a, ['send', bob.address, 'hello from the old laptop']);
    const fresh = await cliOk<{ address: string; deviceKey: string }>(
      c,
      ['init', '--relay', relay.url, '--mnemonic-env', 'HIST_WORDS'],
      { HIST_WORDS: alice.mnemonic },
    );
    expect(fresh.address).toBe(alice.address);

    const sent = await cli(a, ['history', 'send', fresh.deviceKey]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.json).toEqual([{ history: 'sent', deviceKey: fresh.deviceKey, size: expect.any(Number), blobs: 1 }]);
    expect(sent.stderr).toMatch(/"history":"progress","direction":"send","phase":"upload"/);

    const sync = await cli(c, ['sync', '--json']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.json).toEqual([{ history: 'received', fromDevice: alice.deviceKey, conversations: 1, messages: 1 }]);
    expect(sync.stderr).toMatch(/"phase":"import"/);
    const messages = await cliOk<Array<{ text: string; fromMe: boolean }>>(c, ['messages', `direct:${bob.address}`]);
    expect(messages.map((x) => [x.text, x.fromMe])).toEqual([['hello from the old laptop', true]]);

    const usage = await cli(a, ['history', 'send', 'nope']);
    expect(usage.code).toBe(2);

    // `sync --follow` on yet another device imports history the moment it arrives
    const d = tempDir('cli-hist-follow');
    const third = await cliOk<{ deviceKey: string }>(
      d,
      ['init', '--relay', relay.url, '--mnemonic-env', 'HIST_WORDS'],
      { HIST_WORDS: alice.mnemonic },
    );
    const follower = follow(d);
    try {
      await follower.started;
      expect((await cli(a, ['history', 'send', third.deviceKey])).code).toBe(0);
      await expect
        .poll(() => follower.lines, { timeout: 60_000 })
        .toContainEqual({ history: 'received', fromDevice: alice.deviceKey, conversations: 1, messages: 1 });
    } finally {
      expect(await follower.stop()).toBe(0);
    }
    const imported = await cliOk<Array<{ text: string }>>(d, ['messages', `direct:${bob.address}`]);
    expect(imported.map((x) => x.text)).toEqual(['hello from the old laptop']);
  }, 500_000); // ten CLI processes, each a scrypt, on a shared machine
});
