/**
 * The relay step as a new user meets it: an address typed without a scheme is completed with
 * the scheme that will be used, a relay that cannot be reached says why behind Details, and the
 * three choices are one radio group for the arrow keys.
 */
import type { Page } from '@playwright/test';
import { confirmWords } from './flows.js';
import { expect, test } from './fixtures.js';

async function toRelayStep(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Create a new wallet' }).click();
  const phrase = page.getByRole('list', { name: 'Recovery phrase' });
  await expect(phrase.getByRole('listitem')).toHaveCount(12);
  const words = (await phrase.locator('.phrase-word').allTextContents()).map((w) => w.trim());
  await page.getByLabel('I have written these words down somewhere safe').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await confirmWords(page, words);
  await expect(page.getByRole('heading', { name: 'Choose your relay' })).toBeVisible();
}

test('a relay address: the suggested scheme is the one used, and an unreachable relay has Details', async ({
  app,
}, testInfo) => {
  const { page } = await app('alice');
  await toRelayStep(page);
  await page.getByRole('radio', { name: 'A relay address' }).click();
  const url = page.getByLabel('Relay URL');
  // a relay on this computer (the built-in one, `npm run relay`) speaks plain http
  await url.fill('127.0.0.1:39436');
  await expect(page.locator('#relay-url-problem')).toContainText('http://127.0.0.1:39436');
  await expect(page.locator('#relay-url-problem')).not.toContainText('https://127.0.0.1');
  await url.fill('localhost:39436');
  await expect(page.locator('#relay-url-problem')).toContainText('http://localhost:39436');
  // a name elsewhere is reached over https
  await url.fill('relay.example.org');
  await expect(page.locator('#relay-url-problem')).toContainText('https://relay.example.org');

  // nothing listens on port 9 here: the plain sentence, and the technical reason behind Details
  await url.fill('http://127.0.0.1:9');
  await page.getByRole('button', { name: 'Connect' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText("Can't reach the relay");
  const details = page.getByText('Details', { exact: true });
  await expect(details).toBeVisible();
  await details.click();
  await expect(page.locator('.error-details code')).toContainText(/ECONNREFUSED|refused|connect/i);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: testInfo.outputPath(`relay-details-${scheme}.png`) });
  }
});

test('the relay choices are one radio group: the arrows move between them only', async ({ app }) => {
  const { page } = await app('alice');
  await toRelayStep(page);
  const local = page.getByRole('radio', { name: 'This computer' });
  const lan = page.getByRole('radio', { name: 'A relay on my network' });
  const address = page.getByRole('radio', { name: 'A relay address' });
  await local.focus();
  await page.keyboard.press('ArrowDown');
  await expect(lan).toBeChecked();
  await expect(lan).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(address).toBeChecked();
  await expect(address).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(lan).toBeFocused();
  // typing on a radio lands in no field
  await page.keyboard.type('abc');
  await expect(page.getByRole('textbox', { name: 'Fingerprint' })).toHaveValue('');
  await expect(page.getByLabel('Relay URL')).toHaveValue('');
  // a click on a choice that needs an address puts the cursor in its box
  await address.click();
  await expect(page.getByLabel('Relay URL')).toBeFocused();
});
