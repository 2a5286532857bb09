/**
 * The `visual` project: a dozen screens of a first use, light and dark, compared with the
 * baselines committed in e2e/visual-baselines/ (`npm run test:visual:update` rewrites them after
 * a change that is meant), and axe's colour-contrast rule on each of them, the editing state
 * included. Content is fixed so a picture only changes when the app does: the wallets come from
 * fixed recovery phrases (so addresses and avatar colours are the same every run), times and the
 * relay's port are masked, transitions are off, the caret is hidden, and the fonts are pinned to
 * DejaVu, which Debian's fonts-dejavu-core installs (visual.css).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { describeViolations, freezeTransitions, seriousViolations } from './axe.js';
import { contrastRatio } from './contrast.js';
import { chooseRelay, claimHandle, goTo, messageFromDirectory, messages, send } from './flows.js';
import { expect, test } from './fixtures.js';

// Well-known test phrases (never hold funds with them): their addresses are public.
const ALICE_PHRASE = 'test test test test test test test test test test test junk';
const BOB_PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

const STYLE = join(import.meta.dirname, 'visual.css');

function dejavuInstalled(): boolean {
  try {
    return execFileSync('fc-match', ['-f', '%{family}', 'DejaVu Sans'], { encoding: 'utf8' }).includes('DejaVu Sans');
  } catch {
    return false;
  }
}

/** What differs from run to run on any screen: times and toasts (the relay's port is masked where shown). */
function dynamic(page: Page): Locator[] {
  return [page.locator('time'), page.locator('.toasts')];
}

/**
 * The screen in light and dark against its baselines, and its text's contrast in both: axe's
 * rule, and the computed ratio of `controls` drawn on layered backgrounds axe only flags for review.
 */
async function check(page: Page, name: string, mask: Locator[] = [], controls: Locator[] = []): Promise<void> {
  const thaw = await freezeTransitions(page);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.soft(page, `${name} (${scheme})`).toHaveScreenshot(`${name}-${scheme}.png`, {
      mask: [...dynamic(page), ...mask],
      stylePath: STYLE,
    });
    const violations = await seriousViolations(page, ['color-contrast']);
    expect.soft(violations.length, `contrast on "${name}" (${scheme}):\n${describeViolations(violations)}`).toBe(0);
    for (const control of controls) {
      const c = await contrastRatio(control);
      expect.soft(c.ratio, `${name} (${scheme}): ${c.color} on ${c.background}`).toBeGreaterThanOrEqual(4.5);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await thaw();
}

async function importWallet(page: Page, phrase: string): Promise<void> {
  await page.getByRole('button', { name: 'I already have a wallet' }).click();
  await page.getByRole('textbox', { name: 'Recovery phrase' }).fill(phrase);
  await page.getByRole('button', { name: 'Import wallet' }).click();
  await page.getByRole('button', { name: 'Skip' }).click();
}

test('every screen of a first use looks as its baseline, light and dark, with readable contrast', async ({
  relay,
  app,
}) => {
  test.skip(!dejavuInstalled(), 'the pictures are drawn in DejaVu Sans: install fonts-dejavu-core');
  // two apps and 26 pictures, each compared until two in a row agree
  test.setTimeout(480_000);
  const alice = await app('alice');
  const p = alice.page;

  await expect(p.getByRole('button', { name: 'Create a new wallet' })).toBeVisible();
  await check(p, '01-welcome');
  await p.getByRole('button', { name: 'I already have a wallet' }).click();
  await expect(p.getByRole('textbox', { name: 'Recovery phrase' })).toBeVisible();
  await check(p, '02-import');
  await p.getByRole('button', { name: 'Back' }).click();
  await importWallet(p, ALICE_PHRASE);
  await expect(p.getByRole('heading', { name: 'Choose your relay' })).toBeVisible();
  await check(p, '03-relay');
  await p.getByRole('radio', { name: 'A relay address' }).check();
  await p.getByLabel('Relay URL').fill('relay.example.org');
  await expect(p.locator('#relay-url-problem')).toBeVisible();
  await check(p, '04-relay-address-problem');
  await chooseRelay(p, relay.url);
  await expect(p.getByRole('heading', { name: 'Pick a handle' })).toBeVisible();
  await p.getByLabel('Handle', { exact: true }).fill('alice');
  await check(p, '05-handle');
  await claimHandle(p, 'alice');
  await expect(p.getByRole('heading', { name: 'No conversations yet' })).toBeVisible();
  await check(p, '06-chats-empty');

  const bob = await app('bob');
  await importWallet(bob.page, BOB_PHRASE);
  await chooseRelay(bob.page, relay.url);
  await claimHandle(bob.page, 'bob');
  await messageFromDirectory(bob.page, 'alice');
  await send(bob.page, 'Hi Alice, Bob here. Lunch on Friday?');

  await goTo(p, 'Requests');
  await expect(p.getByRole('button', { name: 'Accept @bob' })).toBeVisible();
  await check(p, '07-requests');
  await p.getByRole('button', { name: 'Accept @bob' }).click();
  await send(p, 'Friday works. The usual place at noon?');
  // Bob has the conversation open, so it is read: the tick settles on Read before the picture.
  await expect(messages(p).getByRole('img', { name: 'Read' }).last()).toBeVisible();
  await expect(messages(bob.page).getByText('The usual place at noon?')).toBeVisible();
  await check(p, '08-conversation');

  const mine = messages(p).locator('.msg', { hasText: 'The usual place at noon?' });
  await mine.hover();
  await mine.getByRole('button', { name: 'Message actions' }).click();
  await p.getByRole('menuitem', { name: 'Edit' }).click();
  await expect(p.getByRole('textbox', { name: 'Edit message' })).toBeFocused();
  await check(
    p,
    '09-conversation-editing',
    [],
    [mine.getByRole('button', { name: 'Save' }), mine.getByRole('button', { name: 'Cancel' })],
  );
  await p.keyboard.press('Escape');

  await goTo(p, 'Directory');
  await p.getByLabel('Search the directory').fill('');
  await expect(p.getByRole('article', { name: '@bob' })).toBeVisible();
  await check(p, '10-directory');

  await goTo(p, 'Groups');
  await expect(p.getByRole('button', { name: 'New group' })).toBeVisible();
  await check(p, '11-groups');

  await goTo(p, 'Chats');
  await p.getByRole('button', { name: 'New chat' }).click();
  await expect(p.getByRole('dialog', { name: 'New chat' })).toBeVisible();
  await check(p, '12-new-chat');
  await p.getByRole('dialog', { name: 'New chat' }).getByRole('button', { name: 'Cancel' }).click();

  await goTo(p, 'Settings');
  await expect(p.getByRole('region', { name: 'Profile' })).toBeVisible();
  await check(p, '13-settings', [p.getByText(relay.url)]);
});
