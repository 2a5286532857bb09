/**
 * The group password on the command line: a command line is readable by every user of the
 * computer (ps, /proc), so `group create` and `group join` read it from the variable named by
 * --password-env; --password still works and warns; an unset variable or both flags are usage
 * errors.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, cliOk, startRelay, tempDir, type Relay } from '../../test/harness.js';

let relay: Relay | null = null;
afterAll(async () => {
  await relay?.stop();
  await cleanup();
});

const lastError = (stderr: string) => JSON.parse(stderr.trim().split('\n').at(-1)!) as { code: string; error: string };

describe('CLI group passwords', () => {
  it('are read from --password-env; --password works but warns that others can read it', async () => {
    relay = await startRelay();
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
