/**
 * Issue 29, "first use, second round": each numbered finding, driven the way a new user hit
 * it. One app (and a headless person or two) serves several findings, so the file adds seconds.
 * Every changed screen is checked by axe in light and dark, and shot into /tmp/ux-shots/.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe.js';
import { createAccount, goTo, messageFromDirectory, messages, send } from './flows.js';
import { expect, test } from './fixtures.js';
import { cliOk, tempDir } from './harness.js';

const SHOTS = '/tmp/ux-shots';
mkdirSync(SHOTS, { recursive: true });

/** axe in light and dark, and a picture of each, for a person to look at. */
async function check(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SHOTS}/${name.replace(/\W+/g, '-')}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** A CLI person with a handle on `relayUrl`; returns the profile folder and the recovery phrase. */
async function cliPerson(relayUrl: string, handle: string): Promise<{ profile: string; mnemonic: string; address: string }> {
  const profile = tempDir(`cli-${handle}`);
  const [out] = (await cliOk(profile, ['init', '--relay', relayUrl, '--handle', handle, '--show-mnemonic'])) as Array<{ mnemonic: string; address: string }>;
  return { profile, mnemonic: out.mnemonic, address: out.address };
}

test('1. the message menu works with the mouse: it opens above the next message and inside the window', async ({ relay, app }) => {
  const alice = await app('alice');
  await createAccount(alice.page, { relayUrl: relay.url, handle: 'alice_menu' });
  await cliPerson(relay.url, 'bob_menu');
  await messageFromDirectory(alice.page, 'bob_menu');
  await send(alice.page, 'first, to be edited');
  await send(alice.page, 'second, right under it');
  await send(alice.page, 'third');

  // The older message's menu opens over the newer one below it; the click lands on "Edit".
  const older = messages(alice.page).locator('.msg', { hasText: 'first, to be edited' });
  await older.hover();
  await older.getByRole('button', { name: 'Message actions' }).click();
  const menu = alice.page.getByRole('menu', { name: 'Message actions' });
  await expect(menu).toBeVisible();
  const box = (await menu.boundingBox())!;
  const view = alice.page.viewportSize()!;
  expect(box.x >= 0 && box.y >= 0 && box.x + box.width <= view.width && box.y + box.height <= view.height).toBe(true);
  // what the pointer meets at the middle of each item is that item, not the next message's row
  const hits = await menu.getByRole('menuitem').evaluateAll((items) =>
    items.map((item) => {
      const r = item.getBoundingClientRect();
      return item.contains(item.ownerDocument.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
    }),
  );
  expect(hits).toEqual([true, true]);
  await check(alice.page, 'message menu open');
  await alice.page.getByRole('menuitem', { name: 'Edit' }).click();
  await alice.page.getByRole('textbox', { name: 'Edit message' }).fill('first, edited with the mouse');
  await alice.page.getByRole('textbox', { name: 'Edit message' }).press('Enter');
  await expect(messages(alice.page).getByText('first, edited with the mouse')).toBeVisible();

  // A click elsewhere closes it; so does a second click on its button.
  const second = messages(alice.page).locator('.msg', { hasText: 'second, right under it' });
  await second.hover();
  await second.getByRole('button', { name: 'Message actions' }).click();
  await expect(menu).toBeVisible();
  await second.getByRole('button', { name: 'Message actions' }).click();
  await expect(menu).toBeHidden();
  await second.getByRole('button', { name: 'Message actions' }).click();
  await alice.page.getByRole('textbox', { name: 'Message' }).click();
  await expect(menu).toBeHidden();
});

test('2, 10. a dead relay in Settings is tried, refused and left: the app stays on its relay; offline is said in words, the raw text under Details', async ({ relay, app }) => {
  const sam = await app('sam');
  await createAccount(sam.page, { relayUrl: relay.url, handle: 'sam_stays' });
  await goTo(sam.page, 'Settings');
  const section = sam.page.getByRole('region', { name: 'Relay' });
  await expect(section.getByText('Connected', { exact: true })).toBeVisible();

  // 2. Nothing listens on port 9 of this computer (discard): the switch fails and changes nothing.
  await section.getByRole('button', { name: 'Change relay' }).click();
  await section.getByRole('radio', { name: 'A relay address' }).check();
  await section.getByLabel('Relay URL').fill('http://127.0.0.1:9');
  await section.getByRole('button', { name: 'Switch relay' }).click();
  await expect(section.getByRole('alert')).toContainText("Can't reach the relay");
  await expect(section.getByText(relay.url)).toBeVisible();
  await expect(section.getByText('Connected', { exact: true })).toBeVisible();
  await expect(sam.page.getByText(/Offline/)).toHaveCount(0);
  await check(sam.page, 'settings relay switch refused');
  await section.getByRole('button', { name: 'Cancel' }).click();
  await expect(section.getByRole('button', { name: 'Change relay' })).toBeVisible();
  await expect(section.getByText(relay.url)).toBeVisible();
  await expect(section.getByText('Connected', { exact: true })).toBeVisible();

  // ... and after a restart it is still the relay it was
  await sam.page.goto(await sam.restartProcess());
  await goTo(sam.page, 'Settings');
  await expect(section.getByText(relay.url)).toBeVisible();
  await expect(section.getByText('Connected', { exact: true })).toBeVisible();

  // 10. The relay goes away: the banner says so in words; the network's own text waits under Details.
  await relay.stop();
  const banner = sam.page.getByRole('status').filter({ hasText: /^Offline/ });
  await expect(banner).toContainText("Offline — Can't reach the relay. Check its address, or whether it is running.", { timeout: 60_000 });
  await expect(sam.page.getByText(/ECONNREFUSED/).filter({ visible: true })).toHaveCount(0);
  await banner.getByText('Details').click();
  await expect(banner.getByText(/ECONNREFUSED/)).toBeVisible();
  await check(sam.page, 'offline banner details');
});

/** The page fits the window: nothing to scroll to see the step's buttons. */
async function fitsWindow(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const root = (globalThis as unknown as { document: { scrollingElement: { scrollHeight: number; clientHeight: number } } }).document.scrollingElement;
    return root.scrollHeight <= root.clientHeight;
  });
}

