/**
 * The relay a profile uses lives in one place, the profile's database: a switch survives a
 * restart from there, app-settings.json keeps only the built-in relay's own switches, and an
 * older settings file that still names a relay hands it to the profile once.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppServices } from '../app-services.js';
import { DEFAULT_SETTINGS, writeSettings } from '../app-settings.js';
import { sourceRelayLauncher } from '../relay-launcher.js';

const dirs: string[] = [];
const open: AppServices[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'relay-choice-test-'));
  dirs.push(d);
  return d;
}

async function start(dir: string): Promise<AppServices> {
  const s = await AppServices.start({
    dataDir: dir,
    shell: 'web',
    relayLauncher: sourceRelayLauncher(),
    openExternal: async () => undefined,
  });
  open.push(s);
  return s;
}

async function close(s: AppServices): Promise<void> {
  open.splice(open.indexOf(s), 1);
  await s.close();
}

const settingsFile = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'app-settings.json'), 'utf8')) as Record<string, unknown>;

/** Another profile's built-in relay, serving as "a relay somewhere" at an http:// address. */
async function otherRelay(): Promise<string> {
  const host = await start(dataDir());
  await host.handlers['relay.setLocal']({ enabled: true });
  const url = host.relayStatus().local.url;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
  return url!;
}

describe('the relay choice', { timeout: 120_000 }, () => {
  it('a switch to another relay survives a restart from the profile, and app-settings.json names no relay', async () => {
    const elsewhere = await otherRelay();
    const dir = dataDir();
    const first = await start(dir);
    await first.handlers['wallet.create']({ passphrase: '' });
    await first.handlers['relay.connect']({ mode: 'local' });
    expect(first.relayStatus()).toMatchObject({ mode: 'local', connected: true });
    await first.handlers['relay.connect']({ mode: 'url', url: elsewhere });
    await close(first);

    expect(settingsFile(dir)).not.toHaveProperty('relay');
    const again = await start(dir);
    expect(again.relayStatus()).toMatchObject({ mode: 'url', url: new URL(elsewhere).origin });
    // the built-in relay served the profile before the switch; now it has no one to serve
    expect(again.relayStatus().local.running).toBe(false);
  });

  it('a relay named by an older app-settings.json is adopted once by a profile that has none', async () => {
    const elsewhere = await otherRelay();
    const dir = dataDir();
    const first = await start(dir);
    await first.handlers['wallet.create']({ passphrase: '' });
    expect(first.relayStatus().mode).toBe(null);
    await close(first);
    writeSettings(dir, { ...DEFAULT_SETTINGS, localRelay: { ...DEFAULT_SETTINGS.localRelay, enabled: false } });
    writeFileSync(
      join(dir, 'app-settings.json'),
      JSON.stringify({ ...settingsFile(dir), relay: { mode: 'url', url: elsewhere, fingerprint: null } }),
    );

    const again = await start(dir);
    expect(again.relayStatus()).toMatchObject({ mode: 'url', url: new URL(elsewhere).origin });
    expect(settingsFile(dir)).not.toHaveProperty('relay');
  });
});
