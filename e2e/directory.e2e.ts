import { createAccount, goTo, messages } from './flows.js';
import { expect, test } from './fixtures.js';

test('directory: search by handle or address as you type, verified badge, start a chat', async ({ relay, app }) => {
  const gina = await app('gina');
  const hank = await app('hank');
  await createAccount(gina.page, { relayUrl: relay.url, handle: 'gina' });
  await createAccount(hank.page, { relayUrl: relay.url, handle: 'hank_the_tank' });
  await relay.admin('verify', 'hank_the_tank');

  await goTo(gina.page, 'Directory');
  const search = gina.page.getByLabel('Search the directory');
  await search.pressSequentially('hank', { delay: 40 });
  const result = gina.page.getByRole('article', { name: '@hank_the_tank' });
  await expect(result).toBeVisible();
  await expect(result.getByRole('img', { name: 'Verified' })).toBeVisible();

  // By address fragment.
  await goTo(hank.page, 'Settings');
  const address = (await hank.page
    .getByRole('region', { name: 'Profile' })
    .locator('code')
    .first()
    .textContent())!.trim();
  await search.fill(address.slice(2, 12));
  await expect(gina.page.getByRole('article', { name: '@hank_the_tank' })).toBeVisible();

  // Nobody: a plain empty state.
  await search.fill('zzzz_nobody');
  await expect(gina.page.getByRole('heading', { name: /Nobody matches/ })).toBeVisible();

  await search.fill('hank');
  await gina.page.getByRole('button', { name: 'Message @hank_the_tank' }).click();
  await expect(gina.page.getByRole('region', { name: 'Conversation with @hank_the_tank' })).toBeVisible();
  await expect(messages(gina.page)).toContainText('This is the start of your conversation');
});
