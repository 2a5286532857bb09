/**
 * Every screen the stories visit, checked once by axe in light and dark (e2e/axe.ts). One walk
 * instead of a check in every story: the same screens, a fraction of the time.
 */
import { expectAccessible } from './axe.js';
import {
  acceptRequest,
  chooseRelay,
  claimHandle,
  goTo,
  messageFromDirectory,
  messages,
  send,
  createAccount,
} from './flows.js';
import { expect, test } from './fixtures.js';
import { expectDialogTrapsFocus, expectEveryControlReachable } from './keyboard.js';

test('every screen passes axe in light and dark', async ({ relay, app }) => {
  test.setTimeout(300_000);
  const alice = await app('alice');
  const p = alice.page;

  await expect(p.getByRole('button', { name: 'Create a new wallet' })).toBeVisible();
  await expectAccessible(p, 'onboarding: welcome');
  await expectEveryControlReachable(p, 'onboarding: welcome');
  await p.getByRole('button', { name: 'I already have a wallet' }).click();
  await expect(p.getByRole('textbox', { name: 'Recovery phrase' })).toBeVisible();
  await expectAccessible(p, 'onboarding: import');
  await p.getByRole('button', { name: 'Back' }).click();

  // Alice keeps her profile behind a passphrase, so the unlock screen can be checked at the end.
  await p.getByLabel('Passphrase for this computer (recommended)').fill('a long and private passphrase');
  await p.getByRole('button', { name: 'Create a new wallet' }).click();
  const phrase = p.getByRole('list', { name: 'Recovery phrase' });
  await expect(phrase.getByRole('listitem')).toHaveCount(12);
  const words = (await phrase.locator('.phrase-word').allTextContents()).map((w) => w.trim());
  await expectAccessible(p, 'onboarding: phrase');
  await p.getByLabel('I have written these words down somewhere safe').check();
  await p.getByRole('button', { name: 'Continue' }).click();
  await expect(p.getByRole('heading', { name: 'Confirm your recovery phrase' })).toBeVisible();
  await expectAccessible(p, 'onboarding: confirm');
  const asked = (await p.locator('form .field-label').allTextContents()).map((l) => Number(l.replace('Word ', '')));
  for (const n of asked) await p.getByLabel(`Word ${n}`, { exact: true }).fill(words[n - 1]);
  await p.getByRole('button', { name: 'Confirm' }).click();
  await expect(p.getByRole('heading', { name: 'Choose your relay' })).toBeVisible();
  await expectAccessible(p, 'onboarding: relay');
  await p.getByRole('radio', { name: 'A relay address' }).check();
  await expectAccessible(p, 'onboarding: relay address');
  await chooseRelay(p, relay.url);
  await expect(p.getByRole('heading', { name: 'Pick a handle' })).toBeVisible();
  await expectAccessible(p, 'onboarding: handle');
  await claimHandle(p, 'alice');
  await expect(p.getByRole('heading', { name: 'No conversations yet' })).toBeVisible();
  await expectAccessible(p, 'chats: empty');

  const bob = await app('bob');
  await createAccount(bob.page, { relayUrl: relay.url, handle: 'bob' });
  await messageFromDirectory(bob.page, 'alice');
  await send(bob.page, 'Hey Alice! Bob here.');
  await goTo(p, 'Requests');
  await expect(p.getByRole('button', { name: 'Accept @bob' })).toBeVisible();
  await expectAccessible(p, 'requests');
  await p.getByRole('button', { name: 'Block @bob' }).click();
  const block = p.getByRole('dialog', { name: 'Block @bob?' });
  await expectAccessible(p, 'block dialog');
  await expectDialogTrapsFocus(p, block, 'block dialog');
  await acceptRequest(p, 'bob');
  await send(p, 'Hi Bob!');
  await expect(messages(p).getByText('Hi Bob!')).toBeVisible();
  await expectAccessible(p, 'chats: conversation');
  await expectEveryControlReachable(p, 'chats: conversation');

  await goTo(p, 'Directory');
  await p.getByLabel('Search the directory').fill('');
  await expect(p.getByRole('article', { name: '@bob' })).toBeVisible();
  await expectAccessible(p, 'directory');

  await goTo(p, 'Groups');
  await expectAccessible(p, 'groups: list');
  await p.getByRole('button', { name: 'New group' }).click();
  const create = p.getByRole('dialog', { name: 'New group' });
  await expectDialogTrapsFocus(p, create, 'new group dialog');
  await p.getByRole('button', { name: 'New group' }).click();
  await create.getByLabel('Group name').fill('Weekend hikers');
  await expectAccessible(p, 'groups: create dialog');
  await create.getByRole('button', { name: 'Create group' }).click();
  await expect(p.getByRole('heading', { name: 'Weekend hikers' })).toBeVisible();
  await expectAccessible(p, 'groups: detail');

  await goTo(p, 'Settings');
  await expect(p.getByRole('region', { name: 'Profile' })).toBeVisible();
  await expectAccessible(p, 'settings');
  await expectEveryControlReachable(p, 'settings');
  await p.getByRole('button', { name: 'Show recovery phrase' }).click();
  const reveal = p.getByRole('dialog', { name: 'Show recovery phrase' });
  await expectDialogTrapsFocus(p, reveal, 'recovery phrase dialog');
  await expect(p.getByRole('button', { name: 'Show recovery phrase' })).toBeFocused();
  await p.getByRole('button', { name: 'Show recovery phrase' }).press('Enter');
  await reveal.getByLabel('Passphrase').fill('a long and private passphrase');
  await reveal.getByLabel('Passphrase').press('Enter');
  await expect(reveal.getByRole('list', { name: 'Recovery phrase' }).getByRole('listitem')).toHaveCount(12);
  await expectAccessible(p, 'settings: recovery phrase');
  await reveal.getByRole('button', { name: 'Done' }).click();

  await goTo(p, 'Chats');
  await p.getByRole('button', { name: 'New chat' }).click();
  const newChat = p.getByRole('dialog', { name: 'New chat' });
  await expect(newChat).toBeVisible();
  await expectAccessible(p, 'new chat dialog');
  await expectDialogTrapsFocus(p, newChat, 'new chat dialog');
  await p.getByRole('button', { name: 'New chat' }).click();
  await newChat.getByLabel('Address or handle').fill('0x123');
  await newChat.getByRole('button', { name: 'Start chat' }).click();
  await expect(newChat.getByRole('alert')).toContainText('is not a valid address');
  await expectAccessible(p, 'error: malformed address');
  await newChat.getByRole('button', { name: 'Cancel' }).click();

  const fresh = await alice.restartProcess();
  // A new hash alone would not reload the page.
  await p.goto('about:blank');
  await p.goto(fresh);
  await expect(p.getByRole('button', { name: /Unlock/ })).toBeVisible();
  await expectAccessible(p, 'unlock');
});
