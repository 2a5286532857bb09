/**
 * A member removed from a group is told, in the group's chat, by whom; the composer gives way
 * to a sentence saying why; Group info stops offering what no longer applies. Removing asks
 * first. Alice and Bob use the app; Carl, the third member, is a headless client profile.
 */
import { createAccount, goTo, messages, send } from './flows.js';
import { expect, test } from './fixtures.js';
import { cliOk, tempDir } from './harness.js';

test('a removed member sees who removed them, the composer closes with why, and Group info matches', async ({
  relay,
  app,
}) => {
  test.slow();
  const alice = await app('alice');
  const bob = await app('bob');
  await createAccount(alice.page, { relayUrl: relay.url, handle: 'alice' });
  await createAccount(bob.page, { relayUrl: relay.url, handle: 'bob' });
  const carl = tempDir('cli-carl');
  await cliOk(carl, ['init', '--relay', relay.url, '--handle', 'carl']);

  await goTo(alice.page, 'Groups');
  await alice.page.getByRole('button', { name: 'New group' }).click();
  const create = alice.page.getByRole('dialog', { name: 'New group' });
  await create.getByLabel('Group name').fill('Book circle');
  await create.getByRole('button', { name: 'Create group' }).click();
  await expect(alice.page.getByRole('heading', { name: 'Book circle' })).toBeVisible();
  const id = (await alice.page.getByLabel('Group ID', { exact: true }).textContent())!.trim();
  for (const who of ['@bob', '@carl']) {
    await alice.page.getByLabel('Add a member').fill(who);
    await alice.page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(alice.page.getByRole('list', { name: 'Invited' })).toContainText(who);
  }
  await cliOk(carl, ['group', 'accept', id]);
  await goTo(bob.page, 'Requests');
  await bob.page.getByRole('button', { name: 'Accept invitation to Book circle' }).click();
  await send(bob.page, 'Hello circle');

  // Removing asks first; Cancel keeps him.
  await goTo(alice.page, 'Groups');
  await alice.page.getByRole('tabpanel', { name: 'My groups' }).getByRole('button', { name: 'Book circle' }).click();
  const members = alice.page.getByRole('list', { name: 'Members' });
  await expect(members.getByRole('listitem')).toHaveCount(3);
  await members.getByRole('button', { name: 'Remove @bob from the group' }).click();
  let confirm = alice.page.getByRole('dialog', { name: 'Remove @bob from Book circle?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(members.getByRole('listitem')).toHaveCount(3);
  await members.getByRole('button', { name: 'Remove @bob from the group' }).click();
  confirm = alice.page.getByRole('dialog', { name: 'Remove @bob from Book circle?' });
  await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(members.getByRole('listitem')).toHaveCount(2);

  // Bob is told in the chat, by whom; the composer gives way to why.
  await expect(messages(bob.page).getByText('@alice removed you from the group')).toBeVisible({ timeout: 30_000 });
  await expect(bob.page.getByRole('textbox', { name: 'Message' })).toHaveCount(0);
  await expect(bob.page.getByText("You can't send messages to this group: @alice removed you.")).toBeVisible();

  // The others go on without him.
  await cliOk(carl, ['group', 'send', id, 'Chapter two next week']);
  await alice.page.getByRole('button', { name: 'Open chat' }).click();
  await expect(messages(alice.page).getByText('Chapter two next week')).toBeVisible({ timeout: 30_000 });

  // Group info matches: no Join, no member count or list he can no longer see.
  await bob.page.getByRole('button', { name: 'Group info' }).click();
  await expect(bob.page.getByRole('heading', { name: 'Book circle' })).toBeVisible();
  await expect(bob.page.getByText('@alice removed you from this group.')).toBeVisible();
  await expect(bob.page.getByRole('button', { name: /Join group/ })).toHaveCount(0);
  await expect(bob.page.getByText(/3 members/)).toHaveCount(0);
  await expect(bob.page.getByRole('list', { name: 'Members' })).toHaveCount(0);
  await goTo(bob.page, 'Chats');
  await bob.page
    .getByRole('list', { name: 'Conversation list' })
    .getByRole('button', { name: /Book circle/ })
    .click();
  await expect(messages(bob.page).getByText('Chapter two next week')).toHaveCount(0);
  await expect(messages(bob.page).getByText('@alice removed you from the group')).toBeVisible();
});
