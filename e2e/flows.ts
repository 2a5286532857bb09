/** What a person does in the app, written once and reused by the stories. Selects by role and label. */
import { expect, type Page } from '@playwright/test';

/**
 * Creates a wallet, types back the words the app asks for, connects to `relayUrl` (or the
 * relay built into the app, with 'this computer'), claims `handle`.
 */
export async function createAccount(
  page: Page,
  opts: { relayUrl: string | 'this computer'; handle: string; passphrase?: string },
): Promise<string[]> {
  if (opts.passphrase) await page.getByLabel('Passphrase for this computer (recommended)').fill(opts.passphrase);
  await page.getByRole('button', { name: 'Create a new wallet' }).click();
  const phrase = page.getByRole('list', { name: 'Recovery phrase' });
  await expect(phrase.getByRole('listitem')).toHaveCount(12);
  const words = (await phrase.locator('.phrase-word').allTextContents()).map((w) => w.trim());
  // off until the box is ticked, and it says so: a disabled control always says why
  await expect(page.getByRole('button', { name: 'Continue' })).toHaveAccessibleDescription(
    'Tick the box once the words are written down.',
  );
  await page.getByLabel('I have written these words down somewhere safe').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await confirmWords(page, words);
  await chooseRelay(page, opts.relayUrl);
  await claimHandle(page, opts.handle);
  return words;
}

/** Fills in whichever words of the phrase the confirmation step asks for, and confirms. */
export async function confirmWords(page: Page, words: string[]): Promise<number[]> {
  await expect(page.getByRole('heading', { name: 'Confirm your recovery phrase' })).toBeVisible();
  const labels = await page.locator('form .field-label').allTextContents();
  const positions = labels.map((l) => Number(l.replace('Word ', '')));
  for (const n of positions) await page.getByLabel(`Word ${n}`, { exact: true }).fill(words[n - 1]);
  await page.getByRole('button', { name: 'Confirm' }).click();
  return positions;
}

export async function chooseRelay(page: Page, relayUrl: string | 'this computer'): Promise<void> {
  if (relayUrl === 'this computer') {
    await page.getByRole('radio', { name: 'This computer' }).check();
    await page.getByRole('button', { name: 'Connect' }).click();
    return;
  }
  await page.getByRole('radio', { name: 'A relay address' }).check();
  await page.getByLabel('Relay URL').fill(relayUrl);
  await page.getByRole('button', { name: 'Connect' }).click();
}

export async function claimHandle(page: Page, handle: string): Promise<void> {
  await page.getByLabel('Handle', { exact: true }).fill(handle);
  await page.getByRole('button', { name: 'Claim handle' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}

export async function goTo(
  page: Page,
  section: 'Chats' | 'Requests' | 'Directory' | 'Groups' | 'Stakes' | 'Settings',
): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: new RegExp(`^${section}`) })
    .click();
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
  await page
    .getByRole('list', { name: 'Conversation list' })
    .getByRole('button', { name: new RegExp(title) })
    .click();
}

/** Accepts the pending request from @handle (Requests screen). */
export async function acceptRequest(page: Page, handle: string): Promise<void> {
  await goTo(page, 'Requests');
  await page.getByRole('button', { name: `Accept @${handle}` }).click();
  await expect(page.getByRole('log', { name: 'Messages' })).toBeVisible();
}
