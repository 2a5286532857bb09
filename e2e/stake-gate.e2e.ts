import { createAccount, goTo, messageFromDirectory, messages, send } from './flows.js';
import { expect, test } from './fixtures.js';

test('stake-gate: the sender is told, in plain words, what the recipient asks', async ({ stakeRelay: relay, app }) => {
  const kate = await app('kate');
  const leo = await app('leo');
  await createAccount(kate.page, { relayUrl: relay.url, handle: 'kate' });
  await createAccount(leo.page, { relayUrl: relay.url, handle: 'leo' });

  await goTo(kate.page, 'Settings');
  await kate.page.getByRole('radio', { name: 'Ask for a stake' }).check();
  await kate.page.getByLabel('Stake amount').fill('0.05');
  await kate.page.getByRole('button', { name: 'Save policy' }).click();
  await expect(kate.page.getByRole('status').getByText('Inbox policy saved.')).toBeVisible();

  await messageFromDirectory(leo.page, 'kate');
  await send(leo.page, 'Hi Kate!');
  await expect(messages(leo.page).getByText('Not delivered: @kate asks for a refundable 0.05 ETH stake from new contacts.')).toBeVisible();
  await goTo(kate.page, 'Requests');
  await expect(kate.page.getByRole('heading', { name: 'No requests' })).toBeVisible();
});
