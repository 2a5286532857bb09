/**
 * Files from the command line: `send --file`, `group send --file`, `sync` printing
 * `files: [{name, mime, size, path}]` once they are saved, and `save-file` writing one out.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, cliOk, startRelay, tempDir } from '../../test/harness.js';

afterAll(cleanup);

describe('files from the CLI', () => {
  it('send --file, group send --file, sync prints the saved files, save-file writes one out', async () => {
    const relay = await startRelay();
    const a = tempDir('cli-files-alice');
    const b = tempDir('cli-files-bob');
    const alice = await cliOk<{ address: string }>(a, ['init', '--relay', relay.url, '--handle', 'alice_files']);
    const bob = await cliOk<{ address: string }>(b, ['init', '--relay', relay.url, '--handle', 'bob_files']);
    await cliOk(b, ['allow', alice.address]);

    const dir = tempDir('cli-files');
    const report = join(dir, 'report.pdf');
    const photo = join(dir, 'photo.png');
    writeFileSync(report, randomBytes(150_000));
    writeFileSync(photo, randomBytes(40_000));
    const sent = await cliOk<{ state: string; routed: string }>(a, [
      'send',
      '@bob_files',
      '--file',
      report,
      '--file',
      photo,
      'the',
      'report',
    ]);
    expect(sent).toMatchObject({ state: 'sent', routed: 'inbox' });

    const group = await cliOk<{ id: string }>(a, ['group', 'create', 'files-team']);
    await cliOk(a, ['group', 'add', group.id, bob.address]);
    await cliOk(a, ['group', 'send', group.id, '--file', photo]);

    const sync = await cli(b, ['sync', '--json']);
    expect(sync.code, sync.stderr).toBe(0);
    const lines = sync.json as Array<{
      id: string;
      text: string;
      groupId: string | null;
      files?: Array<{ name: string; mime: string; size: number; path: string }>;
    }>;
    expect(lines.map((l) => [l.text, l.groupId, l.files?.map((f) => [f.name, f.mime, f.size])])).toEqual([
      [
        'the report',
        null,
        [
          ['report.pdf', 'application/pdf', 150_000],
          ['photo.png', 'image/png', 40_000],
        ],
      ],
      ['', group.id, [['photo.png', 'image/png', 40_000]]],
    ]);
    for (const f of lines.flatMap((l) => l.files ?? [])) expect(f.path.startsWith(join(b, 'files'))).toBe(true);

    const out = join(tempDir('cli-files-out'), 'report.pdf');
    expect(await cliOk(b, ['save-file', lines[0].id, '0', out])).toEqual({ saved: out });
    expect(readFileSync(out).equals(readFileSync(report))).toBe(true);
    // printed once
    expect((await cli(b, ['sync', '--json'])).json).toEqual([]);

    const usage = await cli(a, ['send', '@bob_files', '--file', report, '--request']);
    expect(usage.code).toBe(2);
  }, 400_000); // eight CLI processes, each a scrypt, on a shared machine
});
