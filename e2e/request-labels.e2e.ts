/**
 * A first message goes out as a contact request, and its labels follow what happens next: once
 * the request is accepted and read, the "Sent as a contact request" note goes and the tick says
 * Read; a reply takes the note away too.
 */
import { createAccount, goTo, messageFromDirectory, messages, send } from './flows.js';
import { expect, test } from './fixtures.js';

test('the request note and the ticks of a first message follow its acceptance and reading', async ({ relay, app }) => {
  const alice = await app('alice');
  const bob = await app('bob');
  await createAccount(alice.page, { relayUrl: relay.url, handle: 'alice' });
  await createAccount(bob.page, { relayUrl: relay.url, handle: 'bob' });

  await messageFromDirectory(bob.page, 'alice');
  await send(bob.page, 'Hi Alice, it is Bob from the meetup.');
  const first = messages(bob.page).locator('.msg', { hasText: 'it is Bob from the meetup' });
  await expect(first).toContainText('Sent as a contact request');
  await expect(first.getByRole('img', { name: 'Sent as request' })).toBeVisible();

  // Alice accepts with the mouse; the conversation opens, so she has read it.
  await goTo(alice.page, 'Requests');
  await alice.page.getByRole('button', { name: 'Accept @bob' }).click();
  await expect(messages(alice.page).getByText('it is Bob from the meetup')).toBeVisible();

  await expect(first.getByRole('img', { name: 'Read' })).toBeVisible();
  await expect(first).not.toContainText('Sent as a contact request');

  // Her reply reaches Bob; his first message still says nothing about a request.
  await send(alice.page, 'Hi Bob! Good to hear from you.');
  await expect(messages(bob.page).getByText('Good to hear from you')).toBeVisible();
  await expect(first).not.toContainText('Sent as a contact request');
  await expect(first.getByRole('img', { name: 'Sent as request' })).toHaveCount(0);
});
