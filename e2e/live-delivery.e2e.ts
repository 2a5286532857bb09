/**
 * Live delivery as two people meet it: what one sends shows in the other's open
 * window without a refresh; ticks go sent → delivered → read; "typing…" shows while the other
 * types; desktop notifications, switched on in Settings, come while the window is in the
 * background, not from a muted conversation, and a click opens the conversation.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { expectAccessible } from './axe.js';
import { acceptRequest, createAccount, goTo, messageFromDirectory, messages, openConversation, send } from './flows.js';
import { expect, test } from './fixtures.js';

/** The tick on an own message, found by its words (the label), as a screen reader meets it. */
function tick(page: Page, text: string, label: 'Sending' | 'Sent' | 'Delivered' | 'Read') {
  return messages(page).locator('.msg', { hasText: text }).getByRole('img', { name: label, exact: true });
}

// Page-side code is passed as text: the e2e TypeScript has no DOM types.

/** Records every browser notification the page makes, keeping the object so a test can click it. */
async function recordNotifications(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const Real = window.Notification;
    const seen = [];
    window.seenNotifications = seen;
    window.Notification = class extends Real {
      constructor(title, options) {
        super(title, options);
        seen.push({ title, body: options?.body ?? '', n: this });
      }
    };
  })()`);
}

function notifications(page: Page): Promise<{ title: string; body: string }[]> {
  return page.evaluate('window.seenNotifications.map(({ title, body }) => ({ title, body }))') as Promise<
    { title: string; body: string }[]
  >;
}

/** The window goes to the background, as when the person switches to another app. */
async function leaveWindow(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    document.hasFocus = () => false;
    window.dispatchEvent(new Event('blur'));
  })()`);
}

/**
 * Counts the page's permission requests from its first load on (the tab is reloaded for it);
 * a request grants the permission, as a person clicking Allow would.
 */
async function countPermissionRequests(a: { context: BrowserContext; page: Page }): Promise<void> {
  await a.context.exposeBinding('grantNotifications', () => a.context.grantPermissions(['notifications']));
  await a.context.addInitScript(`(() => {
    const N = window.Notification;
    const real = N.requestPermission.bind(N);
    window.permissionRequests = 0;
    N.requestPermission = async () => {
      window.permissionRequests += 1;
      await window.grantNotifications();
      return real();
    };
  })()`);
  await a.page.reload();
}

const permissionRequests = (page: Page) => page.evaluate('window.permissionRequests') as Promise<number>;

test('messages arrive at once, with ticks, typing and notifications', async ({ relay, app }) => {
  test.slow();
  const alice = await app('alice');
  const bob = await app('bob');
  await countPermissionRequests(bob);
  await createAccount(alice.page, { relayUrl: relay.url, handle: 'alice' });
  await createAccount(bob.page, { relayUrl: relay.url, handle: 'bob' });
  await messageFromDirectory(alice.page, 'bob');
  await send(alice.page, 'Hi Bob, it is Alice');
  await expect(bob.page.getByRole('button', { name: /^Requests/ })).toContainText('1');
  await acceptRequest(bob.page, 'alice');

  // Live: Bob's answer shows in Alice's open conversation, and hers in his, with no click in between.
  await send(bob.page, 'Hey Alice, good to hear from you');
  await expect(messages(alice.page).getByText('Hey Alice, good to hear from you')).toBeVisible();
  await send(alice.page, 'Lunch tomorrow?');
  await expect(messages(bob.page).getByText('Lunch tomorrow?')).toBeVisible();

  // Ticks: delivered once on Bob's device, read once he opens the conversation.
  await goTo(bob.page, 'Settings');
  await send(alice.page, 'Noon at the usual place');
  await expect(tick(alice.page, 'Noon at the usual place', 'Delivered')).toBeVisible();
  await expect(bob.page).toHaveTitle('(1) Relay Messenger');
  await openConversation(bob.page, '@alice');
  await expect(tick(alice.page, 'Noon at the usual place', 'Read')).toBeVisible();
  await expect(bob.page).toHaveTitle('Relay Messenger');

  // Typing: shown while Bob types, gone when he clears the box.
  const bobBox = bob.page.getByRole('textbox', { name: 'Message' });
  await bobBox.pressSequentially('Sounds go', { delay: 50 });
  const typing = alice.page.getByRole('status').filter({ hasText: '@bob is typing…' });
  await expect(typing).toBeVisible();
  await alice.page.screenshot({ path: test.info().outputPath('conversation-ticks-typing.png') });
  await expectAccessible(alice.page, 'conversation with ticks and typing');
  await bobBox.fill('');
  await expect(typing).toBeHidden();
  // …and gone at once when his message comes
  await bobBox.pressSequentially('Sounds good', { delay: 50 });
  await expect(typing).toBeVisible();
  await bobBox.press('Enter');
  await expect(messages(alice.page).getByText('Sounds good')).toBeVisible();
  await expect(typing).toBeHidden();

  // Notifications: never asked for on load or while chatting; the switch asks once (the request
  // grants it here), turns them on, and sticks.
  expect(await permissionRequests(bob.page)).toBe(0);
  await recordNotifications(bob.page);
  await goTo(bob.page, 'Settings');
  const notify = bob.page.getByRole('switch', { name: 'Desktop notifications' });
  await expect(notify).toHaveAttribute('aria-checked', 'false');
  await notify.click();
  await expect(notify).toHaveAttribute('aria-checked', 'true');
  expect(await permissionRequests(bob.page)).toBe(1);
  await goTo(bob.page, 'Chats');
  await goTo(bob.page, 'Settings');
  await expect(notify).toHaveAttribute('aria-checked', 'true');
  expect(await permissionRequests(bob.page)).toBe(1);
  await bob.page
    .getByRole('region', { name: 'Notifications and receipts' })
    .screenshot({ path: test.info().outputPath('settings-notifications.png') });
  await expectAccessible(bob.page, 'settings with notification switches');

  // In the background, a message makes a notification with its text; a click opens the conversation.
  await leaveWindow(bob.page);
  await send(alice.page, 'Bring the tickets');
  await expect.poll(() => notifications(bob.page)).toEqual([{ title: '@alice', body: 'Bring the tickets' }]);
  await bob.page.evaluate("window.seenNotifications[0].n.onclick(new Event('click'))");
  await expect(messages(bob.page).getByText('Bring the tickets')).toBeVisible();

  // Sender only: the text stays out.
  await goTo(bob.page, 'Settings');
  await bob.page.getByRole('switch', { name: 'Show sender only' }).click();
  await expect(bob.page.getByRole('switch', { name: 'Show sender only' })).toHaveAttribute('aria-checked', 'true');
  await send(alice.page, 'Row 12, seats 4 and 5');
  await expect.poll(() => notifications(bob.page)).toHaveLength(2);
  expect((await notifications(bob.page))[1]).toEqual({ title: '@alice', body: 'New message' });

  // Muted: the message counts as unread, and makes no notification.
  await openConversation(bob.page, '@alice');
  await bob.page.getByRole('button', { name: 'Mute notifications' }).click();
  await expect(bob.page.getByRole('button', { name: 'Mute notifications' })).toHaveAttribute('aria-pressed', 'true');
  await expect(
    bob.page.getByRole('list', { name: 'Conversation list' }).getByRole('img', { name: 'Muted' }),
  ).toBeVisible();
  await goTo(bob.page, 'Settings');
  await send(alice.page, 'See you there');
  await expect(bob.page).toHaveTitle('(1) Relay Messenger');
  expect(await notifications(bob.page)).toHaveLength(2);
});
