/**
 * Desktop notifications the shell's way: in Electron, main shows them through the
 * shell's `notify` and a click comes back to the page as `notification.clicked` with the
 * conversation to open (none: Requests); in web mode main shows nothing and says so, and the
 * page uses the browser's own (e2e/live-delivery.e2e.ts clicks one of those).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventName } from '../../../shared/ipc.js';
import { AppServices } from '../app-services.js';
import { DEFAULT_SETTINGS, writeSettings } from '../app-settings.js';
import { sourceRelayLauncher } from '../relay-launcher.js';

const dirs: string[] = [];
const open: AppServices[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

type Shown = { title: string; body: string; onClick: () => void };

async function start(shell: 'electron' | 'web', notify?: (n: Shown) => boolean): Promise<AppServices> {
  const dir = mkdtempSync(join(tmpdir(), 'notifications-test-'));
  dirs.push(dir);
  // no embedded relay: notifications need none
  writeSettings(dir, { ...DEFAULT_SETTINGS, localRelay: { ...DEFAULT_SETTINGS.localRelay, enabled: false } });
  const s = await AppServices.start({
    dataDir: dir,
    shell,
    relayLauncher: sourceRelayLauncher(),
    openExternal: async () => undefined,
    ...(notify ? { notify } : {}),
  });
  open.push(s);
  return s;
}

describe('desktop notifications', () => {
  it('in Electron the shell shows them, and a click asks the page to open that conversation, or Requests', async () => {
    const shown: Shown[] = [];
    const s = await start('electron', (n) => (shown.push(n), true));
    const clicked: Array<[EventName, unknown]> = [];
    s.onEvent((event, payload) => {
      if (event === 'notification.clicked') clicked.push([event, payload]);
    });
    const conversationId = `direct:0x${'ab'.repeat(20)}`;
    expect(
      await s.handlers['notifications.show']({ title: '@alice', body: 'Bring the tickets', conversationId }),
    ).toEqual({ shown: true });
    expect(
      await s.handlers['notifications.show']({
        title: 'Contact request from @mia',
        body: 'Open Requests to accept or decline.',
      }),
    ).toEqual({ shown: true });
    expect(shown.map(({ title, body }) => [title, body])).toEqual([
      ['@alice', 'Bring the tickets'],
      ['Contact request from @mia', 'Open Requests to accept or decline.'],
    ]);
    expect(clicked).toEqual([]);
    shown[0].onClick();
    shown[1].onClick();
    expect(clicked).toEqual([
      ['notification.clicked', { conversationId }],
      ['notification.clicked', { conversationId: null }],
    ]);
  });

  it('where the shell cannot show one (web mode, or no notification service) main says so, for the page to use the browser', async () => {
    const web = await start('web');
    expect(await web.handlers['notifications.show']({ title: '@alice', body: 'hi' })).toEqual({ shown: false });
    const unsupported = await start('electron', () => false);
    expect(await unsupported.handlers['notifications.show']({ title: '@alice', body: 'hi' })).toEqual({ shown: false });
  });
});
