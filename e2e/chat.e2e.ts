import { acceptRequest, createAccount, goTo, messageFromDirectory, messages, openConversation, send } from './flows.js';
import { expect, test } from './fixtures.js';

test('two people chat both ways through one relay', async ({ relay, app }) => {
  const alice = await app('alice');
  const bob = await app('bob');
  await createAccount(alice.page, { relayUrl: relay.url, handle: 'alice' });
  await createAccount(bob.page, { relayUrl: relay.url, handle: 'bob' });

  // Alice writes first: bob doesn't know her, so it arrives as a request.
  await messageFromDirectory(alice.page, 'bob');
  await send(alice.page, 'Hi Bob, it is Alice from the meetup');
  await expect(messages(alice.page).getByText('Hi Bob, it is Alice from the meetup')).toBeVisible();
  await expect(messages(alice.page).getByText('Sent as a contact request')).toBeVisible();

  await expect(bob.page.getByRole('button', { name: /^Requests/ })).toContainText('1');
  await acceptRequest(bob.page, 'alice');
  await expect(messages(bob.page).getByText('Hi Bob, it is Alice from the meetup')).toBeVisible();

  // Bob answers; Enter sends, Shift+Enter makes a new line.
  const box = bob.page.getByRole('textbox', { name: 'Message' });
  await box.fill('Hey Alice!');
  await box.press('Shift+Enter');
  await box.pressSequentially('Good to hear from you');
  await expect(box).toHaveValue('Hey Alice!\nGood to hear from you');
  await box.press('Enter');
  await expect(box).toHaveValue('');

  await expect(messages(alice.page).getByText('Good to hear from you')).toBeVisible();
  await send(alice.page, 'Coffee on Friday?');
  await expect(messages(bob.page).getByText('Coffee on Friday?')).toBeVisible();

  // The list shows the last message, and unread counts clear when opened.
  await goTo(bob.page, 'Directory');
  await send(alice.page, 'Around 10?').catch(async () => {
    await openConversation(alice.page, '@bob');
    await send(alice.page, 'Around 10?');
  });
  await goTo(bob.page, 'Chats');
  const row = bob.page.getByRole('list', { name: 'Conversation list' }).getByRole('button', { name: /@alice/ });
  await expect(row).toContainText('Around 10?');
});
