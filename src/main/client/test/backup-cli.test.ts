/**
 * `backup` and `restore` as QA drives them: Alice backs up her profile, sets up a new one from
 * her recovery phrase and restores into it: the same conversation and messages. A wrong
 * passphrase is a clear refusal (exit 1, its code), and so is a restore into a profile with history.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, cliOk, startRelay, tempDir, type Relay } from './harness.js';

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
    const alice = await cliOk<{ address: string; mnemonic: string }>(a, ['init', '--relay', relay.url, '--handle', 'alice_bk', '--show-mnemonic']);
    const bob = await cliOk<{ address: string }>(b, ['init', '--relay', relay.url, '--handle', 'bob_bk']);
    await cliOk(b, ['allow', alice.address]);
    await cliOk(a, ['send', '@bob_bk', 'first, before the backup']);
    await cliOk(a, ['send', '@bob_bk', 'second: ünïcode ✓']);
    const file = join(tempDir('cli-backup-out'), 'alice.relaybackup');
    const env = { BACKUP_PASS: 'backup passphrase 1' };
    const made = await cli(a, ['backup', '--out', file, '--passphrase-env', 'BACKUP_PASS'], env);
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ savedTo: file, conversations: 1, messages: 2, files: 0 });
    expect(made.stderr).toContain('"progress":100');

    const a2 = tempDir('cli-backup-alice2');
    await cliOk(a2, ['init', '--relay', relay.url, '--mnemonic-env', 'ALICE_WORDS'], { ALICE_WORDS: alice.mnemonic });
    const wrong = await cli(a2, ['restore', '--in', file, '--passphrase-env', 'BACKUP_PASS'], { BACKUP_PASS: 'not the passphrase' });
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stderr.trim().split('\n').at(-1)!)).toMatchObject({ code: 'backup-wrong-passphrase' });

    expect(await cliOk(a2, ['restore', '--in', file, '--passphrase-env', 'BACKUP_PASS'], env)).toEqual({ conversations: 1, messages: 2, files: 0 });
    const before = await cliOk<Msg[]>(a, ['messages', `direct:${bob.address}`]);
    const after = await cliOk<Msg[]>(a2, ['messages', `direct:${bob.address}`]);
    expect(after).toEqual(before);
    expect(after.map((m) => m.text)).toEqual(['first, before the backup', 'second: ünïcode ✓']);

    const again = await cli(a2, ['restore', '--in', file, '--passphrase-env', 'BACKUP_PASS'], env);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr.trim().split('\n').at(-1)!)).toMatchObject({ code: 'backup-not-new-profile' });
  }, 400_000);
});
