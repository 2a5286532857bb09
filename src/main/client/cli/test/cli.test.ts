/**
 * The headless CLI and the bot CLI as QA drives them: real child processes against the real
 * relay CLI, JSON on stdout. Covers init, requests, allow, inbox, groups, a bot post, block,
 * policy, usage errors, and a send while the relay is down that the outbox delivers after
 * the relay restarts on the same port and data.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTs, type Child } from '../../../test-support/child-process.js';
import { ROOT, cleanup, cli, cliOk, runEntry, tempDir } from '../../test/harness.js';
import { LOWER_ADDRESS } from '../../../../shared/identity-patterns.js';

const RELAY_ENTRY = join(ROOT, 'src/main/relay/cli.ts');
let relay: Child | null = null;
afterAll(async () => {
  await relay?.stop();
  await cleanup();
});

function startRelayCli(dataDir: string, port: number): Promise<Child> {
  return startTs(
    RELAY_ENTRY,
    ['--host', '127.0.0.1', '--port', String(port), '--data', dataDir, '--rate-limit', '0'],
    /relay listening on (\S+)/,
  );
}

interface Line {
  id: string;
  from: string;
  groupId: string | null;
  routed: string;
  kind: string;
  text: string;
  sentAt: string;
  via: string | null;
}

describe('headless client CLI', () => {
  it('runs a whole conversation, a group and a bot from the command line', async () => {
    const data = tempDir('relay-cli');
    relay = await startRelayCli(data, 0);
    const url = relay.ready;
    const port = Number(new URL(url).port);
    const a = tempDir('cli-alice');
    const b = tempDir('cli-bob');

    const [alice, bob] = await Promise.all([
      cliOk<{ address: string; deviceKey: string; handle: string }>(a, [
        'init',
        '--relay',
        url,
        '--handle',
        'alice_cli',
      ]),
      cliOk<{ address: string; deviceKey: string; handle: string }>(b, ['init', '--relay', url, '--handle', 'bob_cli']),
    ]);
    expect(alice).toEqual({
      address: expect.stringMatching(LOWER_ADDRESS),
      deviceKey: expect.stringMatching(/^[0-9a-f]{64}$/),
      handle: 'alice_cli',
    });
    expect(bob.handle).toBe('bob_cli');

    // a stranger's first message is a request
    const first = await cliOk<{ routed: string; to: string; devices: Array<{ deviceKey: string; routed: string }> }>(
      a,
      ['send', '@bob_cli', 'hi', 'bob'],
    );
    expect(first).toMatchObject({
      to: bob.address,
      routed: 'request',
      devices: [{ deviceKey: bob.deviceKey, routed: 'request' }],
    });
    let sync = await cli(b, ['sync', '--json']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.json).toEqual([
      {
        id: expect.any(String),
        from: alice.address,
        groupId: null,
        routed: 'request',
        kind: 'text',
        text: 'hi bob',
        sentAt: expect.any(String),
        via: null,
        botName: null,
      },
    ]);
    expect(await cliOk<unknown[]>(b, ['requests'])).toEqual([
      expect.objectContaining({ address: alice.address, intro: 'hi bob' }),
    ]);

    // allowed: later messages reach the inbox
    expect(await cliOk(b, ['allow', alice.address])).toEqual({ ok: true, allowed: alice.address });
    expect(await cliOk(a, ['send', bob.address, 'now in your inbox'])).toMatchObject({ routed: 'inbox' });
    sync = await cli(b, ['sync', '--json']);
    expect((sync.json as Line[]).map((l) => [l.text, l.routed])).toEqual([['now in your inbox', 'inbox']]);

    // a group with a bot
    const group = await cliOk<{ id: string; name: string; isCreator: boolean }>(b, ['group', 'create', 'CLI', 'team']);
    expect(group).toMatchObject({ name: 'CLI team', isCreator: true });
    expect(await cliOk(b, ['group', 'add', group.id, alice.address])).toMatchObject({
      members: expect.arrayContaining([alice.address, bob.address]),
    });
    const { token } = await cliOk<{ token: string }>(b, ['group', 'token', group.id, 'helper']);
    expect(token).toMatch(/^gtk_live_/);
    const bot = await runEntry(
      'bot-cli',
      ['--relay', url, '--token-env', 'BOT_TOKEN', '--group', group.id, 'build', 'passed'],
      { BOT_TOKEN: token },
    );
    expect(bot.code, bot.stderr).toBe(0);
    const post = bot.json[0] as { from: string; via: string; relaySender: string; devices: unknown[] };
    expect(post).toMatchObject({ via: 'group-token', relaySender: bob.address });
    expect(post.devices).toHaveLength(2);
    expect(await cliOk(a, ['group', 'send', group.id, 'thanks bot'])).toMatchObject({ state: 'sent', routed: 'inbox' });

    sync = await cli(a, ['sync', '--json']);
    expect((sync.json as Line[]).map((l) => [l.from, l.groupId, l.text, l.via])).toEqual([
      [post.from, group.id, 'build passed', 'group-token'],
    ]);
    sync = await cli(b, ['sync', '--json']);
    expect((sync.json as Line[]).map((l) => [l.from, l.text])).toEqual([
      [post.from, 'build passed'],
      [alice.address, 'thanks bot'],
    ]);

    // block, policy, usage
    await cliOk(b, ['block', alice.address]);
    const blocked = await cli(a, ['send', bob.address, 'blocked?']);
    expect(blocked.code).toBe(1);
    expect(blocked.json[0]).toMatchObject({ state: 'blocked', routed: 'blocked' });
    // this relay names no chain: nobody could pay a stake, so the policy is refused
    const gate = await cli(a, ['policy', 'stake-gate', '--stake', '0.2']);
    expect(gate.code).not.toBe(0);
    expect(gate.stderr).toContain('takes no stakes');
    expect(await cliOk(a, ['policy', 'block'])).toEqual({ unknownSenders: 'block', stake: null });
    expect(await cliOk(a, ['whoami'])).toEqual({
      address: alice.address,
      deviceKey: alice.deviceKey,
      handle: 'alice_cli',
      relay: url,
    });
    const usage = await cli(a, ['frobnicate']);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stderr.split('\n')[0])).toMatchObject({ code: 'usage' });
    const wrongPass = await cli(a, ['whoami'], { RELAY_PASSPHRASE: 'not the passphrase' });
    expect(wrongPass.code).toBe(1);
    expect(JSON.parse(wrongPass.stderr.trim().split('\n').at(-1)!)).toEqual({
      code: 'bad-passphrase',
      error: 'That passphrase is not right.',
    });

    // relay down: the send is queued; after a restart on the same port and data it goes out
    await relay.stop();
    const queued = await cliOk<{ state: string; messageId: string }>(b, [
      'send',
      alice.address,
      'sent while the relay was down',
    ]);
    expect(queued.state).toBe('queued');
    relay = await startRelayCli(data, port);
    const flushed = await cli(b, ['outbox']);
    expect(flushed.code, flushed.stderr).toBe(0);
    expect(flushed.json).toEqual([
      expect.objectContaining({ messageId: queued.messageId, state: 'sent', routed: 'inbox' }),
    ]);
    sync = await cli(a, ['sync', '--json']);
    expect((sync.json as Line[]).map((l) => [l.id, l.text])).toEqual([
      [queued.messageId, 'sent while the relay was down'],
    ]);
  }, 400_000);
});
