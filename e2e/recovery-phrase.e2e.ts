/**
 * The recovery phrase cannot be lost: until the person confirms it, a reload or a restart comes
 * back to it (the same words, kept encrypted in the vault, never in the page's storage nor in
 * clear on disk); later, Settings → Security shows it again once the passphrase is typed. A
 * wallet imported from a private key has no phrase, and Settings says so.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { chooseRelay, claimHandle, confirmWords, goTo } from './flows.js';
import { expect, test } from './fixtures.js';

const PASSPHRASE = 'correct horse battery';

async function shownWords(page: Page): Promise<string[]> {
  const phrase = page.getByRole('list', { name: 'Recovery phrase' });
  await expect(phrase.getByRole('listitem')).toHaveCount(12);
  return (await phrase.locator('.phrase-word').allTextContents()).map((w) => w.trim());
}

/** Every file under `dir`, as text, to look for the phrase in clear. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [readFileSync(full).toString('latin1')];
  });
}

test('the recovery phrase survives a reload and a restart until it is confirmed, and Settings shows it after the passphrase', async ({
  relay,
  app,
}) => {
  const a = await app('rita');
  const { page } = a;
  await page.getByLabel('Passphrase for this computer (recommended)').fill(PASSPHRASE);
  await page.getByRole('button', { name: 'Create a new wallet' }).click();
  const words = await shownWords(page);

  // F5 on the phrase: the same phrase again, not the relay step.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Write down your recovery phrase' })).toBeVisible();
  expect(await shownWords(page)).toEqual(words);
  await expect(page.getByRole('list', { name: 'Setup progress' }).locator('[aria-current="step"]')).toHaveText(
    'Recovery',
  );
  // Never in the page's storage, never in clear on disk.
  const stored = (await page.evaluate(
    'JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])',
  )) as string;
  expect(stored).not.toContain(words.slice(0, 3).join(' '));
  for (const text of filesUnder(a.dataDir)) expect(text).not.toContain(words.slice(0, 3).join(' '));

  // The app stops and starts again: after the passphrase, the phrase step is where it left off.
  await page.goto(await a.restartProcess());
  await page.getByLabel('Passphrase').fill(PASSPHRASE);
  await page.getByRole('button', { name: 'Unlock' }).click();
  await expect(page.getByRole('heading', { name: 'Write down your recovery phrase' })).toBeVisible();
  expect(await shownWords(page)).toEqual(words);

  // Confirmed: setup goes on, and a reload no longer comes back to the phrase.
  await page.getByLabel('I have written these words down somewhere safe').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await confirmWords(page, words);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Choose your relay' })).toBeVisible();
  await chooseRelay(page, relay.url);
  await claimHandle(page, 'rita');

  // Later: Settings → Security shows it again, once the passphrase is typed.
  await goTo(page, 'Settings');
  const security = page.getByRole('region', { name: 'Security' });
  await security.getByRole('button', { name: 'Show recovery phrase' }).click();
  const dialog = page.getByRole('dialog', { name: 'Show recovery phrase' });
  await expect(dialog.getByRole('list', { name: 'Recovery phrase' })).toHaveCount(0);
  await dialog.getByLabel('Passphrase').fill('not the passphrase');
  await dialog.getByRole('button', { name: 'Show phrase' }).click();
  await expect(dialog.getByRole('alert')).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Recovery phrase' })).toHaveCount(0);
  await dialog.getByLabel('Passphrase').fill(PASSPHRASE);
  await dialog.getByRole('button', { name: 'Show phrase' }).click();
  expect(await shownWords(page)).toEqual(words);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(security.getByRole('button', { name: 'Show recovery phrase' })).toBeFocused();
});

test('a wallet imported from a private key has no recovery phrase, and Settings says so', async ({ relay, app }) => {
  const { page } = await app('keyed');
  await page.getByRole('button', { name: 'I already have a wallet' }).click();
  await page.getByRole('radio', { name: 'Private key' }).check();
  await page
    .getByRole('textbox', { name: 'Private key' })
    .fill('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
  await page.getByRole('button', { name: 'Import wallet' }).click();
  await page.getByRole('button', { name: 'Skip' }).click();
  await chooseRelay(page, relay.url);
  await claimHandle(page, 'keyed');
  await goTo(page, 'Settings');
  const security = page.getByRole('region', { name: 'Security' });
  await expect(security).toContainText('imported from a private key, so it has no recovery phrase');
  await expect(security.getByRole('button', { name: 'Show recovery phrase' })).toHaveCount(0);
});
