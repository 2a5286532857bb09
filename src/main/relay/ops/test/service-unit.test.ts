/**
 * The systemd unit in resources/ is one systemd accepts (`systemd-analyze verify`, where that
 * program exists) and keeps the hardening the operations guide promises.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const UNIT = fileURLToPath(new URL('../../../../../resources/relay.service', import.meta.url));
const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
const hasSystemd = analyze.status === 0;

describe('resources/relay.service', () => {
  it('runs as its own user in a state folder, hardened, restarted on failure', () => {
    const text = readFileSync(UNIT, 'utf8');
    for (const line of [
      'User=relay',
      'StateDirectory=relay',
      'ProtectSystem=strict',
      'NoNewPrivileges=yes',
      'Restart=on-failure',
      'ProtectHome=yes',
      'PrivateTmp=yes',
      'Environment=RELAY_DATA=/var/lib/relay',
    ])
      expect(text.split('\n'), line).toContain(line);
  });

  it.skipIf(!hasSystemd)('passes systemd-analyze verify', () => {
    const r = spawnSync('systemd-analyze', ['verify', UNIT], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
