/**
 * History on a new device from the command line: `history send <deviceKey>` on the device that
 * has it, and the new device's `sync` importing it (progress on stderr, the outcome on stdout).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, cliOk, followCli, startRelay, tempDir } from '../../test/harness.js';

afterAll(cleanup);

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
    const follower = followCli(d);
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
