/**
 * The CLI's remembered unlock (vault/keys/unlock-ticket.ts) as a user meets it: commands in a row
 * leave 0600 tickets in a private runtime folder (never the profile folder, so never a backup
 * of it), a wrong passphrase is still refused, `lock` and `--unlock-ttl 0` forget them, and a
 * bad --unlock-ttl is a usage error.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, cliOk, startRelay, tempDir, type Relay } from '../../test/harness.js';
import { LOWER_ADDRESS } from '../../../../shared/identity-patterns.js';
import { readBackupFile } from '../../backup/backup-file.js';

let relay: Relay | null = null;
afterAll(async () => {
  await relay?.stop();
  await cleanup();
});

// no per-user runtime folder (root, cron, containers): the tickets go to a folder of ours in the
// temporary folder, here one of this test's own
const TMP = tempDir('cli-unlock-tmp');
const NO_RUNTIME_DIR = { XDG_RUNTIME_DIR: undefined, TMPDIR: TMP };
const TICKETS = join(TMP, `relay-messenger-${process.getuid!()}`);

/** Every file under `dir`, as one string per file. */
function contentsUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'latin1'));
}

describe('CLI unlock tickets', () => {
  it('remembers an unlock between commands, refuses a wrong passphrase, and forgets on lock or --unlock-ttl 0', async () => {
    relay = await startRelay();
    const dir = tempDir('cli-unlock');
    await cliOk(dir, ['init', '--relay', relay.url], NO_RUNTIME_DIR);

    const me = await cliOk<{ address: string }>(dir, ['whoami'], NO_RUNTIME_DIR);
    expect(me.address).toMatch(LOWER_ADDRESS);
    const tickets = readdirSync(TICKETS).map((f) => join(TICKETS, f));
    expect(tickets.map((t) => t.slice(TICKETS.length + 1)).sort()).toEqual([
      expect.stringMatching(/^unlock-api-key-[0-9a-f]{24}\.json$/),
      expect.stringMatching(/^unlock-vault-[0-9a-f]{24}\.json$/),
    ]);
    expect(statSync(TICKETS).mode & 0o777).toBe(0o700);
    for (const t of tickets) expect(statSync(t).mode & 0o777).toBe(0o600);

    // nothing of a ticket is in the profile folder, nor in a backup of the profile
    const secrets = tickets.map((t) => (JSON.parse(readFileSync(t, 'utf8')) as { ct: string }).ct);
    for (const text of contentsUnder(dir)) for (const ct of secrets) expect(text).not.toContain(ct);
    expect(readdirSync(dir, { recursive: true }).filter((f) => /unlock-/.test(String(f)))).toEqual([]);
    const backup = join(tempDir('cli-unlock-backup'), 'profile.relaybackup');
    await cliOk(dir, ['backup', '--out', backup, '--backup-passphrase-env', 'BACKUP_PASS'], {
      ...NO_RUNTIME_DIR,
      BACKUP_PASS: 'backup passphrase',
    });
    const pieces: Buffer[] = [];
    for await (const piece of readBackupFile(backup, 'backup passphrase')) pieces.push(Buffer.from(piece));
    const archive = Buffer.concat(pieces).toString('latin1');
    expect(archive).toContain('relay-archive');
    for (const ct of secrets) expect(archive).not.toContain(ct);
    expect(archive).not.toContain('unlock-');
    expect((await cliOk<{ address: string }>(dir, ['whoami'], NO_RUNTIME_DIR)).address).toBe(me.address);

    const wrong = await cli(dir, ['whoami'], { ...NO_RUNTIME_DIR, RELAY_PASSPHRASE: 'not the passphrase' });
    expect(wrong.code).toBe(1);
    // (the code's prefix is being unified between CLI and app: either spelling names the cause)
    expect((JSON.parse(wrong.stderr.trim().split('\n').at(-1)!) as { code: string }).code).toMatch(/^bad-passphrase$/);

    expect(await cliOk(dir, ['lock'], NO_RUNTIME_DIR)).toEqual({ locked: true });
    for (const t of tickets) expect(existsSync(t)).toBe(false);

    expect((await cliOk<{ address: string }>(dir, ['--unlock-ttl', '0', 'whoami'], NO_RUNTIME_DIR)).address).toBe(
      me.address,
    );
    for (const t of tickets) expect(existsSync(t)).toBe(false);

    const bad = await cli(dir, ['--unlock-ttl', 'soon', 'whoami'], NO_RUNTIME_DIR);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--unlock-ttl must be a whole number/);
  }, 240_000);
});
