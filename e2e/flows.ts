/** What a person does in the app, written once and reused by the stories. Selects by role and label. */
import { expect, type Page } from '@playwright/test';

/** Creates a wallet, confirms words 3, 7 and 11 of the phrase, connects to `relayUrl`, claims `handle`. */
export async function createAccount(page: Page, opts: { relayUrl: string; handle: string; passphrase?: string }): Promise<string[]> {
  if (opts.passphrase) await page.getByLabel('Passphrase for this computer (recommended)').fill(opts.passphrase);
  await page.getByRole('button', { name: 'Create a new wallet' }).click();
  const phrase = page.getByRole('list', { name: 'Recovery phrase' });
  await expect(phrase.getByRole('listitem')).toHaveCount(12);
  const words = (await phrase.locator('.phrase-word').allTextContents()).map((w) => w.trim());
  await page.getByLabel('I have written these words down somewhere safe').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  for (const n of [3, 7, 11]) await page.getByLabel(`Word ${n}`, { exact: true }).fill(words[n - 1]);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await chooseRelay(page, opts.relayUrl);
  await claimHandle(page, opts.handle);
  return words;
}

export async function chooseRelay(page: Page, relayUrl: string): Promise<void> {
  await page.getByRole('radio', { name: 'A relay address' }).check();
  await page.getByLabel('Relay URL').fill(relayUrl);
  await page.getByRole('button', { name: 'Connect' }).click();
}

export async function claimHandle(page: Page, handle: string): Promise<void> {
  await page.getByLabel('Handle', { exact: true }).fill(handle);
  await page.getByRole('button', { name: 'Claim handle' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}

export async function goTo(page: Page, section: 'Chats' | 'Requests' | 'Directory' | 'Groups' | 'Settings'): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: new RegExp(`^${section}`) }).click();
}

/** Starts a chat with @handle from the directory. */
export async function messageFromDirectory(page: Page, handle: string): Promise<void> {
  await goTo(page, 'Directory');
  await page.getByLabel('Search the directory').fill(handle);
  await page.getByRole('button', { name: `Message @${handle}` }).click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
}

export async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await expect(box).toHaveValue('');
}

export function messages(page: Page) {
  return page.getByRole('log', { name: 'Messages' });
}

export async function openConversation(page: Page, title: string): Promise<void> {
  await goTo(page, 'Chats');
  await page.getByRole('list', { name: 'Conversation list' }).getByRole('button', { name: new RegExp(title) }).click();
}

/** Accepts the pending request from @handle (Requests screen). */
export async function acceptRequest(page: Page, handle: string): Promise<void> {
  await goTo(page, 'Requests');
  await page.getByRole('button', { name: `Accept @${handle}` }).click();
  await expect(page.getByRole('log', { name: 'Messages' })).toBeVisible();
}
