/**
 * History on a new device, as a person meets it: after setting up a second computer
 * of the same wallet, Settings offers to send it the history; the new device (a headless client
 * here) receives the same conversation.
 */
import { expectAccessible } from './axe.js';
import { chooseRelay, createAccount, goTo, messageFromDirectory, messages, openConversation, send } from './flows.js';
import { expect, test } from './fixtures.js';
import { cliOk, tempDir } from './harness.js';

test('Settings offers to send the history to a new device of mine, which then has the conversation', async ({
  relay,
  app,
}) => {
  test.slow();
  const gus = await app('gus');
  const words = await createAccount(gus.page, { relayUrl: relay.url, handle: 'gus' });
  await cliOk(tempDir('cli-hana'), ['init', '--relay', relay.url, '--handle', 'hana']);
  await messageFromDirectory(gus.page, 'hana');
  await send(gus.page, 'Hello Hana, from my old laptop');
  await expect(messages(gus.page).getByText('Hello Hana, from my old laptop')).toBeVisible();

  const second = tempDir('cli-gus-new-laptop');
  const [fresh] = (await cliOk(second, ['init', '--relay', relay.url, '--mnemonic-env', 'GUS_WORDS'], {
    GUS_WORDS: words.join(' '),
  })) as Array<{ deviceKey: string }>;
  await goTo(gus.page, 'Chats');
  await goTo(gus.page, 'Settings');
  const offer = gus.page.getByRole('group', { name: /^Send your history to / });
  await expect(offer).toBeVisible({ timeout: 20_000 });
  await expect(offer.getByRole('heading')).toHaveText(
    `Send your history to ${fresh.deviceKey.slice(0, 6)}…${fresh.deviceKey.slice(-4)}?`,
  );
  await expectAccessible(gus.page, 'Settings offering to send the history');
  await gus.page
    .getByRole('region', { name: 'Devices' })
    .screenshot({ path: test.info().outputPath('history-offer.png') });

  await offer.getByRole('button', { name: 'Send history' }).click();
  await expect(gus.page.getByRole('status').filter({ hasText: /^History sent to / })).toBeVisible({ timeout: 30_000 });
  await expect(offer).toBeHidden();
  await gus.page
    .getByRole('region', { name: 'Devices' })
    .screenshot({ path: test.info().outputPath('history-sent.png') });

  const [received] = (await cliOk(second, ['history', 'receive'])) as Array<{
    history: string;
    conversations: number;
    messages: number;
  }>;
  expect(received).toMatchObject({ history: 'received', conversations: 1, messages: 1 });
  const [list] = (await cliOk(second, ['conversations'])) as Array<
    Array<{ title: string; lastMessage: { text: string } }>
  >;
  expect(list.map((c) => [c.title, c.lastMessage.text])).toEqual([['@hana', 'Hello Hana, from my old laptop']]);

  // A third device: "Not now" hides the offer, and it stays hidden after the app is reloaded.
  const [tablet] = (await cliOk(
    tempDir('cli-gus-tablet'),
    ['init', '--relay', relay.url, '--mnemonic-env', 'GUS_WORDS'],
    { GUS_WORDS: words.join(' ') },
  )) as Array<{ deviceKey: string }>;
  const short = `${tablet.deviceKey.slice(0, 6)}…${tablet.deviceKey.slice(-4)}`;
  await goTo(gus.page, 'Chats');
  await goTo(gus.page, 'Settings');
  await expect(offer.getByRole('heading')).toHaveText(`Send your history to ${short}?`, { timeout: 20_000 });
  await offer.getByRole('button', { name: 'Not now' }).click();
  await expect(offer).toBeHidden();
  await gus.page.reload();
  await goTo(gus.page, 'Settings');
  await expect(gus.page.getByRole('region', { name: 'Devices' })).toContainText(short);
  await expect(offer).toBeHidden();
});

test('the new computer, set up in the app, receives the history and shows the conversation', async ({ relay, app }) => {
  test.slow();
  const ivy = await app('ivy');
  const words = await createAccount(ivy.page, { relayUrl: relay.url, handle: 'ivy' });
  await cliOk(tempDir('cli-jon'), ['init', '--relay', relay.url, '--handle', 'jon']);
  await messageFromDirectory(ivy.page, 'jon');
  await send(ivy.page, 'Before the move, from the old computer');
  await expect(messages(ivy.page).getByText('Before the move, from the old computer')).toBeVisible();

  const fresh = await app('ivy-new-computer');
  const page = fresh.page;
  await page.getByRole('button', { name: 'I already have a wallet' }).click();
  await page.getByRole('textbox', { name: 'Recovery phrase' }).fill(words.join(' '));
  await page.getByRole('button', { name: 'Import wallet' }).click();
  await page.getByRole('button', { name: 'Skip' }).click();
  await chooseRelay(page, relay.url);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  await goTo(ivy.page, 'Settings');
  const offer = ivy.page.getByRole('group', { name: /^Send your history to / });
  await offer.getByRole('button', { name: 'Send history' }).click({ timeout: 20_000 });
  await expect(ivy.page.getByRole('status').filter({ hasText: /^History sent to / })).toBeVisible({ timeout: 30_000 });

  // the new computer imports it on its own (its sync finds the history message)
  await goTo(page, 'Settings');
  const received = page.getByRole('status').filter({ hasText: /^History received from / });
  await expect(received).toHaveText(/: 1 conversation, 1 message\.$/, { timeout: 30_000 });
  // the old computer is not offered the history back
  await expect(page.getByRole('region', { name: 'Devices' }).locator('.device-row')).toHaveCount(2);
  await expect(page.getByRole('group', { name: /^Send your history to / })).toBeHidden();
  await page
    .getByRole('region', { name: 'Devices' })
    .screenshot({ path: test.info().outputPath('history-received.png') });
  await goTo(page, 'Chats');
  await openConversation(page, '@jon');
  await expect(messages(page).getByText('Before the move, from the old computer')).toBeVisible();
});
