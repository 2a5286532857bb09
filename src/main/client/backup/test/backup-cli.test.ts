/**
 * `backup` and `restore` as QA drives them: Alice backs up her profile, sets up a new one from
 * her recovery phrase and restores into it: the same conversation and messages. A wrong
 * passphrase is a clear refusal (exit 1, its code), and so is a restore into a profile with history.
 * Like a script, every command passes the profile's passphrase the one way (--passphrase-env),
 * and the backup file's has its own flag (--backup-passphrase-env). A relay that cannot be
 * reached is refused by `init` before it replaces the profile's.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, cliOk, startRelay, tempDir, type Relay } from '../../test/harness.js';

let relay: Relay | null = null;
afterAll(async () => {
  await relay?.stop();
  await cleanup();
});

interface Msg {
  id: string;
  text: string;
  sentAt: string;
}

describe('CLI backup and restore', () => {
  it('restores a backup into a new profile of the same wallet', async () => {
    relay = await startRelay();
    const a = tempDir('cli-backup-alice');
    const b = tempDir('cli-backup-bob');
    // Alice's profile has its own passphrase, passed by name on every command
    const mine = ['--passphrase-env', 'ALICE_PROFILE'];
    const own = { ALICE_PROFILE: 'alice profile passphrase', RELAY_PASSPHRASE: 'not hers' };
    const alice = await cliOk<{ address: string; mnemonic: string }>(
      a,
      [...mine, 'init', '--relay', relay.url, '--handle', 'alice_bk', '--show-mnemonic'],
      own,
    );
    // a dead relay is tried and refused; the profile stays on the one it has
    const dead = await cli(a, [...mine, 'init', '--relay', 'http://127.0.0.1:9'], own);
    expect(dead.code).toBe(1);
    expect(JSON.parse(dead.stderr.trim().split('\n').at(-1)!)).toMatchObject({ code: 'network' });
    expect(await cliOk(a, [...mine, 'whoami'], own)).toMatchObject({ relay: relay.url });
    const bob = await cliOk<{ address: string }>(b, ['init', '--relay', relay.url, '--handle', 'bob_bk']);
    await cliOk(b, ['allow', alice.address]);
    await cliOk(a, [...mine, 'send', '@bob_bk', 'first, before the backup'], own);
    await cliOk(a, [...mine, 'send', '@bob_bk', 'second: ünïcode ✓'], own);
    const file = join(tempDir('cli-backup-out'), 'alice.relaybackup');
    const env = { ...own, BACKUP_PASS: 'backup passphrase 1' };
    const unnamed = await cli(a, [...mine, 'backup', '--out', file], env);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain('--backup-passphrase-env VAR');
    const made = await cli(a, [...mine, 'backup', '--out', file, '--backup-passphrase-env', 'BACKUP_PASS'], env);
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ savedTo: file, conversations: 1, messages: 2, files: 0 });
    expect(made.stderr).toContain('"progress":100');

    const a2 = tempDir('cli-backup-alice2');
    await cliOk(a2, [...mine, 'init', '--relay', relay.url, '--mnemonic-env', 'ALICE_WORDS'], {
      ...own,
      ALICE_WORDS: alice.mnemonic,
    });
    const wrong = await cli(a2, [...mine, 'restore', '--in', file, '--backup-passphrase-env', 'BACKUP_PASS'], {
      ...own,
      BACKUP_PASS: 'not the passphrase',
    });
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stderr.trim().split('\n').at(-1)!)).toMatchObject({ code: 'backup-wrong-passphrase' });

    expect(await cliOk(a2, [...mine, 'restore', '--in', file, '--backup-passphrase-env', 'BACKUP_PASS'], env)).toEqual({
      conversations: 1,
      messages: 2,
      files: 0,
    });
    const before = await cliOk<Msg[]>(a, [...mine, 'messages', `direct:${bob.address}`], own);
    const after = await cliOk<Msg[]>(a2, [...mine, 'messages', `direct:${bob.address}`], own);
    expect(after).toEqual(before);
    expect(after.map((m) => m.text)).toEqual(['first, before the backup', 'second: ünïcode ✓']);

    const again = await cli(a2, [...mine, 'restore', '--in', file, '--backup-passphrase-env', 'BACKUP_PASS'], env);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr.trim().split('\n').at(-1)!)).toMatchObject({ code: 'backup-not-new-profile' });
  }, 400_000);
});
