/**
 * Only `init` creates a profile: any other command pointed at a folder that does not exist
 * fails with a clear error that says to run init, and leaves no folder behind.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, tempDir } from '../../test/harness.js';

afterAll(cleanup);

describe('a --profile folder that does not exist', () => {
  it('is not created by any command but init, and the error says to run init', async () => {
    const missing = join(tempDir('no-profile'), 'typo');
    for (const args of [['whoami'], ['lock'], ['send', '0x' + '11'.repeat(20), 'hi']]) {
      const r = await cli(missing, args);
      expect({ args, code: r.code }).toEqual({ args, code: 1 });
      const err = JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: string; code: string };
      expect(err.code).toBe('no-profile');
      expect(err.error).toContain(missing);
      expect(err.error).toMatch(/run init/);
      expect(existsSync(missing), `${args[0]} created the folder`).toBe(false);
    }
  }, 120_000);
});
