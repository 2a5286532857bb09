import { createAccount, goTo, messages } from './flows.js';
import { expect, test } from './fixtures.js';
import type { Page } from '@playwright/test';

async function sendRequest(page: Page, handle: string, intro: string): Promise<void> {
  await goTo(page, 'Directory');
  await page.getByLabel('Search the directory').fill(handle);
  await page.getByRole('button', { name: `Send request to @${handle}` }).click();
  const dialog = page.getByRole('dialog', { name: `Send a request to @${handle}` });
  await dialog.getByLabel('Intro').fill(intro);
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog).toBeHidden();
}

test('contact requests: accept, decline and block', async ({ relay, app }) => {
  const carol = await app('carol');
  const dave = await app('dave');
  const erin = await app('erin');
  const frank = await app('frank');
  await createAccount(carol.page, { relayUrl: relay.url, handle: 'carol' });
  await createAccount(dave.page, { relayUrl: relay.url, handle: 'dave' });
  await createAccount(erin.page, { relayUrl: relay.url, handle: 'erin' });
  await createAccount(frank.page, { relayUrl: relay.url, handle: 'frank' });

  await sendRequest(dave.page, 'carol', 'Hi Carol, Dave from the design team.');
  await sendRequest(erin.page, 'carol', 'Hello! Erin here, selling crypto courses.');
  await sendRequest(frank.page, 'carol', 'Buy now!!!');

  await goTo(carol.page, 'Requests');
  const list = carol.page.getByRole('list', { name: 'Contact requests' });
  await expect(list.getByRole('article')).toHaveCount(3);
  await expect(carol.page.getByRole('article', { name: 'Request from @dave' })).toContainText(
    'Dave from the design team',
  );

  // Decline: the request goes away.
  await carol.page.getByRole('button', { name: 'Decline @erin' }).click();
  await expect(carol.page.getByRole('article', { name: 'Request from @erin' })).toBeHidden();
  // Block: gone, and frank's later messages are refused by the relay.
  await carol.page.getByRole('button', { name: 'Block @frank' }).click();
  await carol.page
    .getByRole('dialog', { name: 'Block @frank?' })
    .getByRole('button', { name: 'Block', exact: true })
    .click();
  await expect(carol.page.getByRole('article', { name: 'Request from @frank' })).toBeHidden();
  // Accept: the conversation opens with the intro in it.
  await carol.page.getByRole('button', { name: 'Accept @dave' }).click();
  await expect(messages(carol.page).getByText('Hi Carol, Dave from the design team.')).toBeVisible();
  await goTo(carol.page, 'Requests');
  await expect(carol.page.getByRole('heading', { name: 'No requests' })).toBeVisible();

  // Frank tries again and is told plainly that it was not delivered.
  await goTo(frank.page, 'Chats');
  await frank.page
    .getByRole('list', { name: 'Conversation list' })
    .getByRole('button', { name: /@carol/ })
    .click();
  const box = frank.page.getByRole('textbox', { name: 'Message' });
  await box.fill('Hello??');
  await box.press('Enter');
  await expect(
    messages(frank.page).getByText('Not delivered: @carol is not accepting messages from you.'),
  ).toBeVisible();
});
