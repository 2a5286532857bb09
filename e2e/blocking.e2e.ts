/**
 * Who someone is to me decides what every screen offers: a request sent shows as sent, a
 * block asks first and can be undone, a blocked person shows nowhere but Settings → Blocked
 * (and the Directory's Unblock), and a contact is offered a message, not a request.
 */
import type { Page } from '@playwright/test';
import { goTo, createAccount, messages } from './flows.js';
import { expect, test } from './fixtures.js';

async function findInDirectory(page: Page, handle: string) {
  await goTo(page, 'Directory');
  await page.getByLabel('Search the directory').fill(handle);
  const row = page.getByRole('article', { name: `@${handle}` });
  await expect(row).toBeVisible();
  return row;
}

function conversationList(page: Page) {
  return page.getByRole('list', { name: 'Conversation list' });
}

test('blocks ask first, can be undone, hide the person everywhere but Settings → Blocked; the directory follows who someone is', async ({
  relay,
  app,
}) => {
  const carol = await app('carol');
  const frank = await app('frank');
  await createAccount(carol.page, { relayUrl: relay.url, handle: 'carol' });
  await createAccount(frank.page, { relayUrl: relay.url, handle: 'frank' });

  // A stranger is offered both; once a request is sent, it says so instead of offering another.
  let row = await findInDirectory(frank.page, 'carol');
  await expect(row.getByRole('button', { name: 'Message @carol' })).toBeVisible();
  await row.getByRole('button', { name: 'Send request to @carol' }).click();
  const dialog = frank.page.getByRole('dialog', { name: 'Send a request to @carol' });
  await dialog.getByLabel('Intro').fill('Hi Carol, Frank from the bakery.');
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog).toBeHidden();
  row = await findInDirectory(frank.page, 'carol');
  await expect(row.getByText('Request sent')).toBeVisible();
  await expect(row.getByRole('button', { name: 'Send request to @carol' })).toHaveCount(0);

  // Block asks first; Cancel changes nothing.
  await goTo(carol.page, 'Requests');
  const card = carol.page.getByRole('article', { name: 'Request from @frank' });
  await expect(card).toContainText('Frank from the bakery');
  await card.getByRole('button', { name: 'Block @frank' }).click();
  let confirm = carol.page.getByRole('dialog', { name: 'Block @frank?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(card).toBeVisible();

  // Blocked, then undone from the notice: the request is back as it was.
  await card.getByRole('button', { name: 'Block @frank' }).click();
  confirm = carol.page.getByRole('dialog', { name: 'Block @frank?' });
  await confirm.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(card).toBeHidden();
  const notice = carol.page.getByRole('status').filter({ hasText: 'Blocked @frank' });
  await notice.getByRole('button', { name: 'Undo' }).click();
  await expect(carol.page.getByRole('article', { name: 'Request from @frank' })).toContainText('Frank from the bakery');

  // Blocked for good: nowhere in Chats, the Directory offers only Unblock, Settings lists him.
  await carol.page.getByRole('button', { name: 'Block @frank' }).click();
  await carol.page
    .getByRole('dialog', { name: 'Block @frank?' })
    .getByRole('button', { name: 'Block', exact: true })
    .click();
  await expect(carol.page.getByRole('heading', { name: 'No requests' })).toBeVisible();
  await goTo(carol.page, 'Chats');
  await expect(conversationList(carol.page).getByRole('button', { name: /@frank/ })).toHaveCount(0);
  await expect(carol.page.getByRole('navigation', { name: 'Main' }).getByLabel(/unread/)).toHaveCount(0);
  row = await findInDirectory(carol.page, 'frank');
  await expect(row.getByRole('button', { name: 'Unblock @frank' })).toBeVisible();
  await expect(row.getByRole('button', { name: /^(Send request|Message|See the request)/ })).toHaveCount(0);
  await goTo(carol.page, 'Settings');
  const blocked = carol.page.getByRole('region', { name: 'Blocked' });
  await expect(blocked.getByRole('listitem')).toHaveCount(1);
  await expect(blocked).toContainText('@frank');

  // What he sends now makes no conversation on her side.
  await goTo(frank.page, 'Chats');
  await conversationList(frank.page)
    .getByRole('button', { name: /@carol/ })
    .click();
  const box = frank.page.getByRole('textbox', { name: 'Message' });
  await box.fill('Hello??');
  await box.press('Enter');
  await expect(messages(frank.page).getByText(/Not delivered/)).toBeVisible();
  await goTo(carol.page, 'Chats');
  await expect(conversationList(carol.page).getByRole('button', { name: /@frank/ })).toHaveCount(0);

  // Unblocked from Settings: his request waits again, and once accepted he is a contact.
  await goTo(carol.page, 'Settings');
  await blocked.getByRole('button', { name: 'Unblock @frank' }).click();
  await expect(blocked).toContainText('You have not blocked anyone.');
  await goTo(carol.page, 'Requests');
  await carol.page.getByRole('button', { name: 'Accept @frank' }).click();
  await expect(messages(carol.page).getByText('Frank from the bakery')).toBeVisible();
  row = await findInDirectory(carol.page, 'frank');
  await expect(row.getByRole('button', { name: 'Message @frank' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Send request to @frank' })).toHaveCount(0);
});
