/**
 * `npm run screenshots`: every screen of the app, light and dark, into .tmp/screenshots/.
 * The content is made the way a person would make it (real relay, real app processes).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  acceptRequest,
  chooseRelay,
  claimHandle,
  createAccount,
  goTo,
  messageFromDirectory,
  messages,
  send,
} from './flows.js';
import { expect, test } from './fixtures.js';
import { root } from './harness.js';
import { setLocale } from './i18n-walk.js';

const OUT = join(root, '.tmp/screenshots');

// SCREENSHOT_LOCALES=de,ar: each screen also in those languages (name-de-light.png, …),
// switched in place through the app's test hook and back to English for the next step.
const LOCALES = (process.env.SCREENSHOT_LOCALES ?? '').split(',').filter(Boolean);

async function snap(page: Page, name: string): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  for (const locale of ['', ...LOCALES]) {
    if (locale) await setLocale(page, locale, locale);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(150);
      await page.screenshot({ path: join(OUT, `${name}${locale ? `-${locale}` : ''}-${scheme}.png`) });
    }
  }
  if (LOCALES.length) await setLocale(page, 'en', 'en');
  await page.emulateMedia({ colorScheme: 'light' });
}

test('screenshots of every screen', async ({ stakeRelay: relay, app }) => {
  const alice = await app('alice');
  const p = alice.page;

  // Onboarding, step by step.
  await expect(p.getByRole('button', { name: 'Create a new wallet' })).toBeVisible();
  await snap(p, '01-onboarding-welcome');
  await p.getByRole('button', { name: 'I already have a wallet' }).click();
  await snap(p, '02-onboarding-import');
  await p.getByRole('button', { name: 'Back' }).click();
  await p.getByRole('button', { name: 'Create a new wallet' }).click();
  await expect(p.getByRole('list', { name: 'Recovery phrase' }).getByRole('listitem')).toHaveCount(12);
  const words = (await p.getByRole('list', { name: 'Recovery phrase' }).locator('.phrase-word').allTextContents()).map(
    (w) => w.trim(),
  );
  await p.getByLabel('I have written these words down somewhere safe').check();
  await snap(p, '03-onboarding-phrase');
  await p.getByRole('button', { name: 'Continue' }).click();
  await expect(p.getByRole('heading', { name: 'Confirm your recovery phrase' })).toBeVisible();
  const asked = (await p.locator('form .field-label').allTextContents()).map((l) => Number(l.replace('Word ', '')));
  for (const n of asked) await p.getByLabel(`Word ${n}`, { exact: true }).fill(words[n - 1]);
  await snap(p, '04-onboarding-confirm');
  await p.getByRole('button', { name: 'Confirm' }).click();
  await expect(p.getByRole('heading', { name: 'Choose your relay' })).toBeVisible();
  await snap(p, '05-onboarding-relay');
  await p.getByRole('radio', { name: 'A relay on my network' }).check();
  await snap(p, '06-onboarding-relay-lan');
  await chooseRelay(p, relay.url);
  await expect(p.getByRole('heading', { name: 'Pick a handle' })).toBeVisible();
  await p.getByLabel('Handle', { exact: true }).fill('alice');
  await snap(p, '07-onboarding-handle');
  await claimHandle(p, 'alice');
  await snap(p, '08-chats-empty');

  // Friends.
  const bob = await app('bob');
  await createAccount(bob.page, { relayUrl: relay.url, handle: 'bob' });
  const carol = await app('carol');
  await createAccount(carol.page, { relayUrl: relay.url, handle: 'carol_k' });
  await relay.admin('verify', 'carol_k');
  await relay.admin('grant', 'alice', 'developer-api');

  await messageFromDirectory(bob.page, 'alice');
  await send(bob.page, 'Hey Alice! Bob here, we met at the ETH meetup last week.');
  await acceptRequest(p, 'bob');
  await send(p, 'Hi Bob! Of course, good to hear from you.');
  await expect(messages(bob.page).getByText('good to hear from you')).toBeVisible();
  await send(bob.page, 'Are you coming to the workshop on Thursday?\nI can save you a seat.');
  await expect(messages(p).getByText('I can save you a seat.')).toBeVisible();
  await send(p, 'Yes please! 🙌');

  // A pending request from a verified person.
  const dan = await app('dan');
  await createAccount(dan.page, { relayUrl: relay.url, handle: 'dan_northwind' });
  await relay.admin('verify', 'dan_northwind');
  await goTo(dan.page, 'Directory');
  await dan.page.getByLabel('Search the directory').fill('alice');
  await dan.page.getByRole('button', { name: 'Send request to @alice' }).click();
  await dan.page
    .getByRole('dialog')
    .getByLabel('Intro')
    .fill('Hi Alice, Dan from Northwind Labs. Could we chat about the relay integration for our wallet?');
  await dan.page.getByRole('dialog').getByRole('button', { name: 'Send request' }).click();
  await expect(dan.page.getByRole('dialog')).toBeHidden();
  // Dan is still a stranger to Alice: adding her to his group invites her.
  await goTo(dan.page, 'Groups');
  await dan.page.getByRole('button', { name: 'New group' }).click();
  await dan.page.getByRole('dialog', { name: 'New group' }).getByLabel('Group name').fill('Northwind partners');
  await dan.page.getByRole('dialog', { name: 'New group' }).getByRole('button', { name: 'Create group' }).click();
  await dan.page.getByLabel('Add a member').fill('@alice');
  await dan.page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dan.page.getByRole('status').filter({ hasText: 'Invited @alice' })).toBeVisible();
  await snap(dan.page, '10b-groups-invited');

  // A stake-gated contact.
  await goTo(carol.page, 'Settings');
  await carol.page.getByRole('radio', { name: 'Ask for a stake' }).check();
  await carol.page.getByRole('button', { name: 'Save policy' }).click();
  await expect(carol.page.getByText('Inbox policy saved.')).toBeVisible();

  // A group with a bot.
  await goTo(p, 'Groups');
  await p.getByRole('button', { name: 'New group' }).click();
  await p.getByRole('dialog', { name: 'New group' }).getByLabel('Group name').fill('Weekend hikers');
  await p.getByRole('dialog', { name: 'New group' }).getByRole('checkbox', { name: 'Public' }).check();
  await snap(p, '09-groups-create');
  await p.getByRole('dialog', { name: 'New group' }).getByRole('button', { name: 'Create group' }).click();
  await expect(p.getByRole('heading', { name: 'Weekend hikers' })).toBeVisible();
  await goTo(bob.page, 'Groups');
  await bob.page.getByRole('tab', { name: 'Discover' }).click();
  await bob.page.getByRole('button', { name: 'Weekend hikers' }).click();
  await bob.page.getByRole('button', { name: 'Join group' }).click();
  await expect(bob.page.getByRole('button', { name: 'Open chat' })).toBeVisible();
  await goTo(p, 'Chats');
  await goTo(p, 'Groups');
  await p.getByRole('button', { name: 'Weekend hikers' }).click();
  await p.getByLabel('Bot name').fill('trail-weather');
  await p.getByRole('button', { name: 'Mint token' }).click();
  await expect(p.getByRole('group', { name: 'New bot token' })).toBeVisible();
  await p.getByRole('button', { name: 'Make @bob an admin' }).click();
  await expect(p.getByRole('list', { name: 'Members' }).getByText('Admin', { exact: true })).toBeVisible();
  await snap(p, '10-groups-detail');
  await p.getByRole('button', { name: 'Open chat' }).click();
  await send(p, 'Saturday: Blue Ridge loop, 14 km. Who is in?');
  await bob.page.getByRole('button', { name: 'Open chat' }).click();
  await send(bob.page, 'Count me in!');
  await expect(messages(p).getByText('Count me in!')).toBeVisible();
  await snap(p, '11-group-chat');

  // A message that could not be delivered, with its notice.
  await messageFromDirectory(p, 'carol_k');
  await send(p, 'Hi Carol, got your note!');
  await expect(messages(p).getByText(/asks for a refundable/)).toBeVisible();
  await snap(p, '12-chat-stake-gate');

  await goTo(p, 'Chats');
  await p.getByRole('list', { name: 'Conversation list' }).getByRole('button', { name: /@bob/ }).click();
  await expect(messages(p).getByText('Yes please!')).toBeVisible();
  await snap(p, '13-chats-conversation');

  await goTo(p, 'Requests');
  await expect(p.getByRole('article', { name: /Request from/ })).toBeVisible();
  await expect(p.getByRole('article', { name: 'Invitation to Northwind partners' })).toBeVisible();
  await snap(p, '14-requests');

  await goTo(p, 'Directory');
  await p.getByLabel('Search the directory').fill('');
  await expect(p.getByRole('article', { name: '@bob' })).toBeVisible();
  await snap(p, '15-directory');

  await goTo(p, 'Settings');
  await p.getByLabel('Key label').fill('CI notifier');
  await p.getByRole('button', { name: 'Create key' }).click();
  await expect(p.getByRole('group', { name: 'New API key' })).toBeVisible();
  await snap(p, '16-settings');
  await p.getByRole('main').evaluate((el) => el.querySelector('.page')?.scrollTo(0, 10_000));
  await snap(p, '17-settings-bottom');

  await goTo(p, 'Chats');
  await p.getByRole('button', { name: 'New chat' }).click();
  await snap(p, '18-new-chat-dialog');

  // An error state: a mistyped address, said to be one.
  await p.getByRole('dialog', { name: 'New chat' }).getByLabel('Address or handle').fill('0x123');
  await p.getByRole('dialog', { name: 'New chat' }).getByRole('button', { name: 'Start chat' }).click();
  await expect(p.getByRole('dialog', { name: 'New chat' }).getByRole('alert')).toContainText('is not a valid address');
  await snap(p, '19-error-malformed-address');
  await p.getByRole('dialog', { name: 'New chat' }).getByRole('button', { name: 'Cancel' }).click();

  // Offline, and a message waiting in the outbox.
  await p.getByRole('list', { name: 'Conversation list' }).getByRole('button', { name: /@bob/ }).click();
  await relay.stop();
  await send(p, 'Leaving now, see you at the trailhead!');
  await expect(p.getByText(/Offline/).first()).toBeVisible({ timeout: 60_000 });
  await expect(messages(p).getByText('Waiting to send')).toBeVisible({ timeout: 60_000 });
  await snap(p, '20-offline-queued');
  await relay.start();

  // The unlock screen: a profile with a passphrase, after the app restarts.
  const erin = await app('erin');
  await createAccount(erin.page, { relayUrl: relay.url, handle: 'erin', passphrase: 'a long and private passphrase' });
  const fresh = await erin.restartProcess();
  // Only the fragment changes: the tab takes the new link up itself (a reload at once would
  // cut its one-time code exchange short and leave the stale-tab notice).
  await erin.page.goto(fresh);
  await expect(erin.page.getByRole('button', { name: /Unlock/ })).toBeVisible();
  await snap(erin.page, '21-unlock');
});
