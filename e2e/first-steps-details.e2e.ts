/**
 * Small things a new user runs into in the first hour: a handle that cannot be claimed says
 * why as it is typed; an API key refused by the relay built into the app says what its operator
 * (the person) runs; one ✕ in the search within a chat; group members named by their handles;
 * the offer to send the history to a new device appears while Settings is open.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { chooseRelay, confirmWords, createAccount, goTo, messageFromDirectory, send } from './flows.js';
import { expect, test } from './fixtures.js';
import { root } from './harness.js';

/** Runs an operator command line as a person would type it in the app's folder. */
function run(commandLine: string): Promise<number | null> {
  const args = commandLine.replace(/^npm run relay -- /, '').split(' ');
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [join(root, 'bin/relay.mjs'), ...args], { cwd: root, stdio: 'ignore' });
    c.on('exit', (code) => resolve(code));
  });
}

test('a handle that cannot be claimed says why; an API key on the built-in relay says what to run', async ({ app }) => {
  const { page } = await app('alice');
  await page.getByRole('button', { name: 'Create a new wallet' }).click();
  const phrase = page.getByRole('list', { name: 'Recovery phrase' });
  await expect(phrase.getByRole('listitem')).toHaveCount(12);
  const words = (await phrase.locator('.phrase-word').allTextContents()).map((w) => w.trim());
  await page.getByLabel('I have written these words down somewhere safe').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await confirmWords(page, words);
  await chooseRelay(page, 'this computer');

  const field = page.getByLabel('Handle', { exact: true });
  const claim = page.getByRole('button', { name: 'Claim handle' });
  await field.fill('Alice-1');
  await expect(claim).toBeDisabled();
  await expect(claim).toHaveAccessibleDescription('A handle cannot have “-”: only letters, digits and underscores.');
  await expect(page.locator('#handle-problem')).toHaveAttribute('aria-live', 'polite');
  await field.fill('al');
  await expect(claim).toHaveAccessibleDescription('Too short: a handle has at least 3 characters.');
  await field.fill('alice_1');
  await expect(claim).toBeEnabled();
  await claim.click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  await goTo(page, 'Settings');
  await page.getByLabel('Key label').fill('CI notifier');
  await page.getByRole('button', { name: 'Create key' }).click();
  const alert = page.getByRole('region', { name: 'API keys' }).getByRole('alert');
  await expect(alert).toContainText('you run it');
  await expect(alert).not.toContainText('Ask its operator');
  const command = /npm run relay -- admin --data \S+ grant 0x[0-9a-f]{40} developer-api/.exec(
    (await alert.textContent()) ?? '',
  )?.[0];
  expect(command, 'the alert spells out the command').toBeTruthy();
  // what it says works: run it, and the key can be made
  expect(await run(command!)).toBe(0);
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByRole('group', { name: 'New API key' })).toBeVisible();
});

test('one ✕ in the search within a chat; group members go by their handles', async ({ relay, app }) => {
  // several apps on a shared machine
  test.slow();
  const alice = await app('alice');
  const bob = await app('bob');
  await createAccount(alice.page, { relayUrl: relay.url, handle: 'alice' });
  await createAccount(bob.page, { relayUrl: relay.url, handle: 'bob' });
  const carol = await app('carol');
  await createAccount(carol.page, { relayUrl: relay.url, handle: 'carol' });

  await messageFromDirectory(alice.page, 'bob');
  await send(alice.page, 'Hi Bob');
  await alice.page.getByRole('button', { name: 'Search in conversation' }).click();
  const bar = alice.page.locator('.conversation-search .pane-search');
  await bar.getByRole('searchbox').fill('Hi');
  // the box draws no ✕ of its own beside the close button
  await expect(bar.getByRole('searchbox')).not.toHaveAttribute('type', 'search');
  await expect(bar.getByRole('button')).toHaveCount(1);
  await bar.getByRole('button', { name: 'Close search' }).click();

  // Carol, a stranger to Alice, joins her public group from Discover.
  const p = alice.page;
  await goTo(p, 'Groups');
  await p.getByRole('button', { name: 'New group' }).click();
  await p.getByRole('dialog', { name: 'New group' }).getByLabel('Group name').fill('Weekend hikers');
  await p.getByRole('dialog', { name: 'New group' }).getByRole('checkbox', { name: 'Public' }).check();
  await p.getByRole('dialog', { name: 'New group' }).getByRole('button', { name: 'Create group' }).click();
  await expect(p.getByRole('heading', { name: 'Weekend hikers' })).toBeVisible();
  await goTo(carol.page, 'Groups');
  await carol.page.getByRole('tab', { name: 'Discover' }).click();
  await carol.page.getByRole('button', { name: 'Weekend hikers' }).click();
  await carol.page.getByRole('button', { name: 'Join group' }).click();
  await expect(carol.page.getByRole('button', { name: 'Open chat' })).toBeVisible();

  await goTo(p, 'Chats');
  await goTo(p, 'Groups');
  await p.getByRole('button', { name: 'Weekend hikers' }).click();
  const members = p.getByRole('list', { name: 'Members' });
  await expect(members.getByText('@carol', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(members.getByText(/0x[0-9a-f]{4}…/)).toHaveCount(0);
  await expect(members.getByRole('button', { name: 'Remove @carol from the group' })).toBeVisible();
});

test('Settings offers to send the history to a new device as soon as it appears', async ({ relay, app }) => {
  // two apps on a shared machine
  test.slow();
  const gus = await app('gus');
  const words = await createAccount(gus.page, { relayUrl: relay.url, handle: 'gus' });
  await goTo(gus.page, 'Settings');
  await expect(gus.page.getByRole('region', { name: 'Devices' })).toBeVisible();

  // the same wallet set up on a new computer, while Settings stays open on the old one
  const fresh = await app('gus-new-computer');
  await fresh.page.getByRole('button', { name: 'I already have a wallet' }).click();
  await fresh.page.getByRole('textbox', { name: 'Recovery phrase' }).fill(words.join(' '));
  await fresh.page.getByRole('button', { name: 'Import wallet' }).click();
  await fresh.page.getByRole('button', { name: 'Skip' }).click();
  await chooseRelay(fresh.page, relay.url);
  await expect(fresh.page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  // no leaving and coming back: the open page shows it
  await expect(gus.page.getByRole('group', { name: /^Send your history to / })).toBeVisible({ timeout: 60_000 });
});
