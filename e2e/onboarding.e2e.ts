import { chooseRelay, claimHandle, createAccount, goTo } from './flows.js';
import { expect, test } from './fixtures.js';

test('create a wallet: the phrase must be confirmed before going on', async ({ relay, app }) => {
  const { page } = await app('alice');
  await page.getByRole('button', { name: 'Create a new wallet' }).click();
  await expect(page.getByRole('list', { name: 'Recovery phrase' }).getByRole('listitem')).toHaveCount(12);
  const words = (
    await page.getByRole('list', { name: 'Recovery phrase' }).locator('.phrase-word').allTextContents()
  ).map((w) => w.trim());
  expect(words).toHaveLength(12);
  // Continue stays off until the user says they wrote it down.
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await page.getByLabel('I have written these words down somewhere safe').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  // The app asks for three words at positions it chose at random; a wrong word is caught, in plain words.
  const asked = (await page.locator('form .field-label').allTextContents()).map((l) => Number(l.replace('Word ', '')));
  expect(asked).toHaveLength(3);
  const [first, ...rest] = asked;
  await page.getByLabel(`Word ${first}`, { exact: true }).fill('wrong');
  for (const n of rest) await page.getByLabel(`Word ${n}`, { exact: true }).fill(words[n - 1]);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('alert')).toContainText(`Word ${first} doesn't match`);
  await page.getByLabel(`Word ${first}`, { exact: true }).fill(words[first - 1]);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { name: 'Choose your relay' })).toBeVisible();
  // "This computer" is the default choice.
  await expect(page.getByRole('radio', { name: 'This computer' })).toBeChecked();
  await chooseRelay(page, relay.url);
  await claimHandle(page, 'alice');
  await expect(page.getByRole('button', { name: /Your profile, @alice/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No conversations yet' })).toBeVisible();
});

test('import a wallet from a recovery phrase and from a private key', async ({ relay, app }) => {
  const first = await app('original');
  const words = await createAccount(first.page, { relayUrl: relay.url, handle: 'original' });
  await goTo(first.page, 'Settings');
  const address = (await first.page
    .getByRole('region', { name: 'Profile' })
    .locator('code')
    .first()
    .textContent())!.trim();
  await first.close();

  // Same phrase on a fresh profile: same address, and the relay still knows the handle.
  const second = await app('restored');
  await second.page.getByRole('button', { name: 'I already have a wallet' }).click();
  await second.page.getByRole('textbox', { name: 'Recovery phrase' }).fill(`  ${words.join('  ').toUpperCase()} `);
  await second.page.getByRole('button', { name: 'Import wallet' }).click();
  // a restore from a backup is offered first (backup.e2e.ts); this story starts fresh
  await second.page.getByRole('button', { name: 'Skip' }).click();
  await expect(second.page.getByText(address)).toBeVisible();
  await chooseRelay(second.page, relay.url);
  await expect(second.page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(second.page.getByRole('button', { name: /Your profile, @original/ })).toBeVisible();

  // A private key: the well-known first Hardhat test key gives its well-known address.
  const third = await app('bykey');
  await third.page.getByRole('button', { name: 'I already have a wallet' }).click();
  await third.page.getByRole('radio', { name: 'Private key' }).check();
  await third.page.getByRole('textbox', { name: 'Private key' }).fill('not a key');
  await third.page.getByRole('button', { name: 'Import wallet' }).click();
  await expect(third.page.getByRole('alert')).toContainText('private key is not valid');
  await third.page
    .getByRole('textbox', { name: 'Private key' })
    .fill('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
  await third.page.getByRole('button', { name: 'Import wallet' }).click();
  await third.page.getByRole('button', { name: 'Skip' }).click();
  await expect(third.page.getByText('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', { exact: false })).toBeVisible();
});
