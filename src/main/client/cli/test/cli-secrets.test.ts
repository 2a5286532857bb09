/**
 * What the headless entries do with secrets and refusals: the bot reads its token, and the
 * client a group's password, from an environment variable (a command line is readable by every
 * user of the machine) and warns when given one on the command line; `sync` reports a message
 * that failed its checks on stderr, and never prints it as a message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test-support/sign-in.js';
import { buildDirectFrame } from '../../../vault/sealing/frames.js';
import { buildPayload } from '../../../vault/sealing/payload.js';
import { nodeSealer } from '../../../vault/sealing/sealer-node.js';
import { RelayApi } from '../../network/relay-api.js';
import { cleanup, cli, cliOk, newProfile, runEntry, startRelay, tempDir, type Relay } from '../../test/harness.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
}, 60_000);
afterAll(cleanup);

describe('bot token', () => {
  it('is read from the variable named by --token-env; --token still works but warns that others can read it', async () => {
    const owner = await newProfile(relay.url);
    const group = await owner.m.groups.create({ name: 'Builds', isPublic: false });
    const { token } = await owner.m.groups.mintBotToken({ groupId: group.id, name: 'ci' });

    const fromEnv = await runEntry(
      'bot-cli',
      ['--relay', relay.url, '--token-env', 'CI_BOT_TOKEN', '--group', group.id, 'from the environment'],
      { CI_BOT_TOKEN: token },
    );
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(fromEnv.json[0]).toMatchObject({ groupId: group.id, via: 'group-token' });
    expect(fromEnv.stderr).not.toContain('warning');

    const onCommandLine = await runEntry('bot-cli', [
      '--relay',
      relay.url,
      '--token',
      token,
      '--group',
      group.id,
      'from argv',
    ]);
    expect(onCommandLine.code, onCommandLine.stderr).toBe(0);
    expect(onCommandLine.stderr).toMatch(/warning: --token .*other users of this computer can read .*--token-env/);

    const unset = await runEntry(
      'bot-cli',
      ['--relay', relay.url, '--token-env', 'NO_SUCH_VARIABLE_SET', '--group', group.id, 'x'],
      { NO_SUCH_VARIABLE_SET: undefined },
    );
    expect(unset.code).toBe(2);
    expect(JSON.parse(unset.stderr.split('\n')[0])).toMatchObject({
      code: 'usage',
      error: expect.stringContaining('NO_SUCH_VARIABLE_SET'),
    });

    const both = await runEntry(
      'bot-cli',
      ['--relay', relay.url, '--token', token, '--token-env', 'CI_BOT_TOKEN', '--group', group.id, 'x'],
      { CI_BOT_TOKEN: token },
    );
    expect(both.code).toBe(2);
  }, 120_000);
});

describe('sync on the command line', () => {
  it('reports a message that failed its checks on stderr, and prints only the honest one', async () => {
    const profile = tempDir('cli-rejects');
    const me = await cliOk<{ address: string; deviceKey: string }>(profile, ['init', '--relay', relay.url]);
    const mallory = await signIn(relay.url, 'mallory');
    const api = new RelayApi({ baseUrl: relay.url, credential: mallory.apiKey });
    try {
      const post = async (fields: Record<string, unknown>) => {
        const m = JSON.stringify({
          id: globalThis.crypto.randomUUID(),
          kind: 'text',
          sentAt: new Date().toISOString(),
          from: mallory.address,
          device: mallory.deviceKey,
          ...fields,
        });
        const sealed = nodeSealer.seal(
          me.deviceKey,
          buildDirectFrame(buildPayload(m, await mallory.account.signMessage({ message: m }))),
        );
        await api.send([{ toAddress: me.address, recipientDeviceKey: me.deviceKey, ...sealed }]);
      };
      await post({ text: 'meant for nobody in particular' }); // no `to`
      await post({ text: 'hello', to: me.address });
    } finally {
      api.close();
    }
    const sync = await cli(profile, ['sync', '--json']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.json).toEqual([expect.objectContaining({ from: mallory.address, text: 'hello' })]);
    const reports = sync.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => 'rejected' in l);
    expect(reports).toEqual([
      {
        rejected: expect.any(String),
        claimedSender: mallory.address,
        reason: expect.stringMatching(/names no recipient/),
      },
    ]);
  }, 120_000);
});

const lastError = (stderr: string) => JSON.parse(stderr.trim().split('\n').at(-1)!) as { code: string; error: string };

describe('group password', () => {
  it('is read from the variable named by --password-env; --password still works but warns that others can read it', async () => {
    const owner = tempDir('cli-gp-owner');
    const joiner = tempDir('cli-gp-joiner');
    const other = tempDir('cli-gp-other');
    for (const dir of [owner, joiner, other]) await cliOk(dir, ['init', '--relay', relay.url]);

    const made = await cli(owner, ['group', 'create', 'Team', '--public', '--password-env', 'GROUP_PW'], {
      GROUP_PW: 'open sesame',
    });
    expect(made.code, made.stderr).toBe(0);
    const group = made.json[0] as { id: string; hasPassword: boolean };
    expect(group.hasPassword).toBe(true);
    expect(made.stderr).not.toContain('warning');

    const wrong = await cli(joiner, ['group', 'join', group.id, '--password-env', 'GROUP_PW'], { GROUP_PW: 'nope' });
    expect(wrong.code).toBe(1);
    expect(lastError(wrong.stderr).code).toMatch(/(^|\.)wrong-password$/);
    const joined = await cli(joiner, ['group', 'join', group.id, '--password-env', 'GROUP_PW'], {
      GROUP_PW: 'open sesame',
    });
    expect(joined.code, joined.stderr).toBe(0);
    expect((joined.json[0] as { memberCount: number }).memberCount).toBe(2);
    expect(joined.stderr).not.toContain('warning');

    const onCommandLine = await cli(other, ['group', 'join', group.id, '--password', 'open sesame']);
    expect(onCommandLine.code, onCommandLine.stderr).toBe(0);
    expect(onCommandLine.stderr).toMatch(
      /warning: --password .*other users of this computer can read .*--password-env/,
    );

    const unset = await cli(other, ['group', 'join', group.id, '--password-env', 'NO_SUCH_VARIABLE_SET'], {
      NO_SUCH_VARIABLE_SET: undefined,
    });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('NO_SUCH_VARIABLE_SET');
    const both = await cli(other, ['group', 'join', group.id, '--password', 'x', '--password-env', 'GROUP_PW'], {
      GROUP_PW: 'open sesame',
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('either --password-env VAR or --password');
  }, 240_000);
});
