/**
 * Edit and delete one's own message (mouse for one, keyboard for the other) and see the peer's
 * app follow; a disappearing-messages timer makes a message vanish. The app offers 5 minutes
 * and more; the wire format allows 30 s, which the command-line client can set, so the peer
 * here is a CLI profile that sets 30 s (no test-only clock in the app).
 */
import { expectAccessible } from './axe.js';
import { acceptRequest, createAccount, messageFromDirectory, messages, send } from './flows.js';
import { expect, test } from './fixtures.js';
import { cliOk, tempDir } from './harness.js';

test('edit and delete a message; a timer makes one vanish', async ({ relay, app }, testInfo) => {
  // two apps, a CLI profile and a 30 s wait
  test.setTimeout(360_000);
  const alice = await app('alice');
  const bob = await app('bob');
  await createAccount(alice.page, { relayUrl: relay.url, handle: 'alice' });
  await createAccount(bob.page, { relayUrl: relay.url, handle: 'bob' });
  await messageFromDirectory(alice.page, 'bob');
  await send(alice.page, 'Hi Bob');
  await acceptRequest(bob.page, 'alice');
  await send(alice.page, 'see you at 5');
  await expect(messages(bob.page).getByText('see you at 5')).toBeVisible();

  // edit with the mouse: the menu shows on hover
  const first = messages(alice.page).locator('.msg', { hasText: 'see you at 5' });
  await first.hover();
  await first.getByRole('button', { name: 'Message actions' }).click();
  await alice.page.getByRole('menuitem', { name: 'Edit' }).click();
  const box = alice.page.getByRole('textbox', { name: 'Edit message' });
  await box.fill('see you at 6');
  await box.press('Enter');
  const edited = messages(bob.page).locator('.msg', { hasText: 'see you at 6' });
  await expect(edited).toBeVisible();
  await expect(edited).toContainText('edited');
  await expect(messages(bob.page).getByText('see you at 5')).toHaveCount(0);

  // delete from the keyboard: focus the menu button, Enter opens, ↓ moves, Enter chooses
  await messages(alice.page)
    .locator('.msg', { hasText: 'see you at 6' })
    .getByRole('button', { name: 'Message actions' })
    .focus();
  await alice.page.keyboard.press('Enter');
  await expect(alice.page.getByRole('menuitem', { name: 'Edit' })).toBeFocused();
  await expectAccessible(alice.page, 'message menu open');
  await alice.page.screenshot({ path: testInfo.outputPath('message-menu.png') });
  await alice.page.keyboard.press('ArrowDown');
  await expect(alice.page.getByRole('menuitem', { name: 'Delete' })).toBeFocused();
  await alice.page.keyboard.press('Enter');
  const confirm = alice.page.getByRole('dialog', { name: 'Delete message' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(messages(alice.page).getByText('Message deleted')).toBeVisible();
  await expect(messages(bob.page).getByText('Message deleted')).toBeVisible();
  await expect(messages(bob.page).getByText('see you at 6')).toHaveCount(0);
  await expect(
    bob.page.getByRole('list', { name: 'Conversation list' }).getByRole('button', { name: /@alice/ }),
  ).toContainText('Message deleted');
  await expectAccessible(bob.page, 'edited and deleted messages');
  await bob.page.screenshot({ path: testInfo.outputPath('deleted-peer.png') });

  // carol (command line) sets 30 s in her conversation with alice; alice's own next message vanishes 30 s after sending
  const carol = tempDir('carol');
  await cliOk(carol, ['init', '--relay', relay.url, '--handle', 'carol']);
  await messageFromDirectory(alice.page, 'carol');
  await send(alice.page, 'Hi Carol');
  await cliOk(carol, ['timer', '@alice', '30s']);
  await expect(messages(alice.page).getByText('@carol set messages to disappear after 30 seconds')).toBeVisible();
  const timer = alice.page.getByRole('combobox', { name: 'Disappearing messages' });
  await expect(timer).toHaveValue('30');
  await send(alice.page, 'this will vanish');
  await expect(messages(alice.page).getByText('this will vanish')).toBeVisible();
  await alice.page.screenshot({ path: testInfo.outputPath('timer-notice.png') });
  await expect(messages(alice.page).getByText('this will vanish')).toHaveCount(0, { timeout: 60_000 });

  // the header's control sets one of the app's choices
  await timer.selectOption({ label: '5 minutes' });
  await expect(messages(alice.page).getByText('You set messages to disappear after 5 minutes')).toBeVisible();
  await expect(timer).toHaveValue('300');
  await expectAccessible(alice.page, 'timer notices');
  await alice.page.screenshot({ path: testInfo.outputPath('timer-set.png') });
});
