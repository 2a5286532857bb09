/**
 * Local search as a person uses it: a word typed in the chats list's search box finds messages
 * in every conversation, grouped by conversation with the word marked; Enter (or a click) opens
 * the conversation at the message, even one far older than the page a conversation opens
 * with; a conversation's own search finds within it. Keyboard only, and axe-clean.
 */
import { expectAccessible } from './axe.js';
import { createAccount, goTo, messageFromDirectory, messages, send } from './flows.js';
import { expect, test } from './fixtures.js';
import { clientCli, sendHistory, tempDir } from './harness.js';

/** more than a conversation's first page (100), so the oldest ones are not loaded when it opens */
const SENT = 150;

test('search for a word across conversations and in one, and jump to the message', async ({
  unlimitedRelay: relay,
  app,
}) => {
  test.setTimeout(240_000);
  const pete = tempDir('cli-pete');
  const quinn = tempDir('cli-quinn');
  // one after the other: each derives its profile key, which is slow on a busy machine
  for (const [profile, handle] of [
    [pete, 'pete_search'],
    [quinn, 'quinn_search'],
  ]) {
    const init = await clientCli(profile, ['init', '--relay', relay.url, '--handle', handle]);
    expect(init.code, init.stderr).toBe(0);
  }
  const { page } = await app('hana');
  await createAccount(page, { relayUrl: relay.url, handle: 'hana_search' });
  await messageFromDirectory(page, 'pete_search');
  await send(page, 'Send me the whole history');
  const sent = await sendHistory(pete, '@hana_search', SENT, 'History');
  expect(sent.code, sent.stderr).toBe(0);
  await messageFromDirectory(page, 'quinn_search');
  await send(page, 'Is the history lesson still on?');
  const reply = await clientCli(quinn, ['send', '@hana_search', 'Yes, history at nine, bring the atlas']);
  expect(reply.code, reply.stderr).toBe(0);
  await goTo(page, 'Chats');
  const list = page.getByRole('list', { name: 'Conversation list' });
  await expect(list.getByRole('button', { name: /@quinn_search/ })).toContainText('bring the atlas', {
    timeout: 60_000,
  });
  await expect(list.getByRole('button', { name: /@pete_search/ })).toContainText(`History ${SENT}`, {
    timeout: 60_000,
  });

  // Across conversations: grouped by conversation, newest first, the matched word marked.
  const box = page.getByRole('searchbox', { name: 'Search chats and messages' });
  await box.focus();
  await page.keyboard.type('histor');
  const found = page.getByRole('region', { name: 'Messages found' });
  const quinnHits = found.getByRole('region', { name: '@quinn_search' });
  const peteHits = found.getByRole('region', { name: '@pete_search' });
  await expect(quinnHits.getByRole('button')).toHaveCount(2);
  await expect(quinnHits.getByRole('button').first()).toContainText('Yes, history at nine');
  await expect(quinnHits.getByRole('button').nth(1)).toContainText('You: Is the history lesson still on?');
  await expect(quinnHits.locator('mark').first()).toHaveText('history');
  await expect(peteHits.getByRole('button').first()).toContainText(`History ${SENT}`);
  // quinn's reply is the newest hit: its conversation comes first
  await expect(found.getByRole('heading', { level: 3 })).toHaveText(['@quinn_search', '@pete_search']);
  await page.screenshot({ path: test.info().outputPath('search-across-conversations.png') });
  await expectAccessible(page, 'chats: message search');

  // A message far older than the first page: Enter opens the conversation at it, marked.
  await box.fill('007');
  await expect(found.getByRole('button')).toHaveCount(1);
  await expect(found.locator('mark')).toHaveText('007');
  await box.press('Enter');
  const log = messages(page);
  const target = log.locator('.message-row.found');
  await expect(target).toContainText('History 007');
  await expect(target).toBeInViewport();
  // far from the bottom, where the conversation would open without the jump
  expect(await log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeGreaterThan(1000);
  await page.screenshot({ path: test.info().outputPath('jumped-to-history-007.png') });

  // The conversation's own search, by keyboard: a hit chosen with the arrows and Enter.
  await page.getByRole('button', { name: 'Search in conversation' }).click();
  const inConversation = page.getByRole('searchbox', { name: 'Search in @pete_search' });
  await expect(inConversation).toBeFocused();
  await page.keyboard.type('whole');
  const here = page.getByRole('region', { name: 'Messages found in this conversation' });
  await expect(here.getByRole('button')).toHaveCount(1);
  await page.keyboard.press('ArrowDown');
  await expect(here.getByRole('button')).toBeFocused();
  await page.screenshot({ path: test.info().outputPath('search-in-conversation.png') });
  await expectAccessible(page, 'conversation: search');
  await page.keyboard.press('Enter');
  await expect(target).toContainText('Send me the whole history');
  await expect(target).toBeInViewport();
  // nothing to find is said, not an error; Escape closes and gives focus back
  await inConversation.fill('(*)');
  await expect(here.getByRole('status')).toHaveText('No messages match “(*)”.');
  await page.keyboard.press('Escape');
  await expect(inConversation).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Search in conversation' })).toBeFocused();
});