test('3, 5, 11. onboarding keeps the passphrase from welcome to import, says why Connect is off, and every step fits the window', async ({ app }) => {
  const ann = await app('ann-import');
  const p = ann.page;
  expect(await fitsWindow(p)).toBe(true);

  // 3. typed on the welcome screen, still there on the import screen, and it protects the wallet
  await p.getByLabel('Passphrase for this computer (recommended)').fill('correct horse battery');
  await p.getByRole('button', { name: 'I already have a wallet' }).click();
  await expect(p.getByLabel('Passphrase for this computer (recommended)')).toHaveValue('correct horse battery');
  expect(await fitsWindow(p)).toBe(true);
  await check(p, 'onboarding import');
  await p.getByRole('radio', { name: 'Private key' }).check();
  await p.getByRole('textbox', { name: 'Private key' }).fill('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
  await p.getByRole('button', { name: 'Import wallet' }).click();
  await p.getByRole('button', { name: 'Skip' }).click();

  // 5. a mistyped scheme: Connect is off, and says why, before the field is even left
  await expect(p.getByRole('heading', { name: 'Choose your relay' })).toBeVisible();
  expect(await fitsWindow(p)).toBe(true);
  await p.getByRole('radio', { name: 'A relay address' }).check();
  await p.getByLabel('Relay URL').fill('htp://127.0.0.1:7300');
  const connect = p.getByRole('button', { name: 'Connect' });
  await expect(connect).toBeDisabled();
  await expect(connect).toHaveAccessibleDescription('A relay address starts with http:// or https://, not htp://.');
  await expect(p.getByText('A relay address starts with http:// or https://, not htp://.')).toBeVisible();
  expect(await fitsWindow(p)).toBe(true);
  await check(p, 'onboarding relay connect off');

  // the passphrase typed on the welcome screen is the one the wallet now asks for
  await p.goto(await ann.restartProcess());
  await p.getByLabel('Passphrase').fill('correct horse battery');
  await p.getByRole('button', { name: 'Unlock' }).click();
  await expect(p.getByRole('heading', { name: 'Choose your relay' })).toBeVisible();
});
