/**
 * `npm run screenshots` (with screenshots.e2e.ts): the screens of blocking, group removal, the
 * recovery phrase in Settings and the connection banners, light and dark, into .tmp/screenshots/,
 * each also checked by axe (they take three people to reach, more than the accessibility walk's two).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe.js';
import { createAccount, goTo, messages, send } from './flows.js';
import { expect, test } from './fixtures.js';
import { root } from './harness.js';

const OUT = join(root, '.tmp/screenshots');

async function snap(page: Page, name: string): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(150);
    await page.screenshot({ path: join(OUT, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await expectAccessible(page, name);
}

test('screenshots of blocking, removal from a group, the recovery phrase and the connection banners', async ({
  relay,
  app,
}) => {
  test.setTimeout(600_000);
  const alice = await app('alice');
  const bob = await app('bob');
  const carol = await app('carol');
  await createAccount(alice.page, {
    relayUrl: relay.url,
    handle: 'alice',
    passphrase: 'a long and private passphrase',
  });
  await createAccount(bob.page, { relayUrl: relay.url, handle: 'bob' });
  await createAccount(carol.page, { relayUrl: relay.url, handle: 'carol' });
  const p = alice.page;

  // Carol asks; Alice blocks her, after the question, with Undo offered.
  await goTo(carol.page, 'Directory');
  await carol.page.getByLabel('Search the directory').fill('alice');
  await carol.page.getByRole('button', { name: 'Send request to @alice' }).click();
  await carol.page.getByRole('dialog').getByLabel('Intro').fill('Hi Alice, Carol from the book club.');
  await carol.page.getByRole('dialog').getByRole('button', { name: 'Send request' }).click();
  await expect(carol.page.getByRole('dialog')).toBeHidden();
  await goTo(carol.page, 'Directory');
  await expect(carol.page.getByRole('article', { name: '@alice' }).getByText('Request sent')).toBeVisible();
  await snap(carol.page, '30-directory-request-sent');
  await goTo(p, 'Requests');
  await p.getByRole('button', { name: 'Block @carol' }).click();
  await expect(p.getByRole('dialog', { name: 'Block @carol?' })).toBeVisible();
  await snap(p, '31-block-dialog');
  await p.getByRole('dialog', { name: 'Block @carol?' }).getByRole('button', { name: 'Block', exact: true }).click();
  await expect(p.getByRole('button', { name: 'Undo' })).toBeVisible();
  await snap(p, '32-blocked-undo');
  await goTo(p, 'Directory');
  await p.getByLabel('Search the directory').fill('');
  await expect(p.getByRole('button', { name: 'Unblock @carol' })).toBeVisible();
  await snap(p, '33-directory-relationships');
  await goTo(p, 'Settings');
  await expect(p.getByRole('region', { name: 'Blocked' })).toContainText('@carol');
  await p.getByRole('region', { name: 'Blocked' }).scrollIntoViewIfNeeded();
  await snap(p, '34-settings-blocked');

  // The recovery phrase again, after the passphrase.
  await p.getByRole('region', { name: 'Security' }).scrollIntoViewIfNeeded();
  await p.getByRole('button', { name: 'Show recovery phrase' }).click();
  const reveal = p.getByRole('dialog', { name: 'Show recovery phrase' });
  await reveal.getByLabel('Passphrase').fill('not it');
  await reveal.getByRole('button', { name: 'Show phrase' }).click();
  await expect(reveal.getByRole('alert')).toBeVisible();
  await snap(p, '35-settings-phrase-passphrase');
  await reveal.getByLabel('Passphrase').fill('a long and private passphrase');
  await reveal.getByRole('button', { name: 'Show phrase' }).click();
  await expect(reveal.getByRole('list', { name: 'Recovery phrase' }).getByRole('listitem')).toHaveCount(12);
  await snap(p, '36-settings-phrase-shown');
  await reveal.getByRole('button', { name: 'Done' }).click();

  // A group Bob is taken out of.
  await goTo(p, 'Groups');
  await p.getByRole('button', { name: 'New group' }).click();
  await p.getByRole('dialog', { name: 'New group' }).getByLabel('Group name').fill('Weekend hikers');
  await p.getByRole('dialog', { name: 'New group' }).getByRole('button', { name: 'Create group' }).click();
  await p.getByLabel('Add a member').fill('@bob');
  await p.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(p.getByRole('list', { name: 'Invited' })).toContainText('@bob');
  await goTo(bob.page, 'Requests');
  await bob.page.getByRole('button', { name: 'Accept invitation to Weekend hikers' }).click();
  await send(bob.page, 'Count me in for Saturday!');
  await goTo(p, 'Groups');
  await p.getByRole('tabpanel', { name: 'My groups' }).getByRole('button', { name: 'Weekend hikers' }).click();
  await p.getByRole('button', { name: 'Remove @bob from the group' }).click();
  await expect(p.getByRole('dialog', { name: 'Remove @bob from Weekend hikers?' })).toBeVisible();
  await snap(p, '37-remove-member-dialog');
  await p
    .getByRole('dialog', { name: 'Remove @bob from Weekend hikers?' })
    .getByRole('button', { name: 'Remove', exact: true })
    .click();
  await expect(messages(bob.page).getByText('@alice removed you from the group')).toBeVisible({ timeout: 30_000 });
  await snap(bob.page, '38-removed-chat');
  await bob.page.getByRole('button', { name: 'Group info' }).click();
  await expect(bob.page.getByText('@alice removed you from this group.')).toBeVisible();
  await snap(bob.page, '39-removed-group-info');

  // The relay away: the banner with Retry now; then the app itself gone.
  await goTo(p, 'Chats');
  await relay.stop();
  await expect(p.getByRole('button', { name: 'Retry now' })).toBeVisible({ timeout: 30_000 });
  await snap(p, '40-offline-retry');
  await relay.start();
  await alice.quit('SIGTERM');
  await expect(p.getByRole('alert').filter({ hasText: 'Lost the connection to the app' })).toBeVisible({
    timeout: 15_000,
  });
  await snap(p, '41-app-disconnected');
});
